#!/usr/bin/env python3
"""Enso's loop judgment on a proxy held-out set: whole files that other games play looped.

The set is docs/loops.md's "Whole-file loops" of "A proxy held-out set": 24 files that four games the corpus does not
use play looped as whole files, found by their own code or data (Debian 12 packages):
- Warzone 2100 4.3.3 (warzone2100-data): the 9 files base.wz's audio/audio.cfg marks `loop` (read from the file).
- Minetest Game 5.6.1 (minetest-data): fire_fire.1-3 and carts_cart_moving.1-3, played with
  `minetest.sound_play(..., {loop = true})` in mods/fire/init.lua and mods/carts/cart_entity.lua (both checked here).
- Hedgewars 1.0.2 (hedgewars-data): `LoopSound(sndSteps)` (uGears.pas), `LoopSound(sndRCPlane)` (uGearsHedgehog.pas)
  and `LoopSound(sndBeeWater)` (uGearsHandlersMess.pas); uSound.pas's Soundz table maps them to steps.ogg,
  rcplane.ogg and beewater.ogg in Data/Sounds.
- Colobot 0.2.0 (colobot-common-sounds): the six SOUND_MOTOR* engines that src/physics/physics.cpp's
  CPhysics::SoundMotorFull and SoundMotorSlow start with `m_sound->Play(sound, pos, 0.0f, f, true)` (loop true):
  SOUND_MOTORw 6 (wheeled), MOTORt 7 (tracked), MOTORr 8 (roller), MOTORs 46 (subber), MOTORi 47 (legged, its own
  Play call) and MOTORd 81 (toy); CSoundInterface::CacheAll names sound N soundNNN.wav. Not taken, though also
  played looped there: SOUND_FLY and SOUND_FLYh (SoundReactorFull, jets), SOUND_SLIDE (winged bot sliding) and
  SOUND_MANIP (the Apollo rover's motor, otherwise the arm's sound), nor the building and effect loops of
  src/object/auto/*.cpp and the pyro (SOUND_STATION, SOUND_RECOVER, SOUND_BURN, ...).
With --0ad, also 0 A.D. 0.0.26 (0ad-data): the sounds of the three sound groups in public.zip's
audio/ambient/building/ whose XML says <Looping>1</Looping> (amb_farm, amb_port, amb_trade), in a table of their own.
With --ambiences, also the looped ambiences of MegaGlest 3.13.0, SuperTuxKart 1.4 and Wesnoth 1.16.9 (docs/loops.md,
"Held out: other games' ambiences"), found in their data as ambience_sounds() says, in a table of their own.

Each file is decoded to WAV with sox at its own rate and channels (a .wav is copied as it is) into WORK/wav, and
labelled from that WAV by the corpus README's criteria, by importing the corpus build's own `loop_measure`
(CORPUS/build/build.py): pass when every `wrap_typical_of_interior` test holds, else fail. `enso loops verify --json`
judges the same WAVs as whole-file loops; a verdict agrees when the label is pass and Enso passes or warns, or the
label is fail and Enso fails. `enso loops find --json` says whether its best candidate is the whole file.

    python3 Tests/Scripts/proxy-loop-check.py [--enso .build/release/enso] [--work DIR] [--corpus ../shared/corpus]
                                              [--0ad] [--ambiences] [-v]

--work keeps the downloads, the unpacked packages and the WAVs (default: a temporary folder, removed at the end); a
second run on the same folder only labels and judges again. --0ad downloads 0ad-data (1.4 GB, 3.3 GB unpacked).
-v prints each label's wrap features against their lines. Needs apt-get (the packages are downloaded, not
installed), dpkg-deb and sox with Ogg Vorbis support. Exit 0 when it ran, whatever the figures; 1 when a tool or a
download failed.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debpkg  # noqa: E402 (beside this script)

HERE = os.path.dirname(os.path.abspath(__file__))

# Package, the version measured in docs/loops.md, and the prefix its sounds are named with.
PACKAGES = [
    ("warzone2100-data", "4.3.3-3", "wz"),
    ("minetest-data", "5.6.1+dfsg+~1.9.0mt8+dfsg-2", "mt"),
    ("hedgewars-data", "1.0.2-6", "hw"),
    ("colobot-common-sounds", "0.2.0-2", "cb"),
]
ZEROAD = ("0ad-data", "0.0.26-1", "0ad")
# The ambiences of docs/loops.md's "Held out: other games' ambiences" (--ambiences), 1 GB of packages.
AMBIENCES = [
    ("megaglest-data", "3.13.0-3", "mg"),
    ("supertuxkart-data", "1.4+dfsg-2", "stk"),
    ("wesnoth-1.16-data", "1:1.16.9-1", "wn"),
]

MINETEST = "usr/share/games/minetest/games/minetest_game/mods"
# Sound name, the Lua file that plays it with loop = true; the files are <name>.1-3.ogg in <mod>/sounds.
MINETEST_LOOPS = [("fire", "fire_fire", "fire/init.lua"), ("carts", "carts_cart_moving", "carts/cart_entity.lua")]
HEDGEWARS = "usr/share/games/hedgewars/Data/Sounds"
# uSound.pas's Soundz entries of the sounds the engine starts with LoopSound.
HEDGEWARS_LOOPS = [("sndSteps", "steps.ogg"), ("sndRCPlane", "rcplane.ogg"), ("sndBeeWater", "beewater.ogg")]
COLOBOT = "usr/share/games/colobot/sounds"
# SoundType values (src/sound/sound_type.h) of the engines CPhysics::SoundMotorFull/Slow play with loop true.
COLOBOT_LOOPS = [("SOUND_MOTORw", 6), ("SOUND_MOTORt", 7), ("SOUND_MOTORr", 8), ("SOUND_MOTORs", 46),
                 ("SOUND_MOTORi", 47), ("SOUND_MOTORd", 81)]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fail(message):
    sys.exit("proxy-loop-check: " + message)


def download(work, packages):
    """Downloads and unpacks each package into work/x/<prefix> (once)."""
    debpkg.unpack(work, packages, fail)


def write_member(archive, member, out):
    if not os.path.exists(out):
        with zipfile.ZipFile(archive) as z:
            data = z.read(member)
        with open(out + ".part", "wb") as f:
            f.write(data)
        os.replace(out + ".part", out)
    return out


def need(path, what):
    if not os.path.isfile(path):
        fail("%s: %s is not in the package" % (what, path))
    return path


def sounds(work):
    """(name, source path, evidence) of the 24 files, in docs/loops.md's order."""
    x = os.path.join(work, "x")
    src = os.path.join(work, "src")
    os.makedirs(src, exist_ok=True)
    out = []
    # Warzone 2100: `audio "<file>" loop <volume> <range>` lines of audio/audio.cfg (comments removed).
    wz = need(os.path.join(x, "wz", "usr/share/games/warzone2100/base.wz"), "warzone2100")
    with zipfile.ZipFile(wz) as z:
        cfg = re.sub(r"/\*.*?\*/", "", z.read("audio/audio.cfg").decode("latin-1"), flags=re.S)
        members = z.namelist()
    for file in re.findall(r'^\s*audio\s+"([^"]+)"\s+loop\b', cfg, flags=re.M):
        hits = [m for m in members if m.startswith("audio/") and m.endswith("/" + file)]
        if len(hits) != 1:
            fail("warzone2100: %s of audio.cfg is %d files in base.wz" % (file, len(hits)))
        stem = os.path.splitext(file)[0]
        path = write_member(wz, hits[0], os.path.join(src, "wz-%s.ogg" % stem))
        out.append(("wz-" + stem.lower(), path, "base.wz audio/audio.cfg: %s loop" % file))
    # Minetest Game: the Lua lines must still say loop = true next to the sound's name.
    for mod, sound, lua in MINETEST_LOOPS:
        code = open(need(os.path.join(x, "mt", MINETEST, lua), "minetest")).read()
        if not re.search(r'sound_play\(\s*"%s"\s*,\s*\{[^}]*loop\s*=\s*true' % sound, code):
            fail("minetest: %s does not play %s with loop = true" % (lua, sound))
        for k in (1, 2, 3):
            path = need(os.path.join(x, "mt", MINETEST, mod, "sounds", "%s.%d.ogg" % (sound, k)), "minetest")
            name = "mt-%s-%d" % (sound.replace("_", "-"), k)
            out.append((name, path, "%s: sound_play(\"%s\", {loop = true})" % (lua, sound)))
    # Hedgewars.
    for snd, file in HEDGEWARS_LOOPS:
        path = need(os.path.join(x, "hw", HEDGEWARS, file), "hedgewars")
        out.append(("hw-" + os.path.splitext(file)[0].lower(), path, "LoopSound(%s), uSound.pas: %s" % (snd, file)))
    # Colobot.
    for snd, n in COLOBOT_LOOPS:
        path = need(os.path.join(x, "cb", COLOBOT, "sound%03d.wav" % n), "colobot")
        out.append(("cb-sound%03d" % n, path, "physics.cpp SoundMotorFull/Slow: Play(%s, ..., true)" % snd))
    return out


def zeroad_sounds(work):
    """(name, source path, evidence) of the sounds of 0 A.D.'s looping building sound groups."""
    public = need(os.path.join(work, "x", "0ad", "usr/share/games/0ad/mods/public/public.zip"), "0ad")
    src = os.path.join(work, "src")
    os.makedirs(src, exist_ok=True)
    out = []
    with zipfile.ZipFile(public) as z:
        members = set(z.namelist())
        groups = sorted(m for m in members if re.match(r"audio/ambient/building/[^/]+\.xml$", m))
        picked = []
        for g in groups:
            text = z.read(g).decode("utf-8", "replace")
            if not re.search(r"<Looping>\s*1\s*</Looping>", text):
                continue
            folder = (re.search(r"<Path>\s*([^<]*?)\s*</Path>", text) or [None, ""])[1].rstrip("/")
            for file in sorted(re.findall(r"<Sound>\s*([^<]*?)\s*</Sound>", text)):
                member = folder + "/" + file
                if member not in members:
                    fail("0ad: %s names %s, not in public.zip" % (g, member))
                picked.append((g, member))
    for group, member in picked:
        stem = os.path.splitext(os.path.basename(member))[0]
        path = write_member(public, member, os.path.join(src, "0ad-%s.ogg" % stem))
        out.append(("0ad-" + stem.lower().replace("_", "-"), path, "%s <Looping>1</Looping>" % group))
    return out


def ambience_sounds(work):
    """(name, source path, evidence) of three other games' ambiences played as whole-file loops, found in their data:
    MegaGlest's tileset ambient streams (`<day-sound>`, `<night-sound>`, `<rain-sound>`, `<snow-sound>` enabled with a
    path; its stream player restarts a stream with no successor); SuperTuxKart's `sfx-emitter` objects of the tracks'
    scene.xml with no `conditions` and no `play-when-near` (TrackObjectPresentationSound loops them); Wesnoth's
    `[sound_source]` sounds with `loop=-1`. Files with the same bytes are taken once."""
    x = os.path.join(work, "x")
    out, seen, names = [], set(), set()

    def take(name, path, evidence):
        with open(path, "rb") as f:
            digest = hashlib.sha1(f.read()).hexdigest()
        if digest in seen:
            return
        seen.add(digest)
        base, k = name, 1
        while name in names:  # another file of the same name (two tracks' own sounds): -2, -3, ...
            k += 1
            name = "%s-%d" % (base, k)
        names.add(name)
        out.append((name, path, evidence))

    tilesets = os.path.join(x, "mg", "usr/share/games/megaglest/tilesets")
    for xml in sorted(glob.glob(os.path.join(tilesets, "*", "*.xml"))):
        text = open(xml, encoding="utf-8", errors="replace").read()
        for kind, path in re.findall(r'<(day|night|rain|snow)-sound\s+enabled="true"\s+path="([^"]+)"', text):
            full = need(os.path.join(os.path.dirname(xml), path), "megaglest")
            tileset = os.path.basename(os.path.dirname(xml))
            take("mg-%s-%s" % (tileset.replace("_", "-"), kind), full, "%s: <%s-sound>" % (os.path.basename(xml), kind))
    stk = os.path.join(x, "stk", "usr/share/games/supertuxkart/data")
    for scene in sorted(glob.glob(os.path.join(stk, "tracks", "*", "scene.xml"))):
        text = open(scene, encoding="utf-8", errors="replace").read()
        for obj in re.findall(r'<object[^>]*type="sfx-emitter"[^>]*>', text):
            sound = re.search(r'sound="([^"]+)"', obj)
            conditions = re.search(r'conditions="([^"]*)"', obj)
            near = re.search(r'play-when-near="([^"]*)"', obj)
            if not sound or (conditions and conditions.group(1).strip()):
                continue
            if near and near.group(1).strip().lower() in ("y", "true", "1"):
                continue
            track = os.path.basename(os.path.dirname(scene))
            here = os.path.join(os.path.dirname(scene), sound.group(1))
            for path in (here, os.path.join(stk, "sfx", sound.group(1))):
                if os.path.isfile(path):
                    stem = os.path.splitext(os.path.basename(path))[0]
                    take("stk-" + stem.lower().replace("_", "-"), path, "%s/scene.xml: sfx-emitter" % track)
                    break
    wesnoth = os.path.join(x, "wn", "usr/share/games/wesnoth/1.16/data")
    for cfg in sorted(glob.glob(os.path.join(wesnoth, "**", "*.cfg"), recursive=True)):
        text = open(cfg, encoding="utf-8", errors="replace").read()
        for block in re.findall(r"\[sound_source\](.*?)\[/sound_source\]", text, flags=re.S):
            if not re.search(r"^\s*loop\s*=\s*-1\s*$", block, flags=re.M):
                continue
            listed = re.search(r"^\s*sounds\s*=\s*(.+)$", block, flags=re.M)
            for sound in (listed.group(1).split(",") if listed else []):
                path = need(os.path.join(wesnoth, "core", "sounds", sound.strip()), "wesnoth")
                stem = os.path.splitext(os.path.basename(path))[0]
                take("wn-" + stem.lower(), path, "%s: [sound_source] loop=-1" % os.path.relpath(cfg, wesnoth))
    return out


def decode(work, items):
    """WORK/wav/<name>.wav of each item: sox at the file's own rate and channels; a WAV is copied as it is."""
    wav = os.path.join(work, "wav")
    os.makedirs(wav, exist_ok=True)

    def one(item):
        name, path, _ = item
        out = os.path.join(wav, name + ".wav")
        if os.path.exists(out):
            return None
        if path.lower().endswith(".wav"):
            shutil.copyfile(path, out + ".part.wav")
        else:
            r = run(["sox", "-V1", path, out + ".part.wav"])
            if r.returncode != 0:
                return "%s (%s): sox could not read it: %s" % (name, path, r.stderr.strip()[-200:])
        os.replace(out + ".part.wav", out)
        return None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        problems = [p for p in pool.map(one, items) if p]
    if problems:
        fail("not decoded:\n" + "\n".join(problems))
    return {name: os.path.join(wav, name + ".wav") for name, _, _ in items}


def label(build, wav):
    """The README's label of a whole-file loop: (pass | fail, failed tests, loop_measure's dict)."""
    x, r = build.audio.load(wav)
    m = build.loop_measure(x, r)
    failed = [k for k, ok in m["wrap_typical_of_interior"].items() if not ok]
    return ("fail" if failed else "pass"), failed, m


def lines(m):
    """Each wrap test's value, its line and the relation, as build.loop_measure draws them (for -v only)."""
    w, i, g = m["wrap"], m["interior"], m["region_abs_steps"]
    return [
        ("step", w["step"], "<=", max(4.0, 1.5 * i["step"]["p99"]), "max(4, 1.5 x p99 %.3f)" % i["step"]["p99"]),
        ("step_raw", w["step_raw"], "<=", g["p999"], "region p99.9"),
        ("level30", w["level30"], "<=", i["level30"]["p99"] + 1.0, "p99 + 1 dB"),
        ("level250", w["level250"], "<=", i["level250"]["p99"] + 0.5, "p99 + 0.5 dB"),
        ("dip", w["dip"], ">=", i["dip"]["p01"] - 3.0, "p01 - 3 dB"),
        ("zeros", w["zeros_ms"], "<", 1.0, "ms"),
    ]


def enso_json(enso, command, files):
    r = run([enso, "loops", command, "--json", "--progress", "none"] + files)
    if r.returncode >= 3 or not r.stdout.strip():
        fail("enso loops %s exited %d: %s" % (command, r.returncode, r.stderr.strip()[-400:]))
    rows = json.loads(r.stdout)
    rows = rows if isinstance(rows, list) else [rows]
    return {os.path.splitext(os.path.basename(row["file"]))[0]: row for row in rows}


def frames(wav):
    return int(run(["soxi", "-s", wav]).stdout.strip() or -1)


def judge(a, build, items, wavs, title):
    names = [name for name, _, _ in items]
    files = [wavs[n] for n in names]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        labels = dict(zip(names, pool.map(lambda n: label(build, wavs[n]), names)))
    verdicts = enso_json(a.enso, "verify", files)
    finds = enso_json(a.enso, "find", files)
    print(title)
    print("  %-24s %-24s %-6s %-5s %s" % ("name", "label", "enso", "whole", "first reason"))
    agree, whole_pass, passes = 0, 0, 0
    for name in names:
        lab, failed, m = labels[name]
        row = verdicts.get(name, {})
        verdict = row.get("verdict") or "error"
        reason = (row.get("reasons") or [row.get("error") or ""])[0]
        best = (finds.get(name, {}).get("candidates") or [None])[0]
        n = frames(wavs[name])
        whole = best is not None and best["start"] <= 2 and abs(best["end"] - n) <= 2
        ok = verdict in ("pass", "warn") if lab == "pass" else verdict == "fail"
        agree += ok
        passes += lab == "pass"
        whole_pass += whole and lab == "pass"
        text = lab + (" (%s)" % ",".join(failed) if failed else "")
        print("  %-24s %-24s %-6s %-5s %s%s" % (name, text, verdict, "yes" if whole else "no",
                                                "" if ok else "[disagrees] ", reason))
        if a.v:
            for test, value, rel, line, how in lines(m):
                mark = "ok" if m["wrap_typical_of_interior"][test] else "FAILS"
                print("      %-8s %10.4f %s %10.4f  (%s)  %s" % (test, value, rel, line, how, mark))
    print("verdicts agree: %d/%d" % (agree, len(names)))
    print("labels: %d pass, %d fail" % (passes, len(names) - passes))
    print("whole file found: %d of the %d labelled pass" % (whole_pass, passes))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--enso", default=".build/release/enso")
    ap.add_argument("--work", help="a folder that keeps the downloads, packages and WAVs between runs")
    ap.add_argument("--corpus", default=os.path.join(HERE, "../../../shared/corpus"),
                    help="the corpus whose build/build.py labels the files")
    ap.add_argument("--0ad", dest="zeroad", action="store_true",
                    help="also judge 0 A.D.'s looping building sounds (0ad-data, 1.4 GB)")
    ap.add_argument("--ambiences", action="store_true",
                    help="also judge MegaGlest's, SuperTuxKart's and Wesnoth's looped ambiences (1 GB of packages)")
    ap.add_argument("-v", action="store_true", help="print each label's wrap features against their lines")
    a = ap.parse_args()
    for tool in ("apt-get", "dpkg-deb", "sox", "soxi"):
        if shutil.which(tool) is None:
            fail("%s is not installed (make test-deps)" % tool)
    if not os.access(a.enso, os.X_OK):
        fail("%s is not an executable enso (swift build -c release --product enso)" % a.enso)
    build = debpkg.module("enso_corpus_build", os.path.join(os.path.abspath(a.corpus), "build", "build.py"), fail)
    work = a.work or tempfile.mkdtemp(prefix="enso-proxy-loops.")
    try:
        os.makedirs(work, exist_ok=True)
        download(work, PACKAGES + ([ZEROAD] if a.zeroad else []) + (AMBIENCES if a.ambiences else []))
        items = sounds(work)
        judge(a, build, items, decode(work, items), "whole-file loops of four games (%d files)" % len(items))
        if a.zeroad:
            extra = zeroad_sounds(work)
            print()
            judge(a, build, extra, decode(work, extra), "0 A.D. looping building sounds (%d files)" % len(extra))
        if a.ambiences:
            extra = ambience_sounds(work)
            print()
            judge(a, build, extra, decode(work, extra), "other games' looped ambiences (%d files)" % len(extra))
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
