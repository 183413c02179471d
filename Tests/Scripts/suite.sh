#!/usr/bin/env bash
# What `make test` runs after the lint and the test build: the test suite, the three fuzzers (FUZZ_SECONDS each) and
# the dist check, with the fuzzers' build and the dist build compiling at the lowest CPU priority while the tests run.
#
# Why side by side: each of those two builds compiles every module again under its own flags (sanitizers; a static
# Swift runtime): about 100 and 125 s on two cores, CPU-bound. The test suite, meanwhile, spends most of its time
# waiting on real time (paced outputs, subprocesses) and uses a little over one core. At nice 19 the builds get only
# what the tests leave idle: the kernel's scheduler gives a nice-0 thread 1024 shares to their 15, so a test that
# wants a core has it at once, as on a machine with a busy background job, which the tests are written to bear (they
# pass with another core busy: docs/ARCHITECTURE.md, "Tests and time"). The fuzzers then run while the dist build
# finishes, again ahead of it.
#
# Usage (from the repository root): SWIFT=swift TEST_FLAGS="-c release ..." FUZZ_SECONDS=30 Tests/Scripts/suite.sh
# The builds' output is in .build/suite/ and is printed when one fails.
set -uo pipefail
swift="${SWIFT:-swift}"
make="${MAKE:-make}"
read -r -a test_flags <<<"${TEST_FLAGS:?set TEST_FLAGS to the flags the tests were built with}"
fuzz_seconds="${FUZZ_SECONDS:-30}"
logs=.build/suite
rm -rf "$logs" && mkdir -p "$logs"

# The two builds, one after the other (the fuzzers are needed first), in their own process group so that a failure
# stops them whole. Each writes its exit status to a file when it ends.
setsid bash -c '
    nice -n 19 Tools/protocol-fuzz/run.sh --build-only >"$1/fuzz-build.log" 2>&1; echo $? >"$1/fuzz-build.status"
    nice -n 19 "$2" --no-print-directory dist-build >"$1/dist-build.log" 2>&1; echo $? >"$1/dist-build.status"
' builds "$logs" "$make" &
builds=$!
stop_builds() { kill -- -"$builds" 2>/dev/null; wait "$builds" 2>/dev/null; }
trap stop_builds EXIT

# Waits for the build whose status file is $1 and prints its last line; on failure prints its log and exits.
await() {
    local name="$1"
    while [ ! -e "$logs/$name.status" ]; do
        kill -0 "$builds" 2>/dev/null || { echo "suite: the $name ended without a status" >&2; exit 1; }
        sleep 1
    done
    if [ "$(cat "$logs/$name.status")" != 0 ]; then
        echo "suite: the $name failed:" >&2
        cat "$logs/$name.log" >&2
        exit 1
    fi
    echo "$name: $(tail -n 1 "$logs/$name.log")"
}

# A PulseAudio null sink is up for the duration of the tests (real-time device tests; skipped without it).
Tests/Scripts/with-pulse-null-sink.sh "$swift" test "${test_flags[@]}" --skip-build || exit 1
await fuzz-build
Tools/protocol-fuzz/run.sh --skip-build "$fuzz_seconds" || exit 1
await dist-build
"$make" --no-print-directory dist || exit 1
