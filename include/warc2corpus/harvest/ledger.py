"""The harvest ledger: one JSON line per capture dealt with, in ``OUT_DIR/harvest-ledger.jsonl``.

Append-only and written line by line (each line flushed and fsynced after its WARC record is on disk),
so a harvest killed at any moment leaves a ledger that says exactly which captures are in which file
up to which byte. A last line cut off by the kill is ignored. The harvest needs no database.

Entry statuses: ``written`` (a response record), ``revisit`` (a revisit record: its digest was written
before), ``mismatch`` (the payload's digest is not the CDX digest: written apart, in ``mismatch/``),
``failed`` (not fetched: the next harvest tries again). The latest entry of a capture counts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

LEDGER_NAME = "harvest-ledger.jsonl"
DONE = frozenset({"written", "revisit", "mismatch"})


class Ledger:
    def __init__(self, out_dir: Path):
        self.path = out_dir / LEDGER_NAME
        self.entries: dict[str, dict] = {}
        self.originals: dict[str, dict] = {}  # payload digest -> the written entry holding it
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut off when a harvest was killed
                self._take(entry)

    def _take(self, entry: dict) -> None:
        self.entries[entry["key"]] = entry
        if entry["status"] == "written" and entry.get("digest"):
            self.originals.setdefault(entry["digest"], entry)

    def done(self, key: str) -> bool:
        entry = self.entries.get(key)
        return entry is not None and entry["status"] in DONE

    def ends(self, file_name: str) -> int | None:
        """The end offset of the last record the ledger knows in ``file_name``."""
        offsets = [e["end"] for e in self.entries.values() if e.get("file") == file_name and "end" in e]
        return max(offsets) if offsets else None

    def append(self, entry: dict) -> None:
        line = (json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        self._take(entry)
