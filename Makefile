# puzzled - build, test and run. Targets: all (default), test, run, asan,
# bench, clean. Dependencies are installed on demand by scripts/deps.sh.

CC ?= cc
SANITIZER ?=
ifeq ($(SANITIZER),)
BUILD ?= build
else
BUILD ?= build-$(subst $(comma),-,$(SANITIZER))
endif
comma := ,

PKGS := libmicrohttpd jansson
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_PKG_LIBS = $(shell pkg-config --libs cmocka libcurl 2>/dev/null)

# OPT is the optimisation level; CFLAGS given on the command line are
# added to (not replacing) the flags the build needs.
OPT ?= -O2 -g
override CFLAGS += $(OPT) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
          -Wstrict-prototypes -Wmissing-prototypes -Iinclude -Isrc \
          $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -pthread -lm
ifneq ($(SANITIZER),)
override CFLAGS += -fsanitize=$(SANITIZER) -fno-omit-frame-pointer \
          -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZER)
endif

CORE_SRCS := $(wildcard src/core/*.c)
APP_SRCS := $(wildcard src/codec/*.c src/pool/*.c src/http/*.c src/cli/*.c)
TEST_SRCS := $(wildcard tests/test_*.c)
BENCH_SRCS := $(wildcard bench/*.c)

CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
APP_OBJS := $(APP_SRCS:%.c=$(BUILD)/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
TEST_SUPPORT := $(wildcard tests/support/*.c)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT:%.c=$(BUILD)/%.o)

LIBCORE := $(BUILD)/libpuzzled.a
LIBAPP := $(BUILD)/libpuzapp.a
PUZZLED := $(BUILD)/puzzled

.PHONY: all deps test unit run asan bench clean
all: $(PUZZLED) bin/puzzled

deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIBCORE): $(CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(LIBAPP): $(APP_OBJS)
	@rm -f $@
	ar rcs $@ $^ $(if $(APP_OBJS),,)

$(PUZZLED): $(BUILD)/src/main.o $(LIBAPP) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A stable path for people and scripts: bin/puzzled is the release build.
bin/puzzled: $(PUZZLED)
	@mkdir -p bin
	@if [ "$(BUILD)" = build ]; then ln -sf ../build/puzzled bin/puzzled; fi

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJS) $(LIBAPP) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_PKG_LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBAPP) $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every test binary, then the scripted checks (CLI, integration, browser).
test: all $(TEST_BINS) $(BENCH_BINS)
	@sh scripts/deps.sh --test
	@BUILD=$(BUILD) sh tests/run.sh $(TEST_BINS)

unit: $(TEST_BINS)
	@BUILD=$(BUILD) sh tests/run.sh --unit-only $(TEST_BINS)

asan:
	$(MAKE) SANITIZER=address,undefined OPT="-O1 -g" test

bench: $(BENCH_BINS) $(PUZZLED)

run: all
	./$(PUZZLED) serve --config config/puzzled.conf --pdb 6-6-3

clean:
	rm -rf build build-* bin

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
