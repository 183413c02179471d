#!/usr/bin/env bash
# Playback soak: `enso play` on a PulseAudio null sink (real-time paced, no sound card) for MINUTES with the
# other core kept busy by `stress-ng --cpu 1`, at the default buffer (2048/8192 frames). Reports xruns, the
# render thread's time per period (as a fraction of the period) and the player's RSS over time (flat = within
# ±1 MiB after the first minute).
#
#   Benchmarks/Scripts/playback-soak.sh [MINUTES]        # default 10; `make bench SOAK_MINUTES=N`
#
# Needs the release `enso` (make bench builds it), sox (make deps) and installs stress-ng with apt if missing.
set -uo pipefail
minutes=${1:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
enso=${ENSO:-$root/.build/release/enso}
if ! [[ "$minutes" =~ ^[0-9]+$ ]] || [ "$minutes" -lt 1 ]; then echo "playback-soak: MINUTES must be a whole number >= 1" >&2; exit 64; fi
[ -x "$enso" ] || { echo "playback-soak: $enso not built (run: swift build -c release --product enso)" >&2; exit 1; }
if ! command -v stress-ng >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends stress-ng >/dev/null
fi
work=$(mktemp -d /tmp/enso-soak.XXXXXX)
trap 'rm -rf "$work"' EXIT
# A 6 s three-partial bell and an 8 s pink-noise ambient loop.
sox -n -r 48000 -c 1 "$work/bell.wav" synth 6 sine 523 sine 1410 sine 2690 remix - fade 0 6 5.5 gain -6
sox -n -r 48000 -c 2 "$work/ambient.wav" synth 8 pinknoise fade 0.5 8 0.5 gain -12

cat >"$work/inner.sh" <<INNER
#!/usr/bin/env bash
set -uo pipefail
if [ -z "\${PULSE_SERVER:-}" ]; then echo "playback-soak: no PulseAudio server; cannot soak" >&2; exit 1; fi
stress-ng --cpu 1 --quiet &
stress=\$!
# 30 s cycles, 3 strikes 0.5 s apart each time: the ambient plus 3 ringing bells twice a minute.
"$enso" play --no-journal --device pulse --bell "$work/bell.wav" --ambient "$work/ambient.wav" --sit 30 --strikes 3 \
  --spacing 0.5 --breath 0 --repeat $((minutes * 2)) >"$work/events.log" 2>"$work/play.err" &
play=\$!
t0=\$(date +%s)
: >"$work/rss.log"
while kill -0 \$play 2>/dev/null; do
  rss=\$(awk '/VmRSS/ {print \$2}' /proc/\$play/status 2>/dev/null)
  [ -n "\$rss" ] && echo "\$(( \$(date +%s) - t0 )) \$rss" >>"$work/rss.log"
  sleep 10
done
wait \$play; rc=\$?
kill \$stress 2>/dev/null; wait \$stress 2>/dev/null
exit \$rc
INNER
chmod +x "$work/inner.sh"
echo "Playback soak: $minutes min of enso play on a PulseAudio null sink, stress-ng --cpu 1 on the other core"
"$root/Tests/Scripts/with-pulse-null-sink.sh" "$work/inner.sh"
rc=$?
summary=$(grep "Session over" "$work/play.err")
[ $rc -eq 0 ] || { echo "playback-soak: enso play failed ($rc):"; sed 's/^/  /' "$work/play.err"; exit 1; }
echo "  $summary"
echo "  strikes heard: $(grep -c ' strike ' "$work/events.log")"
awk -v m="$minutes" '
  { t[NR] = $1; r[NR] = $2 }
  END {
    first = 0; lo = 1e12; hi = 0
    for (i = 1; i <= NR; i++) if (t[i] >= 60) { if (!first) first = r[i]; if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
    if (!first) { printf "  RSS: too short to judge (%d samples)\n", NR; exit }
    printf "  RSS (every 10 s): %.1f MiB at 1 min, %.1f ... %.1f MiB after it (spread %.2f MiB: %s)\n",
      first / 1024, lo / 1024, hi / 1024, (hi - lo) / 1024, (hi - lo) <= 1024 ? "flat, within 1 MiB" : "NOT flat"
  }' "$work/rss.log"
