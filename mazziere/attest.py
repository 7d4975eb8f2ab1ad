"""Attested software (docs/security.md "Attested software"): a SHA-256 manifest of every file
of the installed package, and one hash of the whole.

The manifest lists every file under the package's folder (each ``.py`` module, each compiled
extension, the web client's files, the shipped strategy tables, the migrations), by its path
relative to that folder, sorted, with the SHA-256 of its bytes; ``__pycache__`` folders are
left out (Python writes them itself). The engine's compiled modules load a shared runtime that
the compiler puts beside the package (``<hash>__mypyc...so``): it is listed too, as
``../<name>``, since it holds their code. :meth:`Manifest.text` is exactly what ``sha256sum``
prints, so ``sha256sum -c`` checks it from the package's folder; the hash of the whole is the
SHA-256 of that text.

A regulator asks for the hash of every certified module and a daily check: ``mazziere attest``
prints this manifest, ``GET /api/attest`` serves it, and the server checks its own files
against the manifest it recorded (:mod:`mazziere.server.attestation`).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mazziere import __version__

PACKAGE_DIR = Path(__file__).resolve().parent
"""The folder of the installed package."""

_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")
_MYPYC_GROUP = re.compile(rb"([0-9a-f]{20}__mypyc)\x00")


@dataclass(frozen=True, slots=True)
class Difference:
    """One file that differs from the manifest: ``changed`` (other bytes), ``missing`` (in
    the manifest, not on disk) or ``added`` (on disk, not in the manifest)."""

    path: str
    kind: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.path}"


@dataclass(frozen=True, slots=True)
class Manifest:
    """Every file of the package with its SHA-256, sorted by path."""

    files: tuple[tuple[str, str], ...]
    """``(path, sha256)`` pairs, the path relative to the package's folder (``/``)."""
    version: str = __version__

    def text(self) -> str:
        """One line a file, ``<sha256>  <path>``: what ``sha256sum`` prints (and checks)."""
        return "".join(f"{digest}  {path}\n" for path, digest in self.files)

    @property
    def sha256(self) -> str:
        """The hash of the whole: SHA-256 of :meth:`text`."""
        return hashlib.sha256(self.text().encode()).hexdigest()

    def to_json(self) -> dict[str, Any]:
        return {
            "package": "mazziere",
            "version": self.version,
            "sha256": self.sha256,
            "count": len(self.files),
            "files": [{"path": p, "sha256": d} for p, d in self.files],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        files = tuple(sorted((str(f["path"]), str(f["sha256"])) for f in data["files"]))
        return cls(files, str(data.get("version", "")))

    def differences(self, actual: Manifest) -> list[Difference]:
        """How ``actual`` (the files now) differs from this manifest, by path."""
        mine, theirs = dict(self.files), dict(actual.files)
        out = [
            Difference(p, "changed" if p in theirs else "missing")
            for p, d in mine.items()
            if theirs.get(p) != d
        ]
        out.extend(Difference(p, "added") for p in theirs if p not in mine)
        return sorted(out, key=lambda d: d.path)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _package_files(root: Path) -> list[Path]:
    return [
        p
        for p in root.rglob("*")
        if p.is_file()
        and not _SKIPPED_DIRS.intersection(p.relative_to(root).parts)
        and not p.name.endswith(_SKIPPED_SUFFIXES)
    ]


def _compiled_runtimes(files: list[Path], root: Path) -> list[Path]:
    """The shared runtimes the package's compiled extensions load (mypyc puts one beside the
    package), found by the name each extension imports."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    names: set[str] = set()
    for p in files:
        if p.name.endswith(suffixes):
            names.update(m.decode() for m in _MYPYC_GROUP.findall(p.read_bytes()))
    found: list[Path] = []
    for name in sorted(names):
        beside = [root.parent / (name + s) for s in suffixes]
        here = next((b for b in beside if b.is_file()), None)
        if here is None:
            spec = importlib.util.find_spec(name)
            here = Path(spec.origin) if spec is not None and spec.origin else None
        if here is not None and here.is_file():
            found.append(here)
    return found


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return "../" + path.name


def build(root: Path = PACKAGE_DIR) -> Manifest:
    """The manifest of the package installed at ``root`` (this one by default)."""
    files = _package_files(root)
    files += _compiled_runtimes(files, root)
    return Manifest(tuple(sorted((_relative(p, root), file_sha256(p)) for p in files)))
