"""The staging area: bulk data handed from one task to the next, addressed by key.

Tasks pass each other only manifests that name staging keys; the documents themselves live here
as gzipped JSON lines. Everything goes through :class:`Staging`, so the local directory could be
replaced by object storage without touching the stages. Writes are atomic (temporary file, then
rename): a retried task never reads half a file.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from warc2corpus import settings


class RowWriter:
    def __init__(self, stream):
        self.stream = stream
        self.count = 0

    def write(self, row: dict) -> None:
        self.stream.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
        self.stream.write("\n")
        self.count += 1


class Staging:
    def __init__(self, base: str | os.PathLike | None = None):
        self.base = Path(base or settings.staging_base())

    @staticmethod
    def key(*parts: str) -> str:
        """A key from parts, each made safe for a path segment."""
        return "/".join(re.sub(r"[^A-Za-z0-9._+-]+", "_", str(p)).strip("._") or "_" for p in parts)

    def path(self, key: str) -> Path:
        return self.base / key

    @contextmanager
    def writer(self, key: str) -> Iterator["RowWriter"]:
        """Write rows one at a time; the file appears under its key only when the block succeeds."""
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + f".tmp{os.getpid()}")
        try:
            with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=3) as out:
                rows = RowWriter(out)
                yield rows
            os.replace(temporary, target)
        finally:
            temporary.unlink(missing_ok=True)

    def write_jsonl(self, key: str, rows: Iterable[dict]) -> int:
        with self.writer(key) as out:
            for row in rows:
                out.write(row)
        return out.count

    def read_jsonl(self, key: str) -> Iterator[dict]:
        with gzip.open(self.path(key), "rt", encoding="utf-8") as lines:
            for line in lines:
                yield json.loads(line)

    def write_json(self, key: str, value) -> None:
        self.write_jsonl(key, [value])

    def read_json(self, key: str):
        return next(self.read_jsonl(key))

    def remove(self, prefix: str) -> None:
        shutil.rmtree(self.path(prefix), ignore_errors=True)
