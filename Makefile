# puzzled - build, test and run. Targets: all (default), test, run, asan,
# bench, clean. `make run` and `make test` first install what the machine
# lacks (scripts/deps.sh, once per command), then build in a sub-make so
# that pkg-config's flags are read after the install; plain `make` only
# builds. Builds run on every core (below); `make test` reuses the
# objects `make run` built (same flags, same build directory).

# Every core by default for make, make test and make run: they build in
# a sub-make given -j$(JOBS), unless a -j was given (which then wins).
# Make 4.3 shows -j in MAKEFLAGS only inside recipes, so it is tested
# there (PAR); setting -j in MAKEFLAGS itself would override the user's.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PAR = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

CC ?= cc
SANITIZER ?=
ifeq ($(SANITIZER),)
BUILD ?= build
else
BUILD ?= build-$(subst $(comma),-,$(SANITIZER))
endif
comma := ,

PKGS := libmicrohttpd jansson sqlite3 libcrypto hiredis zlib
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_PKG_LIBS = $(shell pkg-config --libs cmocka libcurl 2>/dev/null)

# OPT is the optimisation level; CFLAGS given on the command line are
# added to (not replacing) the flags the build needs.
OPT ?= -O2 -g
override CFLAGS += $(OPT) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
          -Wstrict-prototypes -Wmissing-prototypes -Iinclude -Isrc -Isrc/core \
          $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -pthread -lm
# gold where binutils has it (Debian 12's does): make test links ~55
# programs, 0.24 s each with ld.bfd and 0.14 s with gold.
LD_GOLD := $(shell $(CC) -fuse-ld=gold -Wl,--version 2>/dev/null | \
             grep -q 'GNU gold' && echo -fuse-ld=gold)
LDFLAGS += $(LD_GOLD)
ifneq ($(SANITIZER),)
override CFLAGS += -fsanitize=$(SANITIZER) -fno-omit-frame-pointer \
          -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZER)
endif

CORE_SRCS := $(wildcard src/core/*/*.c)
APP_SRCS := $(wildcard src/codec/*.c src/pool/*.c src/jobs/*.c src/api/*.c \
            src/http/*.c src/cli/*.c src/store/*.c)
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

.PHONY: all build-all deps deps-test test test-build unit run config-docs asan test-asan test-tsan fuzz \
	deps-fuzz fuzz-run \
	bench clean
ifeq ($(MAKELEVEL),0)
all:
	@$(MAKE) $(PAR) --no-print-directory build-all
else
all: build-all
endif
build-all: $(PUZZLED) bin/puzzled

deps:
	@sh scripts/deps.sh

deps-test:
	@sh scripts/deps.sh --test

# A build says one short line per file ("  CC   build/src/x.o"), not the
# whole command, whose -Werror and -Wall read like errors and warnings
# in a passing make test; V=1 shows the commands.
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-4s %s\n' $(1) $(2))

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIBCORE): $(CORE_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(LIBAPP): $(APP_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^ $(if $(APP_OBJS),,)

$(PUZZLED): $(BUILD)/src/main.o $(LIBAPP) $(LIBCORE)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A stable path for people and scripts: bin/puzzled is the release build.
bin/puzzled: $(PUZZLED)
	@mkdir -p bin
	@if [ "$(BUILD)" = build ]; then ln -sf ../build/puzzled bin/puzzled; fi

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJS) $(LIBAPP) $(LIBCORE)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(TEST_PKG_LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBAPP) $(LIBCORE)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every test binary, then the scripted checks (CLI, integration, browser),
# several at a time (tests/run.py). T=NAME... runs only those (globs ok:
# T='e2e_*'), JOBS_TEST=N suites at once, V=1 shows every suite's output.
RUN_ENV = BUILD=$(BUILD) T="$(T)" SKIP="$(SKIP)" JOBS_TEST="$(JOBS_TEST)" V="$(V)"
# npm ci (deps.sh --npm) runs beside the build: it mostly waits on the
# registry, and the build wants the cores; both end before the suites.
test: deps-test
	@sh scripts/deps.sh --npm & npm=$$!; \
	$(MAKE) $(PAR) --no-print-directory test-build; built=$$?; \
	wait $$npm || exit 1; exit $$built
	@$(RUN_ENV) sh tests/run.sh $(TEST_BINS)

# One goal with a recipe, so that a build with nothing to do says nothing
# (make names every up-to-date goal given on its command line).
test-build: all $(TEST_BINS) $(BENCH_BINS)
	@:

unit: $(TEST_BINS)
	@$(RUN_ENV) sh tests/run.sh --unit-only $(TEST_BINS)

asan:
	$(MAKE) SANITIZER=address,undefined OPT="-O1 -g" test

# --- Sanitizers ----------------------------------------------------------
# Each in its own build directory next to $(BUILD). test-asan is every
# test under ASan+UBSan, with the 3x3 ground truth sampled rather than
# swept (PUZZLED_QUICK); test-tsan is ThreadSanitizer on the pool and
# the server tests and the shared jobs (own redis-server), the code
# where threads meet.
TSAN_TESTS := test_pool test_http_api test_http_load test_http_hostile test_jobs \
	test_idastar_units test_pdb_background \
	test_http_jobs test_jobq test_jobsvc
# Sanitized code runs several times slower: each suite's timeout too.
# Left out under the sanitizers: suites that run no C of ours beyond what
# the others run (manifests, docs, the generated config reference, the
# Dockerfile) and the browser suites but two: they test the page, and the
# server code they reach is the HTTP suites' (test_http_*); e2e_jobs and
# e2e_daily_clock keep a browser's real traffic on the sanitized server.
ASAN_SKIP := k8s_manifests.sh doc_commands.sh config_docs.sh http_dockerfile.sh \
	e2e_board.sh e2e_game.sh e2e_round2.sh e2e_round3.sh e2e_contrast.sh e2e_round4.sh \
	e2e_shapes.sh e2e_daily.sh e2e_load.sh e2e_round4_rest.sh
# The pattern databases the tests load come from the release build's
# cache when it has them (the same files: the format does not depend on
# the build): built under ASan they took minutes of CPU in test_pdb and
# test_rect_pdb. The builder still runs sanitized: test_pdb rebuilds a
# damaged file and test_pdb_background builds its sets in an empty
# directory. Two more suites than cores at once: many of them wait
# (leases, deadlines, browsers), and at one more the CPUs idled a fifth
# of the time (a warm run: 191 s at 3, 156 s at 4 on 2 cores).
test-asan:
	@mkdir -p $(BUILD)-asan/pdb-cache
	@if [ -d $(BUILD)/pdb-cache ]; then \
		cp -n $(BUILD)/pdb-cache/*.bin $(BUILD)-asan/pdb-cache/ 2>/dev/null || :; fi
	PUZZLED_QUICK=1 TEST_TIMEOUT_SCALE=4 SKIP="$(ASAN_SKIP) $(SKIP)" \
		JOBS_TEST="$(or $(JOBS_TEST),$(shell echo $$(($(JOBS) + 2))))" $(MAKE) \
		SANITIZER=address,undefined OPT="-O1 -g" BUILD=$(BUILD)-asan test

test-tsan:
	$(MAKE) SANITIZER=thread OPT="-O1 -g" BUILD=$(BUILD)-tsan \
		$(TSAN_TESTS:%=$(BUILD)-tsan/tests/%)
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
		TEST_TIMEOUT_SCALE=4 BUILD=$(BUILD)-tsan sh tests/run.sh --unit-only \
		$(TSAN_TESTS:%=$(BUILD)-tsan/tests/%)

# --- Fuzzing --------------------------------------------------------------
# libFuzzer targets (clang): fuzz/fuzz_<name>.c calls the entry point in
# tests/support/fuzz_entry.c that tests/test_fuzz_regress.c replays.
# Seeds come from fuzz/corpus/<name>/ (read only); what the run finds
# goes to $(FUZZ_BUILD)/corpus/<name>/, crashes to $(FUZZ_BUILD)/.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := $(BUILD)-fuzz
FUZZ_TARGETS := decode board keys daily daily_entry
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Isrc/core \
	$(PKG_CFLAGS)
# The code the targets feed: the decoders and what they parse with (the
# board, the arena, the algorithm and heuristic names, the store's
# checks of days, nicknames and tokens). Compiled once for every target (instrumented, not
# linked with the fuzzer's main), then each target links its own
# fuzz/fuzz_<name>.c. Whatever else they call (the searches behind the
# daily's par, the store) comes from the release build's archives, not
# instrumented: compiling the whole core with clang and ASan took ~6 of
# .ci/run's minutes, for code the fuzzers do not feed.
FUZZ_SRCS := tests/support/fuzz_entry.c src/api/decode.c src/api/daily_entry.c \
	src/api/problem.c src/api/limits.c src/api/keys.c src/api/daily.c \
	src/core/base/board.c src/core/base/arena.c src/core/solve/algorithm.c \
	src/core/heur/heuristic.c src/store/store.c
FUZZ_OBJS := $(FUZZ_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_OBJS) $(LIBAPP) $(LIBCORE)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) \
		$(LIBAPP) $(LIBCORE) $(PKG_LIBS) -pthread -lm

-include $(FUZZ_OBJS:.o=.d)

# libFuzzer's running commentary goes to $(FUZZ_BUILD)/<name>.log, shown
# when a target fails (with the crashing input's file named in it).
fuzz: deps-fuzz
	@$(MAKE) $(PAR) --no-print-directory fuzz-run

deps-fuzz:
	@sh scripts/deps.sh --fuzz

# One goal per target, so that the cores share them (make fuzz passes -j).
fuzz-run: $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-run-%: $(FUZZ_BUILD)/fuzz_%
	@mkdir -p $(FUZZ_BUILD)/corpus/$*
	@if $(FUZZ_BUILD)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) \
		-max_len=8192 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/$*- \
		$(FUZZ_BUILD)/corpus/$* fuzz/corpus/$* \
		>$(FUZZ_BUILD)/$*.log 2>&1; then \
		echo "== PASS fuzz $* ($(FUZZ_SECONDS) s," \
			"$$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' \
			$(FUZZ_BUILD)/$*.log) inputs)"; \
	else \
		tail -n 60 $(FUZZ_BUILD)/$*.log; \
		echo "== FAIL fuzz $* (log: $(FUZZ_BUILD)/$*.log)"; \
		exit 1; \
	fi

bench: $(BENCH_BINS) $(PUZZLED)

# The settings' reference in config/puzzled.conf, docs/operations.md and
# man/puzzled.conf.5, printed again from the keys' rows (src/http/config.c,
# src/api/limits.c); tests/scripts/config_docs.sh fails until this ran.
config-docs: all
	PUZZLED=$(PUZZLED) sh scripts/config-docs.sh

run: deps
	@$(MAKE) $(PAR) --no-print-directory all
	./$(PUZZLED) serve --config config/puzzled.conf

clean:
	rm -rf build build-* bin

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# --- Install ----------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=...]: the puzzled binary, the
# core as a library (shared, versioned, only the public puz_* names
# exported; and static), its headers, puzzled.pc, the man pages and the
# systemd unit. make uninstall removes exactly those files. The version
# has one home, include/puz_version.h; the soname is its major number.
# The shared library's objects are -fPIC and live in $(BUILD)/pic, so the
# ordinary build is the same with or without it.
VERSION := $(shell awk '/^\#define PUZ_VERSION_(MAJOR|MINOR|PATCH) /{ \
	v = v s $$3; s = "." } END { print v }' include/puz_version.h)
VERSION_MAJOR := $(firstword $(subst ., ,$(VERSION)))
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
INSTALL ?= install

PIC_BUILD := $(BUILD)/pic
SONAME := libpuzzled.so.$(VERSION_MAJOR)
SHLIB := $(PIC_BUILD)/libpuzzled.so.$(VERSION)
PIC_OBJS := $(CORE_SRCS:%.c=$(PIC_BUILD)/%.o)
PUBLIC_HEADERS := $(wildcard include/puz_*.h)
SYSTEMD_UNIT := deploy/systemd/puzzled.service

.PHONY: shared install uninstall
shared: $(SHLIB)

$(PIC_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

# The version script exports puz_[a-z0-9]* and hides the rest, among
# them the puz__ helpers only the core's own files share.
$(SHLIB): $(PIC_OBJS) lib/puzzled.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=lib/puzzled.map -Wl,-z,defs \
		-o $@ $(PIC_OBJS)

# Remade every time: it holds PREFIX, whose changes make cannot see.
.PHONY: $(BUILD)/puzzled.pc
$(BUILD)/puzzled.pc: lib/puzzled.pc.in
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		lib/puzzled.pc.in >$@

# install_man SRC,DEST: the page with VERSION in its .TH line's
# "puzzled X.Y.Z", so the version is not kept in the pages too.
install_man = sed 's/^\(\.TH .*"puzzled \)[0-9.]*"/\1$(VERSION)"/' $(1) >$(2) && \
	chmod 644 $(2)

# The unit's ExecStart names /usr/local/bin (the default PREFIX); the
# installed copy names BINDIR.
install: $(PUZZLED) $(LIBCORE) $(SHLIB) $(BUILD)/puzzled.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(INCLUDEDIR)/puzzled $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(SYSTEMDDIR)
	$(INSTALL) -m 755 $(PUZZLED) $(DESTDIR)$(BINDIR)/puzzled
	$(INSTALL) -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libpuzzled.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpuzzled.so
	$(INSTALL) -m 644 $(LIBCORE) $(DESTDIR)$(LIBDIR)/libpuzzled.a
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/puzzled/
	$(INSTALL) -m 644 $(BUILD)/puzzled.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(call install_man,man/puzzled.1,$(DESTDIR)$(MANDIR)/man1/puzzled.1)
	$(call install_man,man/puzzled.conf.5,$(DESTDIR)$(MANDIR)/man5/puzzled.conf.5)
	sed 's|^ExecStart=/usr/local/bin/|ExecStart=$(BINDIR)/|' $(SYSTEMD_UNIT) \
		>$(DESTDIR)$(SYSTEMDDIR)/puzzled.service
	chmod 644 $(DESTDIR)$(SYSTEMDDIR)/puzzled.service

# The files install put there; of the directories only include/puzzled,
# which is ours alone (the others may hold anyone's files).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/puzzled \
		$(DESTDIR)$(LIBDIR)/libpuzzled.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libpuzzled.so \
		$(DESTDIR)$(LIBDIR)/libpuzzled.a \
		$(PUBLIC_HEADERS:include/%=$(DESTDIR)$(INCLUDEDIR)/puzzled/%) \
		$(DESTDIR)$(PKGCONFIGDIR)/puzzled.pc \
		$(DESTDIR)$(MANDIR)/man1/puzzled.1 \
		$(DESTDIR)$(MANDIR)/man5/puzzled.conf.5 \
		$(DESTDIR)$(SYSTEMDDIR)/puzzled.service
	rmdir $(DESTDIR)$(INCLUDEDIR)/puzzled 2>/dev/null || true
