"""Running a module of this checkout as another, unprivileged user (uid/gid 65534), for tests of what such a
user can and cannot do to what aceforge starts as root.

The venv's interpreter lies under /root (not enterable by others), so the child runs Debian's
``/usr/bin/python3`` of the same minor version with this checkout and the venv's site-packages on its path.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pydantic

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = os.geteuid() == 0
NOBODY = 65534


def _readable_by_anyone(path: Path) -> bool:
    return all(os.stat(p).st_mode & stat.S_IXOTH for p in [path, *path.parents] if p.is_dir())


def unprivileged_python(module: str) -> list[str] | None:
    """A command running ``python -m module`` as uid 65534 that can import aceforge from here (arguments go
    after it), or None where that cannot be done (not root, no setpriv, no Python of this version, folders
    others cannot read)."""
    site_packages = Path(pydantic.__file__).resolve().parents[1]
    python = Path("/usr/bin/python3")
    wanted = f"{sys.version_info.major}.{sys.version_info.minor}"
    if not AS_ROOT or shutil.which("setpriv") is None or not python.exists():
        return None
    version = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True)
    if version.stdout.decode().strip() != wanted or not all(map(_readable_by_anyone, (ROOT, site_packages))):
        return None
    ids = [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    path = f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(site_packages)!r}]; import runpy; "
    return ["setpriv", *ids, str(python), "-c", path + f"runpy.run_module({module!r}, run_name='__main__')"]
