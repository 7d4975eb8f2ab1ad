"""A long simulation's finished work in a JSON-lines file, so that a run can stop and go on
(the command line's ``--journal``): ``sim uno`` journals matches, ``rtp`` chunks of rounds.

The first line is the run's header (the format, and whatever makes the run this run: the
rules, the seed...). Each further line is one finished piece of work. A file written for
another run is refused (``journal_mismatch``, naming what differs) rather than mixed in, and
one that cannot be read is refused (``bad_journal``); neither is changed. A last line cut
short (the process was killed while writing it) is dropped, and its work is done again.
Written with the standard library's ``json``: a line is small and the file is read once.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> j = JournalFile(path, {"seed": 1})
>>> j.entries()
[]
>>> j.append([{"n": 1}, {"n": 2}])
>>> [obj for _, obj in JournalFile(path, {"seed": 1}).entries()]
[{'n': 1}, {'n': 2}]
>>> try:
...     JournalFile(path, {"seed": 2}).entries()
... except OptionError as e:
...     print(e.code)
journal_mismatch
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mazziere.errors import OptionError

JOURNAL_FORMAT = 1


class JournalFile:
    """One run's journal: its header, the entries after it, appended as work finishes."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = Path(path)
        # as the file will hold it (tuples become lists), so that it compares equal when read
        self.header = json.loads(json.dumps({"journal": JOURNAL_FORMAT, **header}))

    def entries(self) -> list[tuple[int, dict[str, Any]]]:
        """The entries already in the file with their line numbers (the file is created, with
        its header, if it does not exist)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            raw = b""
        except OSError as e:
            raise OptionError(f"cannot read the journal {self.path}: {e}", "bad_journal") from e
        end = raw.rfind(b"\n") + 1
        lines = raw[:end].decode("utf-8", "replace").splitlines()
        if not lines:
            self._write(json.dumps(self.header) + "\n", "w")
            return []
        head = self._parse(lines[0], 1)
        if head != self.header:
            keys = self.header.keys() | head.keys()
            diff = sorted(k for k in keys if head.get(k) != self.header.get(k))
            raise OptionError(
                f"the journal {self.path} was written for another run ({', '.join(diff)} "
                "differ); name a new file",
                "journal_mismatch",
            )
        out = [(no, self._parse(line, no)) for no, line in enumerate(lines[1:], start=2)]
        if end < len(raw):  # a line cut short: keep the file to its last whole line
            with self.path.open("r+b") as f:
                f.truncate(end)
        return out

    def append(self, objects: Iterable[dict[str, Any]]) -> None:
        """Write finished work at the end of the file (flushed and synced: a kill loses none
        of it)."""
        self._write("".join(json.dumps(o) + "\n" for o in objects), "a")

    def refuse(self, no: int, what: str) -> OptionError:
        """The error for line ``no``, which is not ``what``."""
        return OptionError(f"the journal {self.path} line {no} is not {what}", "bad_journal")

    def _write(self, text: str, mode: str) -> None:
        try:
            with self.path.open(mode, encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise OptionError(f"cannot write the journal {self.path}: {e}", "bad_journal") from e

    def _parse(self, line: str, no: int) -> dict[str, Any]:
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            raise self.refuse(no, "a JSON object")
        return obj
