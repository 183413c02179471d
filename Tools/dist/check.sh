#!/bin/bash
# Checks the self-contained build made by `make dist`: the binary links no Swift runtime library (only Debian's C
# libraries), and run with an empty environment from another folder it finds the pack copied beside it and works.
# Usage: Tools/dist/check.sh DIST_FOLDER
set -euo pipefail
dist="$(cd "${1:?give the dist folder}" && pwd)"
enso="$dist/enso"
[ -x "$enso" ] || { echo "dist check: $enso is missing" >&2; exit 1; }
if ldd "$enso" | grep -E "libswift|libFoundation|libdispatch|libBlocksRuntime|/opt/swift" >&2; then
    echo "dist check: $enso still links the Swift runtime (above)" >&2
    exit 1
fi
work=$(mktemp -d /tmp/enso-dist-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
env -i "$enso" --version
env -i "$enso" assets check >"$work/check.txt" || { cat "$work/check.txt" >&2; exit 1; }
grep -q "^$dist/Assets: " "$work/check.txt" || { echo "dist check: not the pack beside the binary:" >&2; cat "$work/check.txt" >&2; exit 1; }
env -i "$enso" render --sit 10s --strikes 1 --repeat once --ambient rain --output "$work/s.flac" >/dev/null
env -i "$enso" info "$work/s.flac" | grep -q "frames" || { echo "dist check: render produced no readable file" >&2; exit 1; }
echo "dist check: $(du -h "$enso" | cut -f1) self-contained enso ok ($(ldd "$enso" | wc -l) shared libraries, all from the system)"
