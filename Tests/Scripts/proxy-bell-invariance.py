#!/usr/bin/env python3
"""Class flips of Enso's bell judgment on a proxy held-out set: sounds nobody on the project tuned on.

The set is docs/bells.md's "A second proxy held-out set": the sound themes and sound icons of six Debian 12 packages
the corpus does not use, and the PyPI wheel chime 0.7.0, 216 distinct sounds (by their bytes). Each goes through the
12 changes of issue 43 §1 that a listener does not hear: -12, -24 and -30 dB, 22.05, 48 and 96 kHz (sox `rate -v`),
Ogg Vorbis q5, MP3 192 kb/s, Opus 128 kb/s, 30 and 100 ms of leading silence, and mono <-> dual mono (the gains,
rates, pads and the channel change written at 24 bits, so that no gain sinks a tail into a new dither). Every copy
whose class differs from its original's is a flip.

    python3 Tests/Scripts/proxy-bell-invariance.py [--enso .build/release/enso] [--work DIR] [-v] [--off-grid-pads]

--work keeps the downloads, the originals and the copies (default: a temporary folder, removed at the end); a second
run on the same folder only judges again. -v prints each flip's first reason, original and copy. --off-grid-pads adds
three copies padded by 12, 23 and 41 ms: the 30 and 100 ms pads are whole multiples of the envelope's 5 ms hop, so
they never moved where a sound falls on the analysis grid; these did, until the grids started on a sound's first
sample that is not digital silence (docs/bells.md, "Pads that are not whole hops"): they now check that. Needs
apt-get (the
packages are downloaded, not installed), pip (the wheel), sox with MP3 support and opusenc (`make test-deps`). Exit
0 when it ran, whatever the count (the figure is for reading); 1 when a tool or a download failed.
"""

import argparse
import collections
import concurrent.futures
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debpkg  # noqa: E402 (beside this script)

# Package, the version measured in docs/bells.md, and the prefix its sounds are named with.
PACKAGES = [
    ("sound-theme-freedesktop", "0.8-2", "fd"),
    ("yaru-theme-sound", "22.10.3-1", "yaru"),
    ("deepin-sound-theme", "15.10.6-1", "dp"),
    ("oxygen-sounds", "4:5.27.5-2", "ox"),
    ("lomiri-sounds", "22.02-1", "lo"),
    ("sound-icons", "0.1-8", "si"),
]
WHEEL = ("chime", "0.7.0", "chime")
AUDIO = (".wav", ".oga", ".ogg", ".flac")

# The changes of issue 43 §1: name, file ending, and the command that makes `copy` from `original` (`channels`).
GAINS_RATES_PADS = {
    "gain-12": ["gain", "-12"],
    "gain-24": ["gain", "-24"],
    "gain-30": ["gain", "-30"],
    "r22050": ["rate", "-v", "22050"],
    "r48000": ["rate", "-v", "48000"],
    "r96000": ["rate", "-v", "96000"],
    "pad30ms": ["pad", "0.03", "0"],
    "pad100ms": ["pad", "0.1", "0"],
}
# Leading silences that are not whole hops of the 5 ms envelope (--off-grid-pads).
OFF_GRID_PADS = {
    "pad12ms": ["pad", "0.012", "0"],
    "pad23ms": ["pad", "0.023", "0"],
    "pad41ms": ["pad", "0.041", "0"],
}


def transforms(off_grid=False):
    sox_changes = dict(GAINS_RATES_PADS, **(OFF_GRID_PADS if off_grid else {}))
    out = [(name, "wav", lambda o, c, ch, fx=fx: ["sox", o, "-b", "24", c] + fx) for name, fx in sox_changes.items()]
    out.append(("ogg-q5", "ogg", lambda o, c, ch: ["sox", o, "-C", "5", c]))
    out.append(("mp3-192", "mp3", lambda o, c, ch: ["sox", o, "-C", "192", c]))
    out.append(("opus-128", "opus", lambda o, c, ch: ["opusenc", "--quiet", "--bitrate", "128", o, c]))
    out.append(
        (
            "mono-dual-mono",
            "wav",
            lambda o, c, ch: ["sox", o, "-b", "24", c, "remix"] + (["1", "1"] if ch == 1 else ["1-2"]),
        )
    )
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fail(message):
    sys.exit("proxy-bell-invariance: " + message)


def download(work):
    """Downloads and unpacks the packages and the wheel into work/x/<prefix> (once)."""
    debpkg.unpack(work, PACKAGES, fail)
    pkgs = os.path.join(work, "pkgs")
    name, version, prefix = WHEEL
    target = os.path.join(work, "x", prefix)
    if not os.path.isdir(target):
        wheels = glob.glob(os.path.join(pkgs, name + "-" + version + "-*.whl"))
        if not wheels:
            spec = "%s==%s" % (name, version)
            r = run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", spec, "-d", pkgs])
            if r.returncode != 0:
                fail("pip download %s==%s failed: %s" % (name, version, r.stderr.strip()[-300:]))
            wheels = glob.glob(os.path.join(pkgs, name + "-" + version + "-*.whl"))
        with zipfile.ZipFile(wheels[0]) as z:
            z.extractall(target)


def sounds(work):
    """(name, path) of every distinct sound file of the set, in a stable order: `<prefix>-<stem>`."""
    seen, out, names = set(), [], set()
    for prefix in [p for _, _, p in PACKAGES] + [WHEEL[2]]:
        root = os.path.join(work, "x", prefix)
        for path in sorted(glob.glob(root + "/**/*", recursive=True)):
            if os.path.islink(path) or not os.path.isfile(path) or not path.lower().endswith(AUDIO):
                continue
            digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            # Named as docs/bells.md names them: lower case, words joined by "-", Oxygen's "Oxygen-" dropped, chime's
            # theme kept ("chime-sonic-success").
            stem = os.path.splitext(os.path.basename(path))[0].lower().replace(" ", "-").replace("_", "-")
            if prefix == "ox" and stem.startswith("oxygen-"):
                stem = stem[len("oxygen-"):]
            if prefix == WHEEL[2]:
                stem = os.path.basename(os.path.dirname(path)).lower() + "-" + stem
            name, k = "%s-%s" % (prefix, stem), 2
            while name in names:
                name, k = "%s-%s-%d" % (prefix, stem, k), k + 1
            names.add(name)
            out.append((name, path))
    return out


def make(work, items, made):
    """Writes each original as WAV into work/orig and its copies by `made` into work/copies (those not there yet)."""
    orig, copies = os.path.join(work, "orig"), os.path.join(work, "copies")
    os.makedirs(orig, exist_ok=True)
    os.makedirs(copies, exist_ok=True)

    def one(item):
        name, path = item
        o = os.path.join(orig, name + ".wav")
        if not os.path.exists(o):
            r = run(["sox", path, o + ".part.wav"])
            if r.returncode != 0:
                return "%s (%s): sox could not read it: %s" % (name, path, r.stderr.strip()[-200:])
            os.replace(o + ".part.wav", o)
        channels = int(run(["soxi", "-c", o]).stdout.strip() or 0)
        errors = []
        for t, ending, command in made:
            c = os.path.join(copies, "%s__%s.%s" % (name, t, ending))
            if os.path.exists(c):
                continue
            part = c + ".part." + ending
            r = run(command(o, part, channels))
            if r.returncode != 0:
                errors.append("%s %s: %s" % (name, t, r.stderr.strip()[-200:]))
            else:
                os.replace(part, c)
        return "\n".join(errors) or None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        problems = [p for p in pool.map(one, items) if p]
    if problems:
        fail("copies not made:\n" + "\n".join(problems))
    return orig, copies


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--enso", default=".build/release/enso")
    ap.add_argument("--work", help="a folder that keeps the downloads, originals and copies between runs")
    ap.add_argument("-v", action="store_true", help="print each flip's first reason, original and copy")
    ap.add_argument("--off-grid-pads", action="store_true", help="add copies padded by 12, 23 and 41 ms")
    a = ap.parse_args()
    made = transforms(a.off_grid_pads)
    names = {t for t, _, _ in made}
    for tool in ("apt-get", "dpkg-deb", "sox", "soxi", "opusenc"):
        if shutil.which(tool) is None:
            fail("%s is not installed (make test-deps)" % tool)
    if not os.access(a.enso, os.X_OK):
        fail("%s is not an executable enso (swift build -c release --product enso)" % a.enso)
    work = a.work or tempfile.mkdtemp(prefix="enso-proxy-bells.")
    try:
        os.makedirs(work, exist_ok=True)
        download(work)
        items = sounds(work)
        orig, copies = make(work, items, made)
        # Only the copies of this run's changes: a kept --work folder may hold others.
        kept = [f for f in sorted(glob.glob(copies + "/*")) if os.path.splitext(f)[0].rpartition("__")[2] in names]
        files = sorted(glob.glob(orig + "/*.wav")) + [f for f in kept if ".part." not in f]
        r = run([a.enso, "bells", "audition", "--json"] + files)
        if r.returncode >= 3:
            fail("enso exited %d: %s" % (r.returncode, r.stderr.strip()[-400:]))
        rows = json.loads(r.stdout)
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    by = collections.defaultdict(dict)
    for row in rows:
        stem = os.path.splitext(os.path.basename(row["file"]))[0]
        sound, _, change = stem.partition("__")
        by[sound][change or "original"] = row
    flips, cases = [], 0
    for sound in sorted(by):
        original = by[sound].get("original")
        for change, row in sorted(by[sound].items()):
            if change == "original" or original is None:
                continue
            cases += 1
            if row.get("class") != original.get("class"):
                flips.append((sound, change, original, row))
    for sound, change, original, row in flips:
        print("  %s %s: %s -> %s" % (sound, change, original.get("class"), row.get("class")))
        if a.v:
            print("      original: " + ((original.get("reasons") or [""])[0] or original.get("error") or ""))
            print("      copy:     " + ((row.get("reasons") or [""])[0] or row.get("error") or ""))
    classes = collections.Counter((d.get("original") or {}).get("class") for d in by.values())
    print(
        "proxy class invariance: %d of %d copies change class (%d sounds: %s)"
        % (len(flips), cases, len(by), ", ".join("%d %s" % (n, c) for c, n in sorted(classes.items(), key=str)))
    )


if __name__ == "__main__":
    main()
