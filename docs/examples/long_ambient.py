#!/usr/bin/env python3
"""A long ambient streamed from disk: a session whose theme is a 3-minute file, and a crossfade into another.

Themes longer than 2 minutes are not decoded whole: the server streams them through a 2 s ring (docs/engine.md,
"Streamed themes"), so an hour-long field recording starts as fast as a short loop and holds only its ring. This
script writes a 3-minute WAV of quiet noise (use --theme for your own long file), starts a 10 s session on it
through `enso serve --stdio --output null`, switches to a second theme half-way, and prints every event: a slow disk
would show as `stream.underrun` (the theme faded out and back in; the bells and the clock did not move).

    python3 docs/examples/long_ambient.py --enso .build/release/enso

It then measures when the theme is first heard. With `--capture` (a PulseAudio null sink up, its monitor recorded
by `parec`; `--output alsa:pulse` plays into it) the time is that of the audio itself: the arrival of the first
captured block that is not silence, the bell muted so that it is the theme's. It does so for a cold start (nothing
cached) and for a start after `prefetch`:

    Tests/Scripts/with-pulse-null-sink.sh python3 docs/examples/long_ambient.py --enso .build/release/enso \
        --output alsa:pulse --capture --cold-runs 10

`--cold-runs N` times N cold starts and prints their min, median and max (and the load average: on a busy machine
the figures are the machine's as much as the server's).
"""
import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enso_frontend import Connection, show, write_bell, write_noise  # noqa: E402


def write_long_noise(path, seconds, rate=48000):
    """A long theme made by repeating one second of noise (cheap to write; long enough to stream)."""
    one = os.path.join(os.path.dirname(path), "one-second.wav")
    write_noise(one, rate=rate, seconds=1.0)
    with wave.open(one, "rb") as r:
        frames = r.readframes(r.getnframes())
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        for _ in range(int(seconds)):
            w.writeframes(frames)


class Capture:
    """Records the PulseAudio null sink's monitor with `parec`, noting when each block arrives."""

    RATE = 48000
    FRAME_BYTES = 4  # s16le stereo

    def __init__(self):
        self.process = subprocess.Popen(
            ["parec", "--raw", "--format=s16le", f"--rate={self.RATE}", "--channels=2", "-d", "nullsink.monitor",
             "--latency-msec=5"], stdout=subprocess.PIPE)
        self.blocks = []  # (monotonic arrival time, bytes)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            data = self.process.stdout.read1(4096)
            if not data:
                return
            with self.lock:
                self.blocks.append((time.monotonic(), data))

    def first_sound_after(self, since, deadline=5.0):
        """Seconds from `since` (monotonic) to the arrival of the first block, received after it, that is not
        digital silence; None when none comes within `deadline` seconds."""
        end = time.monotonic() + deadline
        seen = 0
        while time.monotonic() < end:
            with self.lock:
                blocks = self.blocks[seen:]
            for arrived, data in blocks:
                seen += 1
                if arrived >= since and any(data):
                    return arrived - since
            time.sleep(0.002)
        return None

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=5)


def first_heard(connection, capture, bell, theme, prefetch, seam_fix):
    """Starts a session on `theme` (bell muted, no fade-in), returns (reply ms, first heard ms) after the send,
    the server's own estimate (the session's first frame from the output's clock) when there is no capture."""
    if prefetch:
        connection.request("prefetch", themes=[theme], bells=[bell], seamFix=seam_fix)
    sent_wall = time.time()
    sent = time.monotonic()
    started = connection.request(
        "start", sitting=3, bell=bell, strikes=1, bellVolume=0, ambient=theme, fadeIn=0, fadeOut=0.5, repeat=1,
        seamFix=seam_fix)
    assert not started.get("ignoredFields"), started["ignoredFields"]
    replied = time.monotonic() - sent
    heard = capture.first_sound_after(sent) if capture else None
    underruns = 0
    audible_at = None
    while True:
        message = connection.receive()
        if message.get("event") == "stream.underrun":
            underruns += 1
        if message.get("event") == "bell" and audible_at is None:
            audible_at = message.get("audibleAt")
        if message.get("event") == "session.ended":
            break
    if heard is None and audible_at:
        heard = iso_seconds(audible_at) - sent_wall
    return replied * 1000, (heard or float("nan")) * 1000, underruns, started.get("warnings", [])


def iso_seconds(stamp):
    """Seconds since the epoch of the protocol's ISO 8601 times (UTC, milliseconds)."""
    from datetime import datetime
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enso", default="enso", help="the enso executable to spawn (default: enso on PATH)")
    parser.add_argument("--theme", help="a long theme file (default: 3 minutes of generated noise)")
    parser.add_argument("--output", default="null", help="enso's --output (default null; alsa:pulse for --capture)")
    parser.add_argument("--capture", action="store_true",
                        help="time the first heard frame from the PulseAudio null sink's monitor (needs parec)")
    parser.add_argument("--cold-runs", type=int, default=1,
                        help="cold starts to time (default 1); with more, their min, median and max are printed")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="enso-long-ambient-")
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    bell = os.path.join(scratch, "bell.wav")
    write_bell(bell)
    theme = args.theme
    if theme is None:
        theme = os.path.join(scratch, "night-forest.wav")
        write_long_noise(theme, seconds=180)
    second = os.path.join(scratch, "dawn.wav")
    write_long_noise(second, seconds=150)

    child = subprocess.Popen(
        [args.enso, "serve", "--stdio", "--output", args.output, "--journal", os.path.join(scratch, "sessions.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    connection = Connection(child.stdout, child.stdin)
    hello = connection.receive()
    print(f"connected to {hello['server']} (protocol {hello['protocol']})")
    asked = time.monotonic()
    started = connection.request(
        "start", sitting=10, bell=bell, strikes=1, ambient=theme, fadeIn=0.5, fadeOut=1, repeat=1)
    # The plan's field is `ambient` (`theme` is `set`'s): a misspelt field is listed, not played.
    assert not started.get("ignoredFields"), started["ignoredFields"]
    print(f"session {started['sessionId']} started in {(time.monotonic() - asked) * 1000:.0f} ms"
          f" (the theme streams: only its header, the 20 s around its seam (the seam fix) and its first 0.25 s"
          f" were read before the reply)")
    for warning in started.get("warnings", []):
        print(f"warning: {warning}")
    time.sleep(5)
    changed = connection.request("set", theme=second, crossfade=2)
    for warning in changed.get("warnings", []):
        print(f"warning: {warning}")
    while True:
        message = connection.receive()
        show(message)
        if message.get("event") == "session.ended":
            break

    # When is the theme first heard? A cold start (nothing of the theme cached), then one after `prefetch`.
    capture = Capture() if args.capture else None
    try:
        time.sleep(0.5)
        # The seam fix reads, judges and (when the seam fails) bakes the 20 s around the seam at load: the cold
        # start without it shows what that costs.
        runs = [("cold", False, True)] * max(1, args.cold_runs) + [("prefetched", True, True),
                                                                  ("cold, seamFix false", False, False)]
        cold = []
        for label, prefetch, seam_fix in runs:
            # A new modification time is a new file to the server's cache: nothing of it is cached.
            os.utime(theme)
            replied, heard, underruns, warnings = first_heard(connection, capture, bell, theme, prefetch, seam_fix)
            how = "captured from the sink" if capture else "the server's output clock"
            print(f"{label} start: replied in {replied:.0f} ms; the theme's first frame heard {heard:.0f} ms after "
                  f"the send ({how}); {underruns} underrun(s)")
            for warning in warnings if label != "cold" or not cold else []:
                print(f"  warning: {warning}")
            if label == "cold":
                cold.append(heard)
        if len(cold) > 1:
            cold.sort()
            print(f"{len(cold)} cold starts, first frame heard: min {cold[0]:.0f} ms, median "
                  f"{statistics.median(cold):.0f} ms, max {cold[-1]:.0f} ms "
                  f"(load average {os.getloadavg()[0]:.1f})")
    finally:
        if capture:
            capture.close()
    connection.request("shutdown")
    child.stdin.close()
    return child.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
