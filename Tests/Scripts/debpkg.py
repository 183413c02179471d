"""Pinned Debian packages downloaded and unpacked for the proxy held-out scripts (proxy-bell-invariance.py,
proxy-loop-check.py): `apt-get download` (nothing is installed) and `dpkg-deb -x`, once per work folder."""

import glob
import os
import subprocess
import sys


def unpack(work, packages, fail):
    """Unpacks each (name, version, prefix) of `packages` into work/x/<prefix>, downloading its .deb into work/pkgs
    first (the version given, else the archive's current one, said on stderr); a folder already unpacked is kept.
    `fail(message)` is called when a download or an unpacking fails."""
    pkgs = os.path.join(work, "pkgs")
    os.makedirs(pkgs, exist_ok=True)
    for name, version, prefix in packages:
        target = os.path.join(work, "x", prefix)
        if os.path.isdir(target):
            continue
        debs = glob.glob(os.path.join(pkgs, name + "_*.deb"))
        if not debs:
            r = run(["apt-get", "download", "%s=%s" % (name, version)], cwd=pkgs)
            if r.returncode != 0:
                print("%s %s is not in the archive; taking its current version" % (name, version), file=sys.stderr)
                r = run(["apt-get", "download", name], cwd=pkgs)
            if r.returncode != 0:
                fail("apt-get download %s failed: %s" % (name, r.stderr.strip()[-300:]))
            debs = glob.glob(os.path.join(pkgs, name + "_*.deb"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        r = run(["dpkg-deb", "-x", debs[0], target + ".part"])
        if r.returncode != 0:
            fail("dpkg-deb -x %s failed: %s" % (debs[0], r.stderr.strip()[-300:]))
        os.replace(target + ".part", target)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)
