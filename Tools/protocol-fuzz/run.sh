#!/bin/bash
# Builds the three protocol fuzzers with libFuzzer (-sanitize=fuzzer,address) and runs each for SECONDS:
#   parser-fuzz       the JSON line parser alone (Parser/ParserFuzzTarget.swift), each input also nested up to 1020
#                     levels deep, with a CPU time budget per parse (a slow parse is a finding);
#   protocol-fuzz     framing, decoding and RequestDispatcher with a stand-in service (Protocol/): fast, so it
#                     reaches deep into the decoder;
#   controller-fuzz   the same path into the real SessionController: engine on the paced null output, a journal
#                     in a temporary folder, the bundled asset pack (Controller/).
# Usage: Tools/protocol-fuzz/run.sh [--build-only | --skip-build] [SECONDS]   (default 60 each; FUZZ_BUILD sets the
# build folder). --build-only builds and stops; --skip-build runs what an earlier --build-only built (`make test`
# builds while the tests run, then fuzzes).
# Fails on any crash, sanitizer report or broken protocol promise; the input that did it is in $build/artifacts.
# All three are executables of one SwiftPM package (Package.swift here), so one build instruments every Enso module
# once for the three of them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
step=all
case "${1:-}" in
    --build-only) step=build; shift ;;
    --skip-build) step=run; shift ;;
esac
seconds="${1:-60}"
build="${FUZZ_BUILD:-$root/.build/protocol-fuzz}"
mkdir -p "$build/corpus" "$build/controller-corpus" "$build/parser-corpus" "$build/artifacts"
# gold prints one "Cannot export local symbol '__asan_...'" warning per AddressSanitizer check stub when it links an
# instrumented executable (about 140 lines a link, every run): known and harmless (the stubs are meant to stay
# local), so the build log shows without them when the build fails; every other line still shows.
if [ "$step" != run ] && ! swift build --package-path "$here" --scratch-path "$build/spm" -c release \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$build/build.log" 2>&1; then
    grep -v "Cannot export local symbol '__asan" "$build/build.log"
    exit 1
fi
[ "$step" = run ] || tail -n 1 "$build/build.log"
[ "$step" != build ] || exit 0
bin="$build/spm/release"
for f in parser-fuzz protocol-fuzz controller-fuzz; do
    [ -x "$bin/$f" ] || {
        echo "protocol-fuzz: $bin/$f is missing: build the fuzzers first (run.sh --build-only)" >&2
        exit 1
    }
done
cp "$here"/corpus/* "$build/corpus/"
cp "$here"/corpus/* "$build/controller-corpus/"
cp "$here"/corpus/* "$here"/parser-corpus/* "$build/parser-corpus/"
run() {
    echo "$1: running for ${seconds}s"
    "$2" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$build/artifacts/$1-" -print_final_stats=1 "$3" 2>&1 | tail -n 12
}
# The parser and protocol fuzzers are single-threaded: they run side by side, one per core, each into its own log
# (printed in order afterwards); a finding in either fails the run. The controller fuzzer runs the engine's threads:
# alone.
run parser-fuzz "$bin/parser-fuzz" "$build/parser-corpus" >"$build/parser-fuzz.log" &
parser=$!
run protocol-fuzz "$bin/protocol-fuzz" "$build/corpus" >"$build/protocol-fuzz.log" &
protocol=$!
status=0
wait "$parser" || status=1
wait "$protocol" || status=1
cat "$build/parser-fuzz.log" "$build/protocol-fuzz.log"
[ "$status" = 0 ] || { echo "the parser or protocol fuzzer failed: its input is in $build/artifacts" >&2; exit 1; }
run controller-fuzz "$bin/controller-fuzz" "$build/controller-corpus"
