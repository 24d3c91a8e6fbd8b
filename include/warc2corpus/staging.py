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
from pathlib import Path
from typing import Iterable, Iterator

from warc2corpus import settings


class Staging:
    def __init__(self, base: str | os.PathLike | None = None):
        self.base = Path(base or settings.staging_base())

    @staticmethod
    def key(*parts: str) -> str:
        """A key from parts, each made safe for a path segment."""
        return "/".join(re.sub(r"[^A-Za-z0-9._+-]+", "_", str(p)).strip("._") or "_" for p in parts)

    def path(self, key: str) -> Path:
        return self.base / key

    def write_jsonl(self, key: str, rows: Iterable[dict]) -> int:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + f".tmp{os.getpid()}")
        count = 0
        with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=3) as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
                out.write("\n")
                count += 1
        os.replace(temporary, target)
        return count

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
