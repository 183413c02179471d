#!/usr/bin/env python3
"""A minimal Enso front end: plays a short session through `enso serve` and prints what happens.

Standard library only. By default it spawns `enso serve --stdio --output null` as a child (sound goes
nowhere, paced in real time) with a journal in a temporary folder; with --socket it connects to a running
`enso serve --socket` instead. Protocol reference: docs/protocol.md.

After the session, three short scenes (spawned servers only): a bell previewed without a session, volume
changes made by a second client seen by an observer (over a socket), and a theme change scheduled in `start`.

    python3 docs/examples/enso_frontend.py --enso .build/release/enso --sitting 5
"""
import argparse
import atexit
import itertools
import json
import math
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import wave


def write_noise(path, rate=48000, seconds=1.0):
    """Quiet seeded noise as a 16-bit mono WAV: a stand-in theme (it loops as the whole file)."""
    state = 12345
    samples = []
    for _ in range(int(rate * seconds)):
        state = (1103515245 * state + 12345) % 2**31
        samples.append(struct.pack("<h", state % 3000 - 1500))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(samples))


def write_bell(path, rate=48000, seconds=1.0):
    """A decaying 440 Hz tone as a 16-bit mono WAV: a stand-in bell that needs no asset pack."""
    frames = int(rate * seconds)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(
            struct.pack("<h", int(16000 * math.sin(2 * math.pi * 440 * i / rate) * math.exp(-4 * i / rate)))
            for i in range(frames)))


class Connection:
    """Newline-delimited JSON over a pair of binary streams."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.ids = itertools.count(1)

    def send(self, command, **fields):
        request_id = next(self.ids)
        self.writer.write((json.dumps({"id": request_id, "command": command, **fields}) + "\n").encode())
        self.writer.flush()
        return request_id

    def receive(self):
        line = self.reader.readline()
        if not line:
            raise EOFError("the server closed the connection")
        return json.loads(line)

    def wait_for(self, kind):
        """Prints events until one of `kind` arrives, and returns it."""
        while True:
            message = self.receive()
            show(message)
            if message.get("event") == kind:
                return message

    def request(self, command, **fields):
        """Sends a command and returns its reply, printing the events that arrive meanwhile."""
        request_id = self.send(command, **fields)
        while True:
            message = self.receive()
            if message.get("id") == request_id and "ok" in message:
                if not message["ok"]:
                    error = message["error"]
                    raise RuntimeError(f"{command}: {error['code']}: {error['message']}")
                return message["data"]
            show(message)


def show(message):
    kind = message.get("event")
    if kind == "bell":
        print(f"event bell       cycle {message['cycle']} {message['group']} strike {message['strike']}"
              f" frame {message['frame']} heard at {message['audibleAt']}")
    elif kind == "session.ended":
        record = message["record"]
        print(f"event session.ended {record['outcome']} sat {record['satSeconds']} s"
              f" of {record['plannedSeconds']} s, cycles {record['cyclesCompleted']}")
    elif kind == "state.changed":
        values = ", ".join(f"{p} {message[p]}" for p in message["changed"])
        print(f"event state.changed {values}")
    elif kind is not None:
        details = {k: v for k, v in message.items() if k not in ("event", "sessionId", "plan")}
        print(f"event {kind:<16} {json.dumps(details, sort_keys=True)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enso", default="enso", help="the enso executable to spawn (default: enso on PATH)")
    parser.add_argument("--socket", help="connect to a running 'enso serve --socket' at this path instead")
    parser.add_argument("--bell", help="bell id or sound file (default: a generated tone)")
    parser.add_argument("--sitting", type=float, default=3, help="seconds per cycle (default 3)")
    parser.add_argument("--cycles", type=int, default=2, help="cycles (default 2)")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="enso-frontend-")
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    bell = args.bell
    if bell is None:
        bell = os.path.join(scratch, "bell.wav")
        write_bell(bell)

    child = None
    if args.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(args.socket)
        connection = Connection(sock.makefile("rb"), sock.makefile("wb"))
    else:
        child = subprocess.Popen(
            [args.enso, "serve", "--stdio", "--output", "null", "--journal", os.path.join(scratch, "sessions.jsonl")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        connection = Connection(child.stdout, child.stdin)

    hello = connection.receive()
    print(f"connected to {hello['server']} (protocol {hello['protocol']}, output {hello['output']})")
    started = connection.request(
        "start", sitting=args.sitting, bell=bell, strikes=2, strikeSpacing=0.5, breath=1,
        repeat=args.cycles, fadeIn=0, fadeOut=0)
    print(f"session {started['sessionId']} ends at {started['endsAt']}")
    status = connection.request("status")
    print(f"status {status['state']}, {status['remainingSeconds']:.1f} s to the closing bell")
    # A volume change ramped over half a second, read back from status (a typo'd field would be listed).
    changed = connection.request("set", volume=0.8, ramp=0.5)
    status = connection.request("status")
    print(f"volume {status['volume']} (plan {status['plan']['volume']}), ignored fields {changed['ignoredFields']},"
          f" next bell {status['nextBellGroup']}, clock settled {str(status['clockSettled']).lower()}")
    while True:
        message = connection.receive()
        show(message)
        if message.get("event") == "session.ended":
            break
    records = connection.request("sessions.list")["records"]
    print(f"journal: {len(records)} session(s), last {records[-1]['outcome']}")
    if child is None:
        return 0
    preview_bell(connection, bell)
    theme = os.path.join(scratch, "rain.wav")
    write_noise(theme)
    schedule_theme(connection, bell, theme)
    connection.request("shutdown")
    child.stdin.close()
    status = child.wait(timeout=10)
    return status or observe_second_client(args.enso, scratch, bell)


def preview_bell(connection, bell):
    """A settings screen auditions a bell: no session, nothing journaled."""
    preview = connection.request("preview", bell=bell, volume=0.7)
    print(f"preview {preview['kind']} {preview['seconds']:.1f} s")
    ended = connection.wait_for("preview.ended")
    print(f"preview ended: {ended['reason']}")


def schedule_theme(connection, bell, theme):
    """A journey: the session starts in silence and crossfades to a theme 0.5 s in (sat time)."""
    started = connection.request(
        "start", sitting=2, bell=bell, strikes=1, fadeIn=0, fadeOut=0,
        themeAt=[{"at": 0.5, "theme": theme, "crossfade": 0.2}])
    print(f"scheduled {len(started['plan']['themeAt'])} theme change(s)")
    changed = connection.wait_for("theme.changed")
    print(f"theme changed at frame {changed['frame']}")
    connection.request("stop", bell=False)
    connection.wait_for("session.ended")


def observe_second_client(enso, scratch, bell):
    """Two front ends on one socket server: a watch observes the volumes, a phone changes them."""
    path = os.path.join(scratch, "control.sock")
    server = subprocess.Popen(
        [enso, "serve", "--socket", path, "--output", "null", "--journal", os.path.join(scratch, "socket.jsonl")],
        stderr=subprocess.DEVNULL)
    try:
        watch, phone = connect(path), connect(path)
        # The watch shows only what it observes; the phone needs no events at all.
        watch.request("unsubscribe")
        watch.request("subscribe", events=["state.changed"])
        phone.request("unsubscribe")
        observed = watch.request("observe", properties=["volume", "ambientVolume", "bellVolume", "state"])
        print(f"observing {', '.join(observed['observing'])}: state {observed['state']}")
        phone.request("start", sitting=30, bell=bell, strikes=1, fadeIn=0)
        watch.wait_for("state.changed")
        phone.request("set", volume=0.5, bellVolume=0.4)
        while True:
            change = watch.wait_for("state.changed")
            if "volume" in change["changed"]:
                break
        phone.request("stop", bell=False)
        phone.request("shutdown")
    finally:
        status = server.wait(timeout=10)
    return status


def connect(path):
    """A client of a socket server (retrying while it starts); its hello is read."""
    for _ in range(200):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            break
        except OSError:
            sock.close()
            time.sleep(0.02)
    else:
        raise RuntimeError(f"no server answered on {path}")
    connection = Connection(sock.makefile("rb"), sock.makefile("wb"))
    connection.receive()
    return connection


if __name__ == "__main__":
    sys.exit(main())
