"""What the proxy held-out scripts (proxy-bell-invariance.py, proxy-bell-defects.py, proxy-loop-check.py) share:
pinned Debian packages downloaded and unpacked (`apt-get download`, nothing is installed, and `dpkg-deb -x`, once per
work folder), and a Python file loaded as a module by its path (the corpus build, another proxy script)."""

import glob
import importlib.util
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


def module(name, path, fail):
    """The Python file at `path` loaded as the module `name`: importing it only defines its functions (a script's
    main() is not run). `fail(message)` is called when the file is missing. The corpus build (build/build.py) puts
    build/ on sys.path for its own audio, seam, ... modules."""
    if not os.path.isfile(path):
        fail("%s is missing" % path)
    spec = importlib.util.spec_from_file_location(name, path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded
