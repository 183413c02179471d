#!/bin/bash
# Builds the protocol fuzzer with libFuzzer (swiftc -sanitize=fuzzer,address) and runs it.
# Usage: Tools/protocol-fuzz/run.sh [SECONDS]   (default 60; FUZZ_BUILD sets the build folder)
# The target links ControlProtocol and PlaybackService/RequestDispatcher.swift (which needs only
# ControlProtocol), built here as their own modules with fuzzer instrumentation.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-60}"
build="${FUZZ_BUILD:-$root/.build/protocol-fuzz}"
mkdir -p "$build/corpus" "$build/artifacts"
flags=(-O -g -swift-version 6 -enable-upcoming-feature ExistentialAny -sanitize=fuzzer,address -parse-as-library)
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name ControlProtocol \
    -emit-module-path "$build/ControlProtocol.swiftmodule" -o "$build/libControlProtocol.a" \
    "$root"/Sources/ControlProtocol/*.swift
swiftc "${flags[@]}" -I "$build" -L "$build" -lControlProtocol -module-name ProtocolFuzz \
    -o "$build/protocol-fuzz" "$here/FuzzTarget.swift" "$root/Sources/PlaybackService/RequestDispatcher.swift"
cp "$here"/corpus/* "$build/corpus/"
echo "protocol-fuzz: running for ${seconds}s"
"$build/protocol-fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$build/corpus" 2>&1 | tail -n 25
