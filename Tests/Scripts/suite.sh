#!/usr/bin/env bash
# What `make test` runs after the lint: the test build, the test suite, the three fuzzers (FUZZ_SECONDS each), the
# dist check and the library consumer (Examples/LibraryConsumer, built and run). The fuzzers' build, the dist build
# and the consumer's build compile meanwhile, from the start, in the background, in the CPU scheduler's idle class,
# where they get only the CPU the rest leaves unused.
#
# Why side by side: each of those two builds compiles every module again under its own flags (sanitizers; a static
# Swift runtime), about 100 and 125 s of two busy cores. The test build leaves a third of the two cores idle (one
# module at a time at the end), and the test suite spends most of its time waiting on real time (paced outputs,
# subprocesses), using a little over one core. In the idle class a build yields the CPU to any other thread that
# wants it, at once, as on a machine with a busy background job, which the tests are written to bear
# (docs/ARCHITECTURE.md, "Device and server tests move time by hand"); the fuzzers, which run next, keep that
# precedence over the dist build still compiling. Between the two builds, the fuzzers' build has four times the dist
# build's weight (cpu.shares of a cgroup each, inside the idle one): the fuzzers run first, and the dist build takes
# what the fuzzers' build cannot use.
#
# The idle class comes from a cgroup (the cgroup-v1 `cpu` controller's cpu.idle, as root): `nice` would not do, as
# SwiftPM starts its compilers at the default priority whatever its own. Where no such cgroup can be made (not root,
# no cpu controller), the builds run after the tests, side by side, and the suite says so.
#
# Usage (from the repository root): SWIFT=swift TEST_FLAGS="-c release ..." FUZZ_SECONDS=30 Tests/Scripts/suite.sh
# The builds' output is in .build/suite/ and is printed when one fails.
set -uo pipefail
swift="${SWIFT:-swift}"
read -r -a test_flags <<<"${TEST_FLAGS:?set TEST_FLAGS to the flags of the test build (make test: Makefile)}"
fuzz_seconds="${FUZZ_SECONDS:-30}"
logs=.build/suite
rm -rf "$logs" && mkdir -p "$logs" || { echo "suite: cannot make $logs afresh" >&2; exit 1; }

# The cgroup the background builds run in, or nothing.
cgroup=/sys/fs/cgroup/cpu/enso-suite-$$
if ! mkdir "$cgroup" 2>/dev/null || ! { echo 1 >"$cgroup/cpu.idle" || echo 2 >"$cgroup/cpu.shares"; } 2>/dev/null; then
    rmdir "$cgroup" 2>/dev/null
    cgroup=""
    echo "suite: no cgroup for the background builds (it needs root and the cgroup-v1 cpu controller):" \
        "they run after the tests"
fi

# The two builds side by side, each in a session of its own (a Ctrl-C reaches the suite alone, which then ends them:
# finish); each writes its exit status to a file when it ends. Side by side rather than one after the other: a build
# ends on a chain of modules that compile one at a time (AssetPipeline, PlaybackService, the tool, the link), which
# leaves a core idle for a minute or more unless the other build is still compiling (fresh clones: a core idle 11 %
# of the suite's time with the builds in turn).
builds=()
# start_build NAME COMMAND SHARES: COMMAND in the background, into .build/suite/NAME.log and NAME.status.
start_build() {
    local group=""
    if [ -n "$cgroup" ] && mkdir "$cgroup/$1" 2>/dev/null && echo "$3" 2>/dev/null >"$cgroup/$1/cpu.shares"; then
        group="$cgroup/$1"
    fi
    setsid bash -c '
        [ -z "$4" ] || echo $$ >"$4/cgroup.procs"
        eval "$3" >"$1/$2.log" 2>&1; echo $? >"$1/$2.status"
    ' build "$logs" "$1" "$2" "${group:-$cgroup}" &
    builds+=("$!")
}
start_builds() {
    start_build fuzz-build "Tools/protocol-fuzz/run.sh --build-only" 1024
    start_build dist-build "make --no-print-directory dist-build" 256
    # In a subshell: the status is written to a path relative to the repository root.
    start_build consumer-build "(cd Examples/LibraryConsumer && '$swift' build -c release -Xswiftc -gnone \
        --scratch-path ../../.build/consumer)" 256
}
# The processes below $1, deepest last (the compilers SwiftPM starts run in process groups of their own, so killing
# a build's process group does not reach them).
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$child"; descendants "$child"; done
}
finish() {
    local pid group procs=()
    for pid in "${builds[@]}"; do procs+=("$pid" $(descendants "$pid")); done
    [ ${#procs[@]} = 0 ] || kill "${procs[@]}" 2>/dev/null
    for pid in "${builds[@]}"; do wait "$pid" 2>/dev/null; done
    if [ -n "$cgroup" ]; then
        # Whatever is still in the cgroup (it holds every process started in it): TERM, then KILL.
        for round in 1 2 3 4 5 6 7 8 9 10; do
            procs=($(cat "$cgroup"/cgroup.procs "$cgroup"/*/cgroup.procs 2>/dev/null))
            [ ${#procs[@]} != 0 ] || break
            kill -s "$([ "$round" -le 5 ] && echo TERM || echo KILL)" "${procs[@]}" 2>/dev/null
            sleep 0.2
        done
        # A cgroup goes once its last process has been released, which may be a moment after it was reaped.
        for group in "$cgroup"/*/ "$cgroup"; do
            [ -d "$group" ] || continue
            for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$group" 2>/dev/null && break; sleep 0.2; done
        done
    fi
}
trap finish EXIT
trap 'exit 130' INT TERM

# Waits for the build whose status file is $1 (started as process $2) and prints its last line; on failure prints
# its log and exits.
await() {
    local name="$1" pid="$2"
    while [ ! -e "$logs/$name.status" ]; do
        # The status is written just before the build's process ends: look once more before giving up on it.
        kill -0 "$pid" 2>/dev/null || [ -e "$logs/$name.status" ] || {
            echo "suite: the $name ended without a status" >&2
            exit 1
        }
        sleep 1
    done
    if [ "$(cat "$logs/$name.status")" != 0 ]; then
        echo "suite: the $name failed:" >&2
        cat "$logs/$name.log" >&2
        exit 1
    fi
    echo "$name: $(tail -n 1 "$logs/$name.log")"
}

[ -z "$cgroup" ] || start_builds
"$swift" build "${test_flags[@]}" --build-tests || exit 1
# A PulseAudio null sink is up for the duration of the tests (real-time device tests; skipped without it).
Tests/Scripts/with-pulse-null-sink.sh "$swift" test "${test_flags[@]}" --skip-build || exit 1
[ -n "$cgroup" ] || start_builds
await fuzz-build "${builds[0]}"
Tools/protocol-fuzz/run.sh --skip-build "$fuzz_seconds" || exit 1
await dist-build "${builds[1]}"
make --no-print-directory dist || exit 1
# The library consumer (Examples/LibraryConsumer, README "Enso as a Swift library"): Enso used through its stable
# products by a package of its own, built like the two builds above and run once (alone, on a two-core machine
# with other builds running, its build took 126 s and its run 0.3 s).
await consumer-build "${builds[2]}"
consumer_out="$(mktemp -d)" && .build/consumer/release/enso-library-consumer "$consumer_out" || exit 1
rm -rf "$consumer_out"
