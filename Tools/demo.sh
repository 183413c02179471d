#!/usr/bin/env bash
# The demo session of the README's first command (`make demo`): renders 2 cycles x 1 min with 3 strikes of the
# bundled Singing Bowl over Rain, switching to Stream at 1m30s (in the second cycle, which starts at 1m08s) with
# a 3 s crossfade, prints its timeline, proves every strike landed on its planned frame, checks the bundled pack
# and writes the audition reports. Run by `make demo` after `make deps` and a release build.
# `Tools/demo.sh play` plays the same session live instead (`make play`), Rain→Stream switch included.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
BIN="${BIN:-$($SWIFT build -c release --show-bin-path)}"
ENSO="$BIN/enso"
OUT="${OUT:-out}"
BELLS=(--sit 1m --repeat 2 --strikes 3 --spacing 3 --bell singing-bowl --assets Assets)
LIVE=("${BELLS[@]}" --ambient rain)
PLAN=("${LIVE[@]}" --theme-at 1m30s=stream --theme-crossfade 3)

if [ "${1:-}" = "play" ]; then
  exec "$ENSO" play "${PLAN[@]}" "${@:2}"
fi

mkdir -p "$OUT"
echo "== Timeline"
"$ENSO" plan "${PLAN[@]}"
"$ENSO" plan "${PLAN[@]}" --json > "$OUT/demo-plan.json"

echo "== Render"
"$ENSO" render "${PLAN[@]}" -o "$OUT/demo-session.flac"

echo "== Every strike on its planned frame"
# A bells-only float render of the same plan, compared with the bell placed at exactly the planned frames.
"$ENSO" render "${BELLS[@]}" --ambient none --format wavf -o "$OUT/demo-bells.wav"
"$BIN/make-assets" verify-strikes --plan "$OUT/demo-plan.json" --render "$OUT/demo-bells.wav" \
  --bell Assets/bells/singing-bowl.flac
rm -f "$OUT/demo-bells.wav"

echo "== The bundled pack and its reports"
# Remove old reports first: the bell report writer cannot yet replace an existing file on Linux.
rm -f "$OUT/bells-report.html" "$OUT/loops-report.html" "$OUT/assets-report.html"
"$ENSO" bells audition Assets/bells --html "$OUT/bells-report.html"
"$ENSO" loops verify Assets/soundscapes --html "$OUT/loops-report.html"
"$ENSO" assets check Assets --html "$OUT/assets-report.html" \
  --link "Bell audition=bells-report.html" --link "Loop seams=loops-report.html"
echo "wrote $OUT/demo-session.flac and $OUT/assets-report.html (with bells-report.html and loops-report.html)"
