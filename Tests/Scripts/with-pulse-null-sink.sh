#!/usr/bin/env bash
# Runs a command (the test suite) with a PulseAudio null sink up, then stops it.
#
#   Tests/Scripts/with-pulse-null-sink.sh swift test ...
#
# The sink is a real-time-paced, hardware-free ALSA output: PulseAudio with module-null-sink, reached by
# ALSA clients through libasound2-plugins' `pulse` PCM. Device tests check that the server answers
# (`pactl info`) and show as *skipped* when it does not, so this script never fails the run by itself:
# if PulseAudio is missing or will not start it says so and runs the command anyway.
# The packages (pulseaudio, pulseaudio-utils, libasound2-plugins) come from `make deps`.
# Adapted from ../shared/scripts/pulse-null-sink.sh (measured there: ready in ~0.1 s, bit-exact capture).
set -uo pipefail

runtime=$(mktemp -d /tmp/enso-pulse.XXXXXX)
chmod 700 "$runtime"
pa_pid=""

stop_pulse() {
  if [ -n "$pa_pid" ] && kill -0 "$pa_pid" 2>/dev/null; then
    kill "$pa_pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$pa_pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pa_pid" 2>/dev/null
  fi
  rm -rf "$runtime"
}
trap stop_pulse EXIT
trap 'exit 130' INT TERM

if command -v pulseaudio >/dev/null && command -v pactl >/dev/null; then
  export XDG_RUNTIME_DIR="$runtime"
  export PULSE_SERVER="unix:$runtime/pa.sock"
  t0=$(date +%s%N)
  # -n: no default.pa (no hardware detection). norewinds=1 is essential: without it the idle null sink
  # renders 2 s ahead and every new stream stalls for up to ~2 s before it starts to drain.
  # --realtime/--high-priority: the server gets SCHED_RR/nice -11 where permitted (root), so a busy test
  # machine does not starve it into xruns the player cannot help.
  pulseaudio --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disallow-exit -n --realtime=yes --high-priority=yes \
    --load="module-native-protocol-unix auth-anonymous=1 socket=$runtime/pa.sock" \
    --load="module-null-sink sink_name=nullsink rate=48000 channels=2 format=s16le norewinds=1" \
    --log-target=stderr --log-level=notice >"$runtime/pulseaudio.log" 2>&1 &
  pa_pid=$!
  ready=""
  for _ in $(seq 1 200); do
    if pactl info >/dev/null 2>&1; then ready=1; break; fi
    kill -0 "$pa_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -n "$ready" ] && pactl set-default-sink nullsink >/dev/null 2>&1; then
    echo "with-pulse-null-sink: PulseAudio null sink ready in $(( ($(date +%s%N) - t0) / 1000000 )) ms (PULSE_SERVER=$PULSE_SERVER)" >&2
  else
    echo "with-pulse-null-sink: PulseAudio did not start; real-time device tests will be skipped:" >&2
    sed 's/^/  /' "$runtime/pulseaudio.log" >&2 2>/dev/null
    unset PULSE_SERVER
  fi
else
  echo "with-pulse-null-sink: pulseaudio/pactl not installed (make deps installs them); real-time device tests will be skipped" >&2
fi

"$@"
