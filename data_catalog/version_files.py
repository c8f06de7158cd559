"""A catalog version's own files: copies of what was registered, read-only, with one content hash.

A version's snapshot is a folder (``catalog-versions/<name>/v<N>/``) holding copies of the registered files in
their layout: a reflink where the file system shares blocks (``FICLONE``, or ``copy_file_range``, which
reflinks on btrfs and XFS), else a plain copy; never a hard link, which writing the registered file in place
would rewrite. Files are made 0444 (keeping no read bit the source lacked: a 0600 output gives 0400) and
folders 0555, and the SHA-256 of the folder (each file's relative name, size and bytes, in name order) is
taken once, when it is made, so a reader can tell that it is unchanged.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
from pathlib import Path

FICLONE = 0x40049409  # _IOW(0x94, 9, int): share the source's blocks (btrfs, XFS, bcachefs)
FILE_MODE, FOLDER_MODE = 0o444, 0o555
_CHUNK = 1 << 20
# DuckDB reads a path with *, ? or [ as a glob; a character class holding the character is its literal form.
_GLOB_ESCAPES = str.maketrans({"[": "[[]", "*": "[*]", "?": "[?]"})


def glob_escape(path: str) -> str:
    """``path`` as a DuckDB file pattern that matches that file only (``a[1].parquet`` -> ``a[[]1].parquet``)."""
    return path.translate(_GLOB_ESCAPES)


def make_snapshot(files: list[Path], base: Path, root: Path) -> None:
    """Copy ``files`` (each under ``base``) to ``root`` in the same layout, read-only. Built beside ``root``
    and renamed into place, so ``root`` is either absent or whole; an earlier ``root`` is replaced."""
    partial = root.with_name(root.name + ".partial")
    remove_tree(partial)  # left by a registration that did not finish
    partial.mkdir(parents=True)
    for file in files:
        target = partial / file.relative_to(base)
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_file(file, target)
    for folder in sorted((p for p in partial.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        folder.chmod(FOLDER_MODE)
    partial.chmod(FOLDER_MODE)
    remove_tree(root)
    partial.rename(root)


def copy_file(source: Path, target: Path) -> None:
    """``target`` (new) with ``source``'s bytes, read-only (0444, less what the source did not let others read): a
    reflink where the file system has them."""
    with open(source, "rb") as src, open(target, "xb") as dst:
        if not _clone(src.fileno(), dst.fileno()):
            dst.seek(0)
            dst.truncate()
            src.seek(0)
            shutil.copyfileobj(src, dst, _CHUNK)
        os.fchmod(dst.fileno(), FILE_MODE & os.fstat(src.fileno()).st_mode | stat.S_IRUSR)


def _clone(src: int, dst: int) -> bool:
    """Whether the kernel copied ``src`` into ``dst`` (a reflink, or an in-kernel copy); False to copy by hand."""
    try:
        fcntl.ioctl(dst, FICLONE, src)
        return True
    except OSError:  # not a file system with reflinks, or two file systems
        pass
    size, done = os.fstat(src).st_size, 0
    try:
        while done < size:
            copied = os.copy_file_range(src, dst, size - done, done, done)
            if copied == 0:  # the source shrank while copied: the copy by hand says what it holds
                return False
            done += copied
    except OSError:  # EXDEV on older kernels, EINVAL/ENOSYS where the file system has no such call
        return False
    return True


def snapshot_files(root: Path) -> list[Path]:
    """The files of a snapshot folder (none when it is missing)."""
    return [p for p in root.rglob("*") if p.is_file()] if root.is_dir() else []


def content_hash(files: list[Path], base: Path) -> str:
    """SHA-256 over ``files``: each one's name relative to ``base``, size and bytes, in name order (about 0.1 s
    per 100 MB on this machine)."""
    digest = hashlib.sha256()
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    for name, file in sorted((f.relative_to(base).as_posix(), f) for f in files):
        digest.update(f"{name}\0{file.stat().st_size}\0".encode())
        with open(file, "rb", buffering=0) as f:
            while read := f.readinto(buffer):
                digest.update(view[:read])
    return digest.hexdigest()


def remove_tree(path: Path) -> None:
    """Remove ``path`` and what it holds, read-only folders included (a snapshot's are 0555)."""
    if not path.exists():
        return
    for folder in [path, *(p for p in path.rglob("*") if p.is_dir() and not p.is_symlink())]:
        folder.chmod(stat.S_IMODE(folder.stat().st_mode) | stat.S_IWUSR | stat.S_IXUSR)
    shutil.rmtree(path)
