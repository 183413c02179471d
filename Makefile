# Enso: `make test` is what CI runs (.ci/run). `make` alone lists the targets. Every system package a target needs is
# installed by the target itself: `make deps` (building) or `make test-deps` (testing, benchmarking).
SHELL := /bin/bash
SWIFT ?= swift
# Tests run on an optimised build: the DSP under test is numeric code that is 20-50x slower unoptimised (the test
# targets themselves compile unoptimised: Package.swift says why). They build in their own scratch folder, so `swift
# build`/`swift run -c release` afterwards reuse .build/ instead of recompiling. Without debug information (-gnone):
# no debugger runs on it, and a failing expectation names its file and line without it; making it took a tenth of
# the build (404 against 365 CPU-s).
TEST_FLAGS ?= -c release -Xswiftc -enable-testing -Xswiftc -gnone --scratch-path .build/test
# Debian packages: C libraries and pkg-config to build; command-line audio tools, a sound server, a browser, man,
# the shells the completions are checked in and GNU parallel (the docs/scale.md recipe), to test (and for peers in
# benchmarks).
BUILD_PACKAGES := pkg-config libsndfile1-dev libsamplerate0-dev libasound2-dev libebur128-dev libkissfft-dev zlib1g-dev \
                  libxxhash-dev binutils
TEST_PACKAGES := $(BUILD_PACKAGES) alsa-utils sox libsox-fmt-mp3 opus-tools pulseaudio pulseaudio-utils \
                 libasound2-plugins chromium man-db groff-base zsh fish parallel
# Minutes of the playback soak in `make bench` (0 skips it).
SOAK_MINUTES ?= 10
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# `make install`: PREFIX=/usr/local DESTDIR= (staging root for packagers).
PREFIX ?= /usr/local
DESTDIR ?=

.DEFAULT_GOAL := help
.PHONY: help deps test-deps build lint test bench bench-scale clean demo play assets fuzz dist dist-build install uninstall man docs

## help: list the targets (what a bare `make` does)
help:
	@echo "Enso targets (make <target>):"
	@sed -n 's/^## \([a-z-]*\): /  \1\t/p' $(MAKEFILE_LIST) | expand -t 14
	@echo "Quick start: make demo (5-6 minutes the first time on 2 cores: the release build; seconds after), then make test (6-13 minutes); README.md says more."

# apt-get install of the packages in $(1) that are missing (idempotent; root directly, otherwise through sudo).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make $@: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "make $@: all packages present"; fi
endef

## deps: install the Debian packages Enso needs to build (C libraries, pkg-config)
deps:
	$(call apt_install,$(BUILD_PACKAGES))

## test-deps: also the packages tests and benchmarks need (sox with MP3, opusenc, pulseaudio, chromium, man, zsh, fish)
test-deps:
	$(call apt_install,$(TEST_PACKAGES))

## build: build the library and tools (release)
build: deps
	$(SWIFT) build -c release

## lint: `swift format lint` (the toolchain's; rules in .swift-format) over every Swift file, failing on any finding
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Tools Benchmarks \
		Examples/LibraryConsumer/Package.swift Examples/LibraryConsumer/Sources

## test: what CI runs: test-deps, lint, the whole test suite, the fuzzers (30 s each) and `make dist` (6-13 minutes on two cores)
test: test-deps lint
	# The test build and the tests (with a PulseAudio null sink up), then the fuzzers, the dist check and the library
	# consumer (Examples/LibraryConsumer) built and run; the fuzzers', the dist and the consumer's builds compile in
	# the background under nice meanwhile (Tests/Scripts/suite.sh says why). Each step's output is in .build/suite/;
	# the failures and their count are printed last. No $$(MAKE) on this
	# line: `make -n test` would run it.
	SWIFT="$(SWIFT)" TEST_FLAGS="$(TEST_FLAGS)" FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) Tests/Scripts/suite.sh

## dist: a self-contained stripped `enso` with the pack, README and licence in out/enso/, checked
## (Swift runtime linked in: runs where only Debian's C libraries are installed; Tools/dist/check.sh)
dist: dist-build
	rm -rf out/enso && mkdir -p out/enso
	cp .build/dist/release/enso out/enso/enso
	strip out/enso/enso
	cp -R Assets out/enso/Assets
	cp README.md LICENSE NOTICE out/enso/
	Tools/dist/check.sh out/enso

# Without debug information (-gnone): `dist` and `install` strip it anyway, and not making it spares a tenth of the
# build (224 against 198 CPU-s).
dist-build: deps
	$(SWIFT) build -c release --product enso --static-swift-stdlib --scratch-path .build/dist -Xswiftc -gnone

## install: enso, its pack, man page, completions and docs under DESTDIR/PREFIX (default /usr/local)
## The stripped self-contained binary in bin/, the pack in share/enso/, share/man/man1/enso.1, bash/zsh/fish
## completions in their usual folders, README and licence in share/doc/enso/ (Tools/install.sh).
install: dist-build
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" ENSO=.build/dist/release/enso Tools/install.sh install

## uninstall: remove what `make install` put under DESTDIR/PREFIX
uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" Tools/install.sh uninstall

## man: the manual page and the completion scripts, generated from the CLI's command specs, in out/man/
man: deps
	$(SWIFT) build -c release --product enso
	mkdir -p out/man
	$$($(SWIFT) build -c release --show-bin-path)/enso --generate-manual > out/man/enso.1
	for sh in bash zsh fish; do \
	  $$($(SWIFT) build -c release --show-bin-path)/enso --generate-completion-script $$sh > out/man/enso.$$sh; done
	@echo "out/man/enso.1: read it with man -l out/man/enso.1"

## docs: the API reference (DocC) of every library, in out/docs/<Module>.doccarchive (the toolchain's docc)
## Symbol graphs from a release build in .build/docs, then `docc convert` of each module's Docs.docc catalog.
DOC_MODULES := AudioCore SystemIO AudioFile AudioDSP AudioEngine AudioDevice AssetPipeline AssetReports AssetLoading ControlProtocol PlaybackService JSONText
DOCC ?= $(shell command -v docc || echo "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/docc")
docs: deps
	# An incremental build re-emits only the graphs of the modules it recompiles: when one is missing, rebuild all.
	mkdir -p .build/docs/symbol-graphs out/docs
	@for m in $(DOC_MODULES); do [ -f .build/docs/symbol-graphs/$$m.symbols.json ] || \
	  { [ ! -e .build/docs/release ] || rm -rf "$$(readlink -f .build/docs/release)"; break; }; done
	# PlaybackService depends on every other library but AssetReports, so building the two builds them all.
	for t in PlaybackService AssetReports; do $(SWIFT) build -c release --scratch-path .build/docs --target $$t \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/docs/symbol-graphs || exit 1; done
	set -e; for m in $(DOC_MODULES); do \
	  rm -rf .build/docs/graphs/$$m out/docs/$$m.doccarchive && mkdir -p .build/docs/graphs/$$m; \
	  cp .build/docs/symbol-graphs/$$m.symbols.json .build/docs/graphs/$$m/; \
	  cp .build/docs/symbol-graphs/$$m@*.symbols.json .build/docs/graphs/$$m/ 2>/dev/null || true; \
	  "$(DOCC)" convert Sources/$$m/Docs.docc --additional-symbol-graph-dir .build/docs/graphs/$$m \
	    --fallback-display-name $$m --fallback-bundle-identifier org.enso.$$m \
	    --output-path out/docs/$$m.doccarchive >.build/docs/$$m.log 2>&1 || { cat .build/docs/$$m.log >&2; exit 1; }; \
	  echo "out/docs/$$m.doccarchive ($$(grep -c 'warning:' .build/docs/$$m.log || true) warnings, .build/docs/$$m.log)"; \
	done

## bench: the benchmark tables, side by side with peer tools (Benchmarks/; BENCH_ARGS="decode --runs 9")
bench: test-deps
	$(SWIFT) build -c release --product enso
	# SwiftPM keeps the bench's build plan when only the parent package gains files: drop it so they are seen.
	rm -f Benchmarks/.build/release.yaml Benchmarks/.build/release/description.json
	cd Benchmarks && $(SWIFT) run -c release enso-bench $(BENCH_ARGS)
	# Playback soak on a PulseAudio null sink with the other core busy: xruns, render time per period, RSS.
	[ "$(SOAK_MINUTES)" = 0 ] || Benchmarks/Scripts/playback-soak.sh $(SOAK_MINUTES)

## bench-scale: only issue #44's batch figures, side by side as ratios (docs/benchmarks.md; BENCH_ARGS="--runs 5")
bench-scale:
	$(MAKE) bench BENCH_ARGS="Scale: $(BENCH_ARGS)" SOAK_MINUTES=0

## demo: the README's first command: build, render the demo session to out/ and verify it (Tools/demo.sh; 5-6 min the first time on 2 cores, seconds after)
demo: deps
	$(SWIFT) build -c release
	Tools/demo.sh

## play: play the demo session live on the default device (PLAY_ARGS="--output null" without one)
play: deps
	$(SWIFT) build -c release
	@Tools/demo.sh play $(PLAY_ARGS) || { rc=$$?; [ -n "$(PLAY_ARGS)" ] || echo "make play: no playable sound \
	device? Play to the paced null output instead: make play PLAY_ARGS=\"--output null\"" >&2; exit $$rc; }

## assets: regenerate the bundled pack in Assets/ from its seed (byte-identical; see docs/assets.md)
assets: deps
	$(SWIFT) build -c release
	$$($(SWIFT) build -c release --show-bin-path)/make-assets build --out Assets

## fuzz: the three control-protocol fuzzers (libFuzzer), FUZZ_SECONDS (default 60) each; fails on any crash
FUZZ_SECONDS ?= 60
# `make test` gives each fuzzer 30 s (the parser and protocol fuzzers side by side, then the controller) to keep
# the whole suite short on two cores; `make fuzz` alone runs them longer.
TEST_FUZZ_SECONDS ?= 30
fuzz: deps
	Tools/protocol-fuzz/run.sh $(FUZZ_SECONDS)

## clean: remove the builds (.build, Benchmarks/.build) and out/
clean:
	rm -rf .build Benchmarks/.build out
