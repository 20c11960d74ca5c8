# Dockerfile - puzzled as a container image: built on Debian 12, run as
# an unprivileged user, listening on 0.0.0.0:8080.
#
#   docker build -t puzzled:0.1.0 .
#   docker run --rm -p 8080:8080 puzzled:0.1.0
#
# Settings: mount a puzzled.conf at /etc/puzzled/puzzled.conf, or pass
# PUZZLED_* variables (-e PUZZLED_WORKERS=4); flags after the image name
# are handed to `puzzled serve` (docker run puzzled:0.1.0 --queue 64).

# --- build stage ----------------------------------------------------------
FROM debian:bookworm AS build
# cmocka and libcurl only so that scripts/deps.sh (run by make) finds
# every package it checks for and installs nothing itself.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
        gcc libc6-dev make pkg-config \
        libmicrohttpd-dev libjansson-dev libsqlite3-dev libcmocka-dev \
        libcurl4-openssl-dev libhiredis-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile ./
COPY scripts/ scripts/
COPY include/ include/
COPY src/ src/
RUN make -j"$(nproc)" BUILD=build build/puzzled \
 && strip build/puzzled

# --- runtime stage --------------------------------------------------------
FROM debian:bookworm-slim
# The shared libraries puzzled links (hiredis: the shared store, when
# redis_url is set), and curl for HEALTHCHECK; zlib1g (the static files'
# gzip copies) is in every Debian image.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
        libmicrohttpd12 libjansson4 libsqlite3-0 libhiredis0.14 curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 puzzled \
 && useradd --system --uid 10001 --gid puzzled --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin puzzled \
 && mkdir -p /var/cache/puzzled/pdb /var/lib/puzzled \
 && chown puzzled:puzzled /var/cache/puzzled/pdb /var/lib/puzzled
COPY --from=build /src/build/puzzled /usr/local/bin/puzzled
# static_root ("www") and openapi_path ("openapi.yaml") are relative to
# the working directory, so the defaults find the files here.
WORKDIR /usr/share/puzzled
COPY openapi.yaml ./
COPY www/ www/
COPY config/puzzled.conf /etc/puzzled/puzzled.conf
# Inside a container the listener must face the container's network;
# the environment overrides the file's bind = 127.0.0.1.
ENV PUZZLED_CONFIG=/etc/puzzled/puzzled.conf \
    PUZZLED_BIND=0.0.0.0 \
    PUZZLED_PORT=8080 \
    PUZZLED_PDB_DIR=/var/cache/puzzled/pdb \
    PUZZLED_STATE_DIR=/var/lib/puzzled
# The store (the daily leaderboard, puzzled.db): mount a volume here to
# keep it past the container.
VOLUME /var/lib/puzzled
USER 10001:10001
EXPOSE 8080
# /livez answers from the network threads, which never solve, so a busy
# server stays healthy.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/livez || exit 1
# puzzled drains on SIGTERM (stop accepting, finish running solves within
# shutdown_grace_ms, exit 0); give `docker stop -t` at least that long.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/puzzled", "serve"]
