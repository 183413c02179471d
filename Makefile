# Enso: `make test` is what CI runs (.ci/run). Every system package a target needs is installed by `make deps`.
SHELL := /bin/bash
SWIFT ?= swift
# Tests run on an optimised build: the DSP under test is numeric code that is 20-50x slower unoptimised.
TEST_FLAGS ?= -c release -Xswiftc -enable-testing
# Debian packages: C libraries (build), command-line audio tools (tests and peers in benchmarks).
APT_PACKAGES := pkg-config libsndfile1-dev libsamplerate0-dev libasound2-dev libebur128-dev libkissfft-dev zlib1g-dev \
                alsa-utils sox pulseaudio pulseaudio-utils libasound2-plugins chromium
# Minutes of the playback soak in `make bench` (0 skips it).
SOAK_MINUTES ?= 10
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build test bench clean demo play assets fuzz dist

## deps: install the Debian packages Enso needs (idempotent; root directly, otherwise through sudo)
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "make deps: all packages present"; fi

## build: build the library and tools (release)
build: deps
	$(SWIFT) build -c release

## test: deps, build and the whole test suite, the fuzzers and the self-contained build's check
test: deps
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	# A PulseAudio null sink is up for the duration of the tests (real-time device tests; skipped without it).
	Tests/Scripts/with-pulse-null-sink.sh $(SWIFT) test $(TEST_FLAGS) --skip-build
	$(MAKE) fuzz
	$(MAKE) dist

## dist: a self-contained `enso` (Swift runtime linked in: runs where only Debian's C libraries are installed) with the
## bundled pack beside it, in out/enso/, then checked (Tools/dist/check.sh)
dist: deps
	$(SWIFT) build -c release --product enso --static-swift-stdlib --scratch-path .build/dist
	rm -rf out/enso && mkdir -p out/enso
	cp .build/dist/release/enso out/enso/enso
	cp -R Assets out/enso/Assets
	Tools/dist/check.sh out/enso

## bench: the benchmark tables (Benchmarks/ package, side by side with peer tools); BENCH_ARGS="decode --runs 9"
bench: deps
	$(SWIFT) build -c release --product enso
	# SwiftPM keeps the bench's build plan when only the parent package gains files: drop it so they are seen.
	rm -f Benchmarks/.build/release.yaml Benchmarks/.build/release/description.json
	cd Benchmarks && $(SWIFT) run -c release enso-bench $(BENCH_ARGS)
	# Playback soak on a PulseAudio null sink with the other core busy: xruns, render time per period, RSS.
	[ "$(SOAK_MINUTES)" = 0 ] || Benchmarks/Scripts/playback-soak.sh $(SOAK_MINUTES)

## demo: the README's first command: deps, build, render the demo session to out/ and verify it (Tools/demo.sh)
demo: deps
	$(SWIFT) build -c release
	Tools/demo.sh

## play: play the demo session live on the default device (Tools/demo.sh play; PLAY_ARGS="--output null" without one)
play: deps
	$(SWIFT) build -c release
	Tools/demo.sh play $(PLAY_ARGS)

## assets: regenerate the bundled pack in Assets/ from its seed (byte-identical; see docs/assets.md)
assets: deps
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/make-assets build --out Assets

## fuzz: the three control-protocol fuzzers (libFuzzer: JSON line parser, dispatcher, live controller), FUZZ_SECONDS (default 60) each; fails on any crash
FUZZ_SECONDS ?= 60
fuzz:
	Tools/protocol-fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build Benchmarks/.build out
