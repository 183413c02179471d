#!/usr/bin/env python3
"""Designed defects found, and false defect flags, of Enso's bell judgment on a proxy held-out set.

The sounds are those of proxy-bell-invariance.py (six Debian 12 sound packages and the wheel chime 0.7.0 the corpus
does not use, 216 distinct sounds). Two figures, made as the corpus made its own (../shared/corpus/README.md):

- **designed defects**: every sound that is a clean base by the corpus's rules (the corpus build's reference rules,
  `bell_measure`, raise no defect, and its envelope falls 60 dB under its peak inside the file) is given each of the
  corpus's nine designed defects, one at a time, by the corpus build's own `make_bell_defect` (+12 dB clipped,
  cut at 30 % of its length to -60 dB abruptly or with a 50 ms fade, 1.5 s of zeros in front, a DC offset of
  0.05-0.10, pink or white noise at -45 dBFS, -40 LUFS, a channel inverted or dead). Each must be flagged. The
  corpus's bases are bells that ring for seconds; the proxy's are mostly short notifications, so each figure is
  given for the bases that fall 40 dB in 1.5 s or more (by the reference envelope) as well.
- **false defect flags**: a core defect (score.py's list) that Enso raises where the file's labels have none: on a
  designed file, any but its designed one (what its construction brought, by the rules below, is borderline); on an
  original, any the corpus build's reference rules do not raise, but for the README's borderline bands (a tail
  ending 35-45 dB under the peak; 0.1-0.5 s of pre-roll; loudness within 2 LU of the too-quiet lines or quiet by its
  momentary loudness alone; an 8-bit file's noise floor), with the README's own lines for its labels (a tail ending
  over -35 dB, a padded loudness under -35 LUFS). The natural defects those rules raise are listed with -v, not
  counted: the README checked each by hand (on a short notification the rules read the envelope's peak low and the
  end high).

A designed file counts only where the corpus's rules and lines find its defect in it: +12 dB clips nothing on a sound
peaking under -12 dBFS, a right channel inverted under a wide image is not out of phase, a cut at 30 % may fall
before the sound starts or where a fast notification is already 35 dB down.

    python3 Tests/Scripts/proxy-bell-defects.py [--enso .build/release/enso] [--work DIR] [--corpus DIR] [-v]

--work is shared with proxy-bell-invariance.py (its downloads and originals are reused; the designed files go into
DIR/defects, as WAV). -v lists every miss and false flag with Enso's reason. Needs numpy (the corpus build) and what
proxy-bell-invariance.py needs. Exit 0 when it ran, whatever the figures; 1 when a tool or a download failed.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import debpkg  # noqa: E402 (beside this script)

# score.py's core defects: the ones a label can expect (`true-peak`, `too-loud` and the like are not).
CORE = {
    "clipping", "leading-silence", "dc-offset", "truncated-tail", "noise-floor", "too-quiet", "channel", "non-finite"
}
DEFECTS = ["clipping", "truncated-tail", "leading-silence", "dc-offset", "noise-floor", "too-quiet", "channel"]


def fail(message):
    sys.exit("proxy-bell-defects: " + message)


def designs(channels, i):
    """The designed defects given to base number `i` (of `channels` channels): the corpus's nine kinds, their
    parameters taken in turn across bases as the corpus's four bases take them."""
    out = [
        ("clip12", "clipping", {"gain_db": 12}),
        ("cut30" + ("fade" if i % 2 else ""), "truncated-tail", {"frac": 0.30, "fade_ms": 50 if i % 2 else 0}),
        ("lead1500", "leading-silence", {"seconds": 1.5}),
        ("dc", "dc-offset", {"dc": [0.05, -0.10, 0.10][i % 3]}),
        (
            "noise45",
            "noise-floor",
            {"dbfs": -45, "color": "pink" if i % 2 == 0 else "white", "seed": 11 + i},
        ),
        ("quiet40", "too-quiet", {"lufs": -40.0}),
    ]
    if channels == 1:
        out.append(("rinverted", "channel", {"mode": "dual-mono-invert-right"}))
    else:
        mode = "dead-right" if i % 2 == 0 else "invert-right"
        out.append(("r" + mode.split("-")[0], "channel", {"mode": mode}))
    return out


def natural_labels(m, bits):
    """(expected, borderline) core defects of an original, by the corpus build's reference rules (`bell_measure`'s
    dict `m`) and the README's borderline bands."""
    expected = set(m["reference_rule_flags"])
    borderline = set()
    # The README's lines are the labels; the reference rules' own lines (-40 dB, a momentary -30 LUFS) fall inside
    # its borderline bands.
    ends = [v for v in (m["end_last10ms_db_re_peak"], m["end_100_150ms_db_re_peak"]) if v is not None]
    if ends and -45 <= max(ends) <= -35:
        expected.discard("truncated-tail")
        borderline.add("truncated-tail")
    padded, momentary = m["integrated_lufs_padded_0p4s"], m["max_momentary_lufs_10ms_padded_0p4s"]
    if "too-quiet" in expected and (padded is None or padded >= -35):
        expected.discard("too-quiet")
        borderline.add("too-quiet")
    if (padded is not None and abs(padded + 35) <= 2) or abs(momentary + 30) <= 2:
        borderline.add("too-quiet")
    if bits <= 8:
        borderline.add("noise-floor")
    lead = m["lead_silence_s_minus60dbfs"]
    if lead is not None and 0.1 <= lead < 0.5:
        borderline.add("leading-silence")
    return expected, borderline - expected


def audition(enso, files):
    rows = {}
    for k in range(0, len(files), 400):
        r = subprocess.run([enso, "bells", "audition", "--json"] + files[k : k + 400], capture_output=True, text=True)
        if r.returncode >= 3:
            fail("enso bells audition exited %d: %s" % (r.returncode, r.stderr.strip()[-400:]))
        for row in json.loads(r.stdout):
            rows[os.path.abspath(row["file"])] = row
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--enso", default=".build/release/enso")
    ap.add_argument("--work", help="folder kept between runs, shared with proxy-bell-invariance.py")
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    ap.add_argument("-v", action="store_true", help="list every miss and false flag")
    args = ap.parse_args()
    enso = os.path.abspath(args.enso)
    if not os.access(enso, os.X_OK):
        fail("%s is not an executable (build it: swift build -c release --product enso)" % enso)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="enso-proxy-defects-")
    os.makedirs(work, exist_ok=True)
    try:
        proxy = debpkg.module("proxy_bell_invariance", os.path.join(HERE, "proxy-bell-invariance.py"), fail)
        build = debpkg.module(
            "enso_corpus_build", os.path.join(os.path.abspath(args.corpus), "build", "build.py"), fail
        )
        proxy.download(work)
        items = proxy.sounds(work)
        orig = os.path.join(work, "orig")
        defects = os.path.join(work, "defects")
        os.makedirs(orig, exist_ok=True)
        os.makedirs(defects, exist_ok=True)

        ringing = set()  # bases that ring as a bell does: 40 dB down in 1.5 s or more (the reference envelope)

        def one(item):
            """The original: its name, path, labels, whether it is a clean base, its samples and rate."""
            name, path = item
            o = os.path.join(orig, name + ".wav")
            if not os.path.exists(o):
                r = proxy.run(["sox", path, o + ".part.wav"])
                if r.returncode != 0:
                    fail("%s (%s): sox could not read it: %s" % (name, path, r.stderr.strip()[-200:]))
                os.replace(o + ".part.wav", o)
            bits = int(proxy.run(["soxi", "-b", path]).stdout.strip() or 16)
            x, rate = build.audio.load(o)
            m = build.bell_measure(x, rate)
            labels = natural_labels(m, bits)
            clean = not m["reference_rule_flags"] and build.natural_length(x, rate) < len(x)
            if clean and m["d40_s"] is not None and m["d40_s"] >= 1.5:
                ringing.add(name)
            return name, o, labels, clean, x, rate

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            measured = list(pool.map(one, items))
        bases = [(name, o, x, rate) for name, o, _, clean, x, rate in measured if clean]

        def make(job):
            """The base's designed files that carry their defect by the corpus's rules: [(path, defect, base)], and
            the names of those that do not (+12 dB that clips nothing, a right channel inverted under a wide image,
            a cut before the sound)."""
            i, (name, _, x, rate) = job
            out, unmade = [], []
            for suffix, defect, params in designs(x.shape[1], i):
                path = os.path.join(defects, "%s__%s.wav" % (name, suffix))
                if not os.path.exists(path):
                    y, _, bits = build.make_bell_defect(x, rate, defect, params, None)
                    with open(path + ".part", "wb") as f:
                        f.write(build.audio.wav_bytes(build.audio.to_int(y, bits), rate, bits))
                    os.replace(path + ".part", path)
                y, _ = build.audio.load(path)
                m = build.bell_measure(y, rate)
                labelled, _ = natural_labels(m, 24)
                if defect in labelled and y.max() > 1e-3:
                    # What else the construction brought, by the corpus's rules and bands, is borderline: a label
                    # maker would look (a cut that keeps only an out-of-phase opening; a gain that puts a fade-in's
                    # start under -60 dBFS).
                    expected, borderline = natural_labels(m, 24)
                    out.append((path, defect, name, (expected | borderline) - {defect}))
                else:
                    unmade.append("%s (%s)" % (os.path.basename(path), defect))
            return out, unmade

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            made = list(pool.map(make, enumerate(bases)))
        designed = [d for ds, _ in made for d in ds]
        unmade = [u for _, us in made for u in us]

        rows = audition(enso, [o for _, o, *_ in measured] + [p for p, *_ in designed])

        def flags(path):
            row = rows.get(os.path.abspath(path), {})
            return set(row.get("defects", [])), row

        base_of = {name: o for name, o, _, _ in bases}
        labels_of = {name: labels for name, _, labels, _, _, _ in measured}
        found, by_kind, misses, false_designed = 0, {}, [], []
        for path, defect, name, borderline in designed:
            got, row = flags(path)
            k = by_kind.setdefault(defect, [0, 0, 0, 0])
            k[1] += 1
            k[3] += name in ringing
            if defect in got:
                found += 1
                k[0] += 1
                k[2] += name in ringing
            else:
                misses.append("%s: missed %s (%s; %s)" % (os.path.basename(path), defect, row.get("class"), first(row)))
            on_base = flags(base_of[name])[0]
            for d in sorted((got & CORE) - {defect} - borderline - labels_of[name][1]):
                false_designed.append(
                    "%s: false %s%s (%s)" % (os.path.basename(path), d, " (on its base too)" if d in on_base else "",
                                             reason(row, d)))
        false_natural = []
        for name, o, (expected, borderline), _, _, _ in measured:
            got, row = flags(o)
            for d in sorted((got & CORE) - expected - borderline):
                false_natural.append("%s: false %s (%s)" % (name, d, reason(row, d)))
        missed_natural = []
        for name, o, (expected, _), _, _, _ in measured:
            got, row = flags(o)
            for d in sorted(expected - got):
                missed_natural.append("%s: missed natural %s (%s; %s)" % (name, d, row.get("class"), first(row)))

        print(
            "proxy designed defects: %d bases of %d sounds (clean by the corpus's rules, falling 60 dB inside the file)"
            % (len(bases), len(measured))
        )
        print(
            "  %d designed files of %d carry their defect by the corpus's rules (the others are not counted%s)"
            % (len(designed), len(designed) + len(unmade), ": " + ", ".join(unmade) if args.v and unmade else "")
        )
        for defect in DEFECTS:
            if defect in by_kind:
                print("  %-16s %d/%d found (%d/%d on the %d bases that ring 1.5 s or more)"
                      % (defect, *by_kind[defect], len(ringing)))
        print(
            "designed defects found %d/%d, false defect flags %d on the designed files (%d of them on their base too)"
            % (found, len(designed), len(false_designed), sum("on its base too" in f for f in false_designed))
        )
        print("originals: false defect flags %d" % len(false_natural))
        if args.v:
            for line in misses + false_designed + missed_natural + false_natural:
                print("  " + line)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


def first(row):
    return (row.get("reasons") or [row.get("error", {}).get("message", "no row")])[0][:160]


def reason(row, defect):
    """Enso's reason that names `defect`, else its first."""
    for r in row.get("reasons") or []:
        if defect in r:
            return r[:160]
    return first(row)


if __name__ == "__main__":
    main()
