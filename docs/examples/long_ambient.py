#!/usr/bin/env python3
"""A long ambient streamed from disk: a session whose theme is a 3-minute file, and a crossfade into another.

Themes longer than 2 minutes are not decoded whole: the server streams them through a 2 s ring (docs/engine.md,
"Streamed themes"), so an hour-long field recording starts as fast as a short loop and holds only its ring. This
script writes a 3-minute WAV of quiet noise (use --theme for your own long file), starts a 10 s session on it
through `enso serve --stdio --output null`, switches to a second theme half-way, and prints every event: a slow disk
would show as `stream.underrun` (the theme faded out and back in; the bells and the clock did not move).

    python3 docs/examples/long_ambient.py --enso .build/release/enso
"""
import argparse
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enso", default="enso", help="the enso executable to spawn (default: enso on PATH)")
    parser.add_argument("--theme", help="a long theme file (default: 3 minutes of generated noise)")
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
        [args.enso, "serve", "--stdio", "--output", "null", "--journal", os.path.join(scratch, "sessions.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    connection = Connection(child.stdout, child.stdin)
    hello = connection.receive()
    print(f"connected to {hello['server']} (protocol {hello['protocol']})")
    asked = time.monotonic()
    started = connection.request(
        "start", sitting=10, bell=bell, strikes=1, theme=theme, fadeIn=0.5, fadeOut=1, repeat=1)
    print(f"session {started['sessionId']} started in {(time.monotonic() - asked) * 1000:.0f} ms"
          f" (the theme streams: nothing but its header and first 0.25 s was read before the reply)")
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
    connection.request("shutdown")
    child.stdin.close()
    return child.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
