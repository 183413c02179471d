#!/usr/bin/env bash
# What `make test` runs after the lint: the test build, the test suite, the three fuzzers (FUZZ_SECONDS each), the
# dist check and the library consumer (Examples/LibraryConsumer, built and run). The fuzzers' build, the dist build
# and the consumer's build compile meanwhile, from the start, in the background, at a lower priority (`nice`).
#
# Why side by side: each of those builds compiles every module again under its own flags (sanitizers; a static
# Swift runtime), about 100 and 125 s of two busy cores. The test build leaves a third of the two cores idle (one
# module at a time at the end), and the test suite spends most of its time waiting on real time (paced outputs,
# subprocesses), using a little over one core: the background builds fill what they leave.
#
# Why `nice` and not the CPU's idle class (a cgroup with cpu.idle, used until session 24): a process in the idle
# class runs only when no other process on the machine wants the CPU. On a machine with other work (other builds,
# a desktop) the background builds then starved, and `make test` took 28 minutes (issue #48). At nice 10 a build
# still yields to the tests (the scheduler weighs a nice-10 task at a tenth of a nice-0 one, 110 against 1024), but
# it keeps progressing under load. The fuzzers' build, which is needed first, runs at nice 5 (weight 335, three
# times the others'). The compilers SwiftPM starts reset their priority to 0 whatever SwiftPM's own (`ps -o ni`
# shows 0 under a niced `swift build`), so each build's processes are reniced again every second while it runs
# (`renice_builds`); a compiler started in between runs at most that second at the default priority.
#
# What it prints: a line as each step starts and ends; each step's output goes to a log in .build/suite/; at the
# end, the failures (each failing test with where its issue was recorded, or a failed step's last lines) and,
# last, their count. Every step runs even when an earlier one failed (but the tests need their build).
#
# Usage (from the repository root): SWIFT=swift TEST_FLAGS="-c release ..." FUZZ_SECONDS=30 Tests/Scripts/suite.sh
set -uo pipefail
swift="${SWIFT:-swift}"
read -r -a test_flags <<<"${TEST_FLAGS:?set TEST_FLAGS to the flags of the test build (make test: Makefile)}"
fuzz_seconds="${FUZZ_SECONDS:-30}"
logs=.build/suite
rm -rf "$logs" && mkdir -p "$logs" || { echo "suite: cannot make $logs afresh" >&2; exit 1; }

# The background builds, each in a session of its own (a Ctrl-C reaches the suite alone, which then ends them:
# finish); each writes its exit status to a file when it ends.
builds=()
nices=()
# start_build NAME NICENESS COMMAND: COMMAND at NICENESS in the background, into .build/suite/NAME.log and NAME.status.
start_build() {
    setsid nice -n "$2" bash -c 'eval "$3" >"$1/$2.log" 2>&1; echo $? >"$1/$2.status"' build "$logs" "$1" "$3" &
    builds+=("$!")
    nices+=("$2")
}
# The processes below $1, deepest last (the compilers SwiftPM starts run in process groups of their own, so a
# build's process group does not reach them).
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$child"; descendants "$child"; done
}
# Every second while a build runs, its processes that run at a higher priority than its own are reniced to it.
renice_builds() {
    local i pid ni
    while :; do
        for i in "${!builds[@]}"; do
            kill -0 "${builds[$i]}" 2>/dev/null || continue
            for pid in $(descendants "${builds[$i]}"); do
                ni=$(ps -o ni= -p "$pid" 2>/dev/null) || continue
                [ "${ni// /}" -ge "${nices[$i]}" ] 2>/dev/null || renice -n "${nices[$i]}" -p "$pid" >/dev/null 2>&1
            done
        done
        sleep 1
    done
}
finish() {
    local pid procs=()
    [ -z "${renicer:-}" ] || kill "$renicer" 2>/dev/null
    for pid in "${builds[@]}"; do procs+=("$pid" $(descendants "$pid")); done
    [ ${#procs[@]} = 0 ] || kill "${procs[@]}" 2>/dev/null
    for pid in "${builds[@]}"; do wait "$pid" 2>/dev/null; done
}
trap finish EXIT
trap 'exit 130' INT TERM

# The steps' outcomes, in order: "NAME|passed or FAILED|detail".
outcomes=()
failed_steps=()
# record NAME STATUS SECONDS: the step's outcome, said now and kept for the summary.
record() {
    local name="$1" status="$2" seconds="$3" word="passed"
    [ "$status" = 0 ] || { word="FAILED (exit $status)"; failed_steps+=("$name"); }
    outcomes+=("$name|$word|${seconds} s, log $logs/$name.log")
    echo "suite: $name $word in ${seconds} s"
}
# step NAME COMMAND...: runs COMMAND into .build/suite/NAME.log and records it.
step() {
    local name="$1" start=$SECONDS
    shift
    echo "suite: $name (log $logs/$name.log)"
    "$@" >"$logs/$name.log" 2>&1
    record "$name" $? $((SECONDS - start))
}
# await NAME PID: waits for the background build NAME (process PID) and records it.
await() {
    local name="$1" pid="$2"
    while [ ! -e "$logs/$name.status" ]; do
        # The status is written just before the build's process ends: look once more before giving up on it.
        kill -0 "$pid" 2>/dev/null || [ -e "$logs/$name.status" ] || {
            echo 1 >"$logs/$name.status"
            echo "suite: the $name ended without a status" >>"$logs/$name.log"
            break
        }
        sleep 1
    done
    # It started with the suite: its time is from then to its status file.
    record "$name" "$(cat "$logs/$name.status")" $(($(stat -c %Y "$logs/$name.status") - suite_start))
}

suite_start=$(date +%s)
start_build fuzz-build 5 "Tools/protocol-fuzz/run.sh --build-only"
start_build dist-build 10 "make --no-print-directory dist-build"
# In a subshell: the status is written to a path relative to the repository root.
start_build consumer-build 10 "(cd Examples/LibraryConsumer && '$swift' build -c release -Xswiftc -gnone \
    --scratch-path ../../.build/consumer)"
renice_builds &
renicer=$!

step test-build "$swift" build "${test_flags[@]}" --build-tests
if [ ${#failed_steps[@]} = 0 ]; then
    # A PulseAudio null sink is up for the duration of the tests (real-time device tests; skipped without it).
    step tests Tests/Scripts/with-pulse-null-sink.sh "$swift" test "${test_flags[@]}" --skip-build
fi
await fuzz-build "${builds[0]}"
[ "$(cat "$logs/fuzz-build.status")" != 0 ] || step fuzz Tools/protocol-fuzz/run.sh --skip-build "$fuzz_seconds"
await dist-build "${builds[1]}"
[ "$(cat "$logs/dist-build.status")" != 0 ] || step dist make --no-print-directory dist
# The library consumer (Examples/LibraryConsumer, README "Enso as a Swift library"): Enso used through its stable
# products by a package of its own, built like the builds above and run once (alone, on a two-core machine with
# other builds running, its build took 126 s and its run 0.3 s).
await consumer-build "${builds[2]}"
if [ "$(cat "$logs/consumer-build.status")" = 0 ]; then
    consumer_out="$(mktemp -d)"
    step consumer .build/consumer/release/enso-library-consumer "$consumer_out"
    rm -rf "$consumer_out"
fi

# The summary: every step, then the failures, then their count, last, where a person looks first.
echo
echo "Summary (every step's output is in $logs/):"
for o in "${outcomes[@]}"; do
    IFS='|' read -r name word detail <<<"$o"
    printf '  %-15s %-18s %s\n' "$name" "$word" "$detail"
done
failures=0
if [ ${#failed_steps[@]} != 0 ]; then
    echo
    echo "Failures:"
    for name in "${failed_steps[@]}"; do
        if [ "$name" = tests ]; then
            # swift-testing: one "✘ Test NAME failed after …" line per failing test, and each issue's place and
            # words ("✘ Test NAME recorded an issue at FILE:LINE:COL: …"). A run that failed without one (a crash)
            # counts as one failure.
            tests_failed=$(grep -E '✘ Test .* failed after' "$logs/tests.log" | grep -vc '✘ Test run with')
            [ "$tests_failed" != 0 ] || tests_failed=1
            failures=$((failures + tests_failed))
            grep -E '✘ Test .* recorded an issue' "$logs/tests.log" | cut -c1-400 | head -n 40 | sed 's/^/  /'
            grep -E '✘ Test .* failed after' "$logs/tests.log" | grep -v '✘ Test run with' | sed 's/^/  /'
            echo "  (tests: the whole output is in $logs/tests.log)"
        else
            failures=$((failures + 1))
            echo "  $name: the last lines of $logs/$name.log:"
            { grep -E 'error:' "$logs/$name.log" | head -n 10; tail -n 5 "$logs/$name.log"; } | awk '!seen[$0]++' |
                sed 's/^/    /'
        fi
    done
fi
echo
if [ "$failures" = 0 ]; then
    echo "suite: 0 failures"
    exit 0
fi
echo "suite: $failures failure$([ "$failures" = 1 ] || echo s)"
exit 1
