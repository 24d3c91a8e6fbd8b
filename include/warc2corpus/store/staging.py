"""The staging area: bulk data handed from one task to the next, addressed by key.

Tasks pass each other only manifests that name staging keys; the documents themselves live here
as gzipped JSON lines. Everything goes through :class:`Staging`, so the local directory could be
replaced by object storage without touching the stages. Writes are atomic (temporary file, then
rename): a retried task never reads half a file.

Every run keeps its files under ``<crawl job>/<run id>/``. A run that dies leaves them behind;
:meth:`Staging.clean` removes the run directories whose run is over: a `warc2corpus run` whose
process is gone from this host (its ``owner.json.gz`` names host, pid and the process's start), or any
run directory in which nothing was written for ``WARC2CORPUS_STAGING_STALE_HOURS`` (24) hours, the
rule for Airflow runs (whose tasks are many processes, perhaps on many hosts) and for other hosts.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import re
import shutil
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from warc2corpus import settings

log = logging.getLogger(__name__)

OWNER_KEY = "owner.json.gz"  # in each run directory of a `warc2corpus run`
STALE_HOURS_VARIABLE = "WARC2CORPUS_STAGING_STALE_HOURS"


def stale_after_seconds() -> float:
    value = os.environ.get(STALE_HOURS_VARIABLE, "").strip()
    try:
        hours = float(value) if value else 24.0
    except ValueError:
        raise ValueError(f"{STALE_HOURS_VARIABLE}={value!r} is not a number of hours") from None
    return hours * 3600


def _process_start(pid: int) -> str | None:
    """When a process started (clock ticks since boot, from /proc), or None when there is no such
    process; with the pid it names one process even after the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return None


def _alive(owner: dict) -> bool:
    pid = owner.get("pid")
    if not isinstance(pid, int):
        return False
    if os.path.isdir("/proc"):
        return _process_start(pid) == owner.get("process_start")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class RunDirectory:
    path: Path
    bytes: int
    idle_seconds: float     # since the last write anywhere in it
    dead_because: str | None  # None: the run may still be working; keep it


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

    # -- runs ------------------------------------------------------------------------------------

    def claim(self, prefix: str) -> None:
        """Mark a run directory as this process's (for :meth:`clean`)."""
        owner = {"host": socket.gethostname(), "pid": os.getpid(), "process_start": _process_start(os.getpid()),
                 "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self.write_json(f"{prefix}/{OWNER_KEY}", owner)

    def heartbeat(self, prefix: str) -> None:
        """Show that the run owning ``prefix`` is still at work (it may write nothing for a while)."""
        os.utime(self.path(f"{prefix}/{OWNER_KEY}"))

    def runs(self) -> list[RunDirectory]:
        """Every run directory (``<crawl job>/<run id>``), with whether its run is over and why."""
        found, now, stale = [], time.time(), stale_after_seconds()
        host = socket.gethostname()
        for run in sorted(p for p in self.base.glob("*/*") if p.is_dir() and not p.is_symlink()):
            newest, size = 0.0, 0
            for entry in [run, *run.rglob("*")]:
                try:
                    status = entry.lstat()
                except OSError:  # removed meanwhile
                    continue
                newest = max(newest, status.st_mtime)
                size += status.st_size if entry.is_file() else 0
            idle = now - newest
            owner = self._owner(run)
            dead = None
            if owner and owner.get("host") == host and not _alive(owner):
                dead = f"its process {owner.get('pid')} on this host has ended"
            elif idle > stale and not (owner and owner.get("host") == host):
                dead = f"nothing written for {idle / 3600:.1f} h (limit {stale / 3600:g} h)"
            found.append(RunDirectory(run, size, idle, dead))
        return found

    def _owner(self, run: Path) -> dict | None:
        try:
            owner = self.read_json(f"{run.relative_to(self.base).as_posix()}/{OWNER_KEY}")
        except (OSError, EOFError, ValueError, StopIteration):
            return None
        return owner if isinstance(owner, dict) else None

    def clean(self, *, dry_run: bool = False) -> list[RunDirectory]:
        """Remove the directories of runs that are over (see the module's doc); return them."""
        dead = [run for run in self.runs() if run.dead_because]
        for run in dead:
            log.warning("staging: %s %s (%d bytes): %s", "would remove" if dry_run else "removing", run.path,
                        run.bytes, run.dead_because)
            if not dry_run:
                shutil.rmtree(run.path, ignore_errors=True)
        return dead
