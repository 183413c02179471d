#!/usr/bin/env python3
"""Do Enso's verdicts on the real-recording corpus survive changes a listener would not call a change?

Each corpus bell and loop is transformed in ways that keep what it sounds like (a new sample rate, 16-bit
depth, FLAC, MP3, -10 dB, dual-mono stereo) and judged again; every verdict that moves is printed with its reasons.
A rule that flips under such a change has learnt something about the file that is not what a listener hears.

    python3 Tests/Scripts/corpus-invariance.py [--enso .build/release/enso] [--corpus ../shared/corpus] [--keep DIR]

Needs sox. Writes the transformed files under a temporary folder (or --keep DIR). Loop files keep their loop
points through `enso convert` (sox drops the WAV smpl chunk, so the gain and stereo cases cover the loops
without loop points only). Expected moves, not faults: `too-quiet` and `true-peak` after -10 dB, `too-loud`
after dual mono (BS.1770 sums the channels' power: +3 dB), DC-offset flags after -10 dB (the flag is an
absolute level), and clipping where sox's resampler itself clipped inter-sample overs.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def judge_bells(enso, folder):
    rows = json.loads(run([enso, "bells", "audition", "--json", folder]).stdout)
    return {stem(r["file"]): (r["class"], sorted(r["defects"])) for r in rows}


def judge_loops(enso, folder):
    files = sorted(f for f in glob.glob(folder + "/*") if not f.endswith(".json"))
    if not files:
        return {}
    rows = json.loads(run([enso, "loops", "verify", "--json"] + files).stdout)
    return {stem(r["file"]): (r["verdict"], r["reasons"][:2]) for r in rows}


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def make(folder, name):
    path = os.path.join(folder, name)
    os.makedirs(path, exist_ok=True)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--enso", default=os.path.join(HERE, "../../.build/release/enso"))
    p.add_argument("--corpus", default=os.path.join(HERE, "../../../shared/corpus"))
    p.add_argument("--keep", help="write the transformed files here and keep them")
    a = p.parse_args()
    if not shutil.which("sox"):
        sys.exit("corpus-invariance: needs sox (apt-get install sox)")
    enso, corpus = os.path.abspath(a.enso), os.path.abspath(a.corpus)
    work = a.keep or tempfile.mkdtemp(prefix="enso-invariance-")

    bells = sorted(glob.glob(corpus + "/bells/bell-like/*") + glob.glob(corpus + "/bells/notification/*"))
    base = make(work, "bells/orig")
    cases = {name: make(work, "bells/" + name) for name in ["r44100", "b16", "mp3", "gain-10", "stereo"]}
    for f in bells:
        s = stem(f)
        run(["sox", f, f"{base}/{s}.wav"])
        run(["sox", f, f"{cases['r44100']}/{s}.wav", "rate", "-v", "44100"])
        run(["sox", f, "-b", "16", f"{cases['b16']}/{s}.wav", "dither"])
        run([enso, "convert", f"{base}/{s}.wav", f"{cases['mp3']}/{s}.mp3"])
        run(["sox", f, f"{cases['gain-10']}/{s}.wav", "vol", "-10dB"])
        if run(["soxi", "-c", f]).stdout.strip() == "1":
            run(["sox", f, f"{cases['stereo']}/{s}.wav", "remix", "1", "1"])
    reference = judge_bells(enso, base)
    for name, folder in cases.items():
        judged = judge_bells(enso, folder)
        classes = defects = 0
        for s, (klass, found) in sorted(judged.items()):
            was_class, was_found = reference[s]
            if klass != was_class:
                classes += 1
                print(f"  bells {name} {s}: class {was_class} -> {klass}")
            if found != was_found:
                defects += 1
                gone, new = sorted(set(was_found) - set(found)), sorted(set(found) - set(was_found))
                print(f"  bells {name} {s}: defects -{gone} +{new}")
        print(f"bells {name}: {len(judged)} files, class moved {classes}, defects moved {defects}")

    loops = sorted(
        f for d in ["ambient", "instruments", "instrument-variants", "derived"] for f in glob.glob(f"{corpus}/loops/{d}/*")
    )
    base = make(work, "loops/orig")
    cases = {name: make(work, "loops/" + name) for name in ["r96000", "r32000", "r96000-loop", "b16", "flac", "gain-10"]}
    for f in loops:
        s = stem(f)
        run([enso, "convert", f, f"{base}/{s}.wav"])
        run([enso, "convert", f, f"{cases['r96000']}/{s}.wav", "--rate", "96000"])
        run([enso, "convert", f, f"{cases['r32000']}/{s}.wav", "--rate", "32000"])
        run([enso, "convert", f, f"{cases['r96000-loop']}/{s}.wav", "--rate", "96000", "--loop"])
        run([enso, "convert", f, f"{cases['b16']}/{s}.wav", "--format", "wav16"])
        run([enso, "convert", f, f"{cases['flac']}/{s}.flac"])
        if "loops     none" in run([enso, "info", f"{base}/{s}.wav"]).stdout:
            run(["sox", f"{base}/{s}.wav", f"{cases['gain-10']}/{s}.wav", "vol", "-10dB"])
    reference = judge_loops(enso, base)
    for name, folder in cases.items():
        judged = judge_loops(enso, folder)
        changes = 0
        for s, (verdict, reasons) in sorted(judged.items()):
            if verdict != reference[s][0]:
                changes += 1
                print(f"  loops {name} {s}: {reference[s][0]} -> {verdict} {reasons}")
        print(f"loops {name}: {len(judged)} files, verdicts moved {changes}")
    if not a.keep:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
