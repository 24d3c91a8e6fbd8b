"""The staging area: bulk data handed from one task to the next, addressed by key.

Tasks pass each other only manifests that name staging keys; the documents themselves live here
as gzipped JSON lines (compressed and read by zlib-ng's gzip, in 0.57 and 0.4 of the standard
library's time; any gzip reader reads them). Everything goes through :class:`Staging`. Its root is a
local directory (a plain path or a ``file://`` URL) or any object store fsspec reaches
(``s3://bucket/prefix``…), given as a URL or as a path object: the DAG hands it Airflow's ``ObjectStoragePath`` with the connection
``WARC2CORPUS_STAGING_CONN_ID`` names, so workers on several hosts share one staging area. Writes
are atomic on both: the rows go to a temporary name that is renamed (locally) or moved (in an object
store) to the key only when the block succeeds; a retried task never reads half a file.

Every run keeps its files under ``<crawl job>/<run id>/``. A run that dies leaves them behind;
:meth:`Staging.clean` removes the run directories whose run is over: a `warc2corpus run` whose
process is gone from this host (its ``owner.json.gz`` names host, pid and the process's start), or any
run directory in which nothing was written for ``WARC2CORPUS_STAGING_STALE_HOURS`` (24) hours, the
rule for Airflow runs (whose tasks are many processes, perhaps on many hosts) and for other hosts.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import unquote, urlsplit

import msgspec
from zlib_ng import gzip_ng

from warc2corpus import settings
from warc2corpus.store.values import storable

log = logging.getLogger(__name__)

OWNER_KEY = "owner.json.gz"  # in each run directory of a `warc2corpus run`
STALE_HOURS_VARIABLE = "WARC2CORPUS_STAGING_STALE_HOURS"


class StagingError(OSError):
    """The staging area cannot be used; the message says where and why."""


def stale_after_seconds() -> float:
    return settings.number(STALE_HOURS_VARIABLE, 24.0) * 3600


def process_start(pid: int) -> str | None:
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
        return process_start(pid) == owner.get("process_start")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def storage_root(base: str | os.PathLike | Any) -> Path | Any:
    """The staging root for a path, a URL or a path object: a local :class:`Path` for plain paths,
    ``file://`` URLs and local path objects (so that writes can be renamed atomically), else the path
    object as given (Airflow's ``ObjectStoragePath`` or a universal_pathlib ``UPath``), or a ``UPath``
    made from the URL (credentials from the environment, as fsspec reads them)."""
    protocol = getattr(base, "protocol", None)
    if protocol is not None:  # a UPath or Airflow's ObjectStoragePath
        return Path(base.path) if protocol in ("", "file", "local") else base
    text = os.fspath(base)
    scheme = urlsplit(text).scheme if "://" in text else ""
    if not scheme:
        return Path(text)
    if scheme in ("file", "local"):
        return Path(unquote(urlsplit(text).path))
    from upath import UPath  # comes with Airflow; fsspec reaches the store

    return UPath(text)


@dataclass
class RunDirectory:
    key: str                # <crawl job>/<run id>
    path: Path | Any
    bytes: int
    idle_seconds: float     # since the last write anywhere in it
    dead_because: str | None  # None: the run may still be working; keep it


class RowWriter:
    """Rows as JSON lines (msgspec, about ten times faster than the standard library's json): a staged
    document is encoded once, and the stages after its extraction decode what they need of it."""

    def __init__(self, stream):
        self.stream = stream
        self.count = 0
        self._encoder = msgspec.json.Encoder()

    def write(self, row: dict) -> None:
        try:
            line = self._encoder.encode(row)
        except UnicodeEncodeError:  # a lone surrogate a page's JSON gave ("\\ud800"): no UTF-8 holds it
            line = self._encoder.encode(storable(row))
        self.stream.write(line + b"\n")
        self.count += 1

    def write_line(self, line: bytes) -> None:
        """A row as another writer wrote it (a line :meth:`Staging.read_lines` gave), unchanged."""
        self.stream.write(line if line.endswith(b"\n") else line + b"\n")
        self.count += 1


class Staging:
    def __init__(self, base: str | os.PathLike | Any | None = None):
        self.base = storage_root(base if base is not None else settings.staging_base())
        self.local = isinstance(self.base, Path)

    def __repr__(self) -> str:
        return f"Staging({self.base})"

    @staticmethod
    def key(*parts: str) -> str:
        """A key from parts, each made safe for a path segment."""
        return "/".join(re.sub(r"[^A-Za-z0-9._+-]+", "_", str(p)).strip("._") or "_" for p in parts)

    def path(self, key: str):
        return self.base / key

    @contextmanager
    def writer(self, key: str) -> Iterator["RowWriter"]:
        """Write rows one at a time; the file appears under its key only when the block succeeds."""
        target = self.path(key)
        temporary = target.with_name(f"{target.name}.tmp-{uuid.uuid4().hex[:12]}")
        if self.local:
            target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with temporary.open("wb") as raw, gzip_ng.GzipFile(fileobj=raw, mode="wb", compresslevel=3) as packed:
                rows = RowWriter(packed)
                yield rows
            if self.local:
                os.replace(temporary, target)
            else:  # an object store has no rename: a server-side copy, then the temporary is deleted
                temporary.fs.mv(temporary.path, target.path)
        finally:
            self._delete(temporary)

    def _delete(self, path) -> None:
        try:
            if self.local:
                path.unlink(missing_ok=True)
            elif path.exists():
                path.fs.rm(path.path)
        except FileNotFoundError:
            pass

    def write_jsonl(self, key: str, rows: Iterable[dict]) -> int:
        with self.writer(key) as out:
            for row in rows:
                out.write(row)
        return out.count

    def read_jsonl(self, key: str) -> Iterator[dict]:
        decode = msgspec.json.Decoder().decode
        for line in self.read_lines(key):
            yield decode(line)

    def read_lines(self, key: str) -> Iterator[bytes]:
        """The rows as their JSON lines, undecoded: a stage that reads a few fields of each row
        (``msgspec.json.Decoder(type=...)`` skips the others) and hands the row on as it came
        (:meth:`RowWriter.write_line`) never decodes or encodes the rest."""
        with self.path(key).open("rb") as raw, gzip_ng.open(raw, "rb") as lines:
            yield from lines

    def write_json(self, key: str, value) -> None:
        self.write_jsonl(key, [value])

    def read_json(self, key: str):
        return next(self.read_jsonl(key))

    def remove(self, prefix: str) -> None:
        target = self.path(prefix)
        if self.local:
            shutil.rmtree(target, ignore_errors=True)
            return
        try:
            target.fs.rm(target.path, recursive=True)
        except FileNotFoundError:
            pass

    # -- runs ------------------------------------------------------------------------------------

    def claim(self, prefix: str) -> None:
        """Mark a run directory as this process's (for :meth:`clean`); :class:`StagingError` where the staging
        area cannot be written (the run's first write: nothing has been done yet)."""
        owner = {"host": socket.gethostname(), "pid": os.getpid(), "process_start": process_start(os.getpid()),
                 "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        try:
            self.write_json(f"{prefix}/{OWNER_KEY}", owner)
        except OSError as exc:
            raise StagingError(f"cannot write the staging area {self.base} (WARC2CORPUS_STAGING): "
                               f"{exc.strerror or exc}") from exc

    def heartbeat(self, prefix: str) -> None:
        """Show that the run owning ``prefix`` is still at work (it may write nothing for a while)."""
        key = f"{prefix}/{OWNER_KEY}"
        if self.local:
            os.utime(self.path(key))
        else:  # an object's time is its last write
            self.write_json(key, self.read_json(key))

    def _run_sizes(self) -> dict[str, tuple[float, int]]:
        """Per run directory (``<crawl job>/<run id>``): the time of its newest write and its bytes."""
        found: dict[str, tuple[float, int]] = {}

        def add(parts: list[str], mtime: float, size: int) -> None:
            if len(parts) >= 2:
                run = "/".join(parts[:2])
                newest, total = found.get(run, (0.0, 0))
                found[run] = (max(newest, mtime), total + size)

        if self.local:
            for run in (p for p in self.base.glob("*/*") if p.is_dir() and not p.is_symlink()):
                for entry in [run, *run.rglob("*")]:
                    try:
                        status = entry.lstat()
                    except OSError:  # removed meanwhile
                        continue
                    add(entry.relative_to(self.base).parts, status.st_mtime, status.st_size if entry.is_file() else 0)
            return found
        root = self.base.path.rstrip("/")
        try:
            listing = self.base.fs.find(root, detail=True)
        except FileNotFoundError:
            return found
        for name, info in listing.items():
            parts = name[len(root):].strip("/").split("/")
            if len(parts) < 3:  # a run's files lie below <crawl job>/<run id>/
                continue
            modified = info.get("LastModified") or info.get("mtime") or info.get("created") or 0
            add(parts, modified.timestamp() if isinstance(modified, datetime) else float(modified),
                int(info.get("size") or 0))
        return found

    def runs(self) -> list[RunDirectory]:
        """Every run directory (``<crawl job>/<run id>``), with whether its run is over and why."""
        found, now, stale = [], time.time(), stale_after_seconds()
        host = socket.gethostname()
        for key, (newest, size) in sorted(self._run_sizes().items()):
            idle = now - newest
            owner = self._owner(key)
            dead = None
            if owner and owner.get("host") == host and not _alive(owner):
                dead = f"its process {owner.get('pid')} on this host has ended"
            elif idle > stale and not (owner and owner.get("host") == host):
                dead = f"nothing written for {idle / 3600:.1f} h (limit {stale / 3600:g} h)"
            found.append(RunDirectory(key, self.path(key), size, idle, dead))
        return found

    def _owner(self, run_key: str) -> dict | None:
        try:
            owner = self.read_json(f"{run_key}/{OWNER_KEY}")
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
                self.remove(run.key)
        return dead
