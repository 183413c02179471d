#!/bin/bash
# Builds the three protocol fuzzers with libFuzzer (swiftc -sanitize=fuzzer,address) and runs each for SECONDS:
#   parser-fuzz       the JSON line parser alone (Parser/ParserFuzzTarget.swift), each input also nested up to 1020
#                     levels deep, with a CPU time budget per parse (a slow parse is a finding);
#   protocol-fuzz     framing, decoding and RequestDispatcher with a stand-in service (FuzzTarget.swift): fast,
#                     so it reaches deep into the decoder;
#   controller-fuzz   the same path into the real SessionController: engine on the paced null output, a journal
#                     in a temporary folder, the bundled asset pack (Controller/, its own SwiftPM package).
# Usage: Tools/protocol-fuzz/run.sh [SECONDS]   (default 60 each; FUZZ_BUILD sets the build folder)
# Fails on any crash, sanitizer report or broken protocol promise; the input that did it is in $build/artifacts.
# The stand-in and parser targets link the ControlProtocol module (and AudioCore and AudioEngine, which it imports:
# `set` reads its ranges from the engine's table), built here as static libraries with fuzzer instrumentation.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-60}"
build="${FUZZ_BUILD:-$root/.build/protocol-fuzz}"
mkdir -p "$build/corpus" "$build/controller-corpus" "$build/parser-corpus" "$build/artifacts"
# gold prints one "Cannot export local symbol '__asan_...'" warning per AddressSanitizer check stub when it links an
# instrumented executable (about 140 lines, every run): known and harmless (the stubs are meant to stay local), so
# they are dropped from what the links print; every other line of the compiler and linker still shows.
quiet_link() { "$@" 2> >(grep -v "Cannot export local symbol '__asan" >&2); }
flags=(-O -g -swift-version 6 -enable-upcoming-feature ExistentialAny -sanitize=fuzzer,address -parse-as-library)
for module in AudioCore AudioEngine ControlProtocol; do
    swiftc "${flags[@]}" -I "$build" -emit-module -emit-library -static -module-name "$module" \
        -emit-module-path "$build/$module.swiftmodule" -o "$build/lib$module.a" "$root"/Sources/"$module"/*.swift
done
libs=(-I "$build" -L "$build" -lControlProtocol -lAudioEngine -lAudioCore)
quiet_link swiftc "${flags[@]}" "${libs[@]}" -module-name ProtocolFuzz \
    -o "$build/protocol-fuzz" "$here/FuzzTarget.swift" "$here/Shared/ReplyChecks.swift"
quiet_link swiftc "${flags[@]}" "${libs[@]}" -module-name ParserFuzz -o "$build/parser-fuzz" \
    "$here/Parser/ParserFuzzTarget.swift"
# SwiftPM builds every Enso module again with the same instrumentation for the controller target.
if ! swift build --package-path "$here" --scratch-path "$build/controller" -c release \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$build/controller-build.log" 2>&1; then
    cat "$build/controller-build.log"
    exit 1
fi
tail -n 1 "$build/controller-build.log"
cp "$here"/corpus/* "$build/corpus/"
cp "$here"/corpus/* "$build/controller-corpus/"
cp "$here"/corpus/* "$here"/parser-corpus/* "$build/parser-corpus/"
run() {
    echo "$1: running for ${seconds}s"
    "$2" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$build/artifacts/$1-" -print_final_stats=1 "$3" 2>&1 | tail -n 12
}
# The two script fuzzers are single-threaded: they run side by side, one per core, each into its own log (printed
# in order afterwards); a finding in either fails the run. The controller fuzzer runs the engine's threads: alone.
run parser-fuzz "$build/parser-fuzz" "$build/parser-corpus" >"$build/parser-fuzz.log" &
parser=$!
run protocol-fuzz "$build/protocol-fuzz" "$build/corpus" >"$build/protocol-fuzz.log" &
protocol=$!
status=0
wait "$parser" || status=1
wait "$protocol" || status=1
cat "$build/parser-fuzz.log" "$build/protocol-fuzz.log"
[ "$status" = 0 ] || { echo "a script fuzzer failed: its input is in $build/artifacts" >&2; exit 1; }
run controller-fuzz "$build/controller/release/controller-fuzz" "$build/controller-corpus"
