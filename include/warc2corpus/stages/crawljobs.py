"""Crawl jobs: named sets of WARC files (a directory and a glob), read from a YAML file.

    crawl_jobs:
      - name: demo
        directory: demo/warcs          # relative paths are relative to the config file's folder's parent
        glob: "*.warc.gz"
        description: Bundled demo news world
      - name: nrk_wayback
        kind: wayback                  # harvest from a Wayback Machine into `directory` before discovering
        directory: var/harvest/nrk
        cdx: https://web.archive.org/cdx/search/cdx
        url: [nrk.no]                  # one or more URL patterns
        match: domain                  # exact (default), prefix, host, domain
        filter: [statuscode:200, mimetype:text/html]
        collapse: [digest]
        rate: 0.5                      # requests per second at most
        from: "2019"                   # optional: the captures a manual run (no data interval) harvests
        to: "2019"
"""

from __future__ import annotations

import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import yaml

from warc2corpus import settings

log = logging.getLogger(__name__)

_NAME = re.compile(r"[A-Za-z0-9_-]+")


class ConfigError(ValueError):
    """The crawl-job configuration is unusable; the message says where and why."""


@dataclass(frozen=True)
class WaybackSource:
    """Where a crawl job of kind ``wayback`` harvests from (see :mod:`warc2corpus.harvest`)."""

    cdx: str
    urls: tuple[str, ...]
    match: str = "exact"
    filters: tuple[str, ...] = ()
    collapse: tuple[str, ...] = ()
    rate: float | None = None          # None: the harvest's default
    replay: str | None = None
    from_: str | None = None           # what a run without a data interval harvests
    to: str | None = None


@dataclass(frozen=True)
class CrawlJob:
    name: str
    directory: Path
    glob: str = "*.warc.gz"
    description: str = ""
    wayback: WaybackSource | None = None  # kind wayback: harvested into ``directory`` before discovery

    def warc_files(self) -> list[Path]:
        """The job's WARC files, sorted; files still being written (``*.open``) are left out. An
        entry that cannot be looked at (a symlink loop, a dangling symlink, no permission) or is no
        regular file is logged and left out: one bad entry never stops discovery."""
        try:
            with os.scandir(self.directory):
                pass
        except OSError as exc:
            log.error("crawl job %s: cannot list %s: %s", self.name, self.directory, exc)
            return []
        files = []
        for path in sorted(self.directory.glob(self.glob)):
            if path.name.endswith(".open"):
                continue
            fault = unusable(path)
            if fault:
                log.warning("crawl job %s: skipped %s: %s", self.name, shown(path), fault)
            else:
                files.append(path)
        return files


def unusable(path: str | Path) -> str | None:
    """Why a WARC file cannot be taken by its path (a symlink loop, no such file, no permission, a path that
    is not UTF-8: :func:`path_fault`, not a regular file such as a directory or a FIFO, which would block
    the reading), or None. Discovery and ``warc2corpus run`` ask it of every path."""
    try:
        status = os.stat(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return path_fault(path) or (None if stat.S_ISREG(status.st_mode) else "not a regular file")


def path_fault(path: str | Path) -> str | None:
    """Why a file cannot be taken by its path, or None: the ledger keeps paths as PostgreSQL text, UTF-8,
    and a name written in another charset (ISO-8859-1's "ø" on a UTF-8 system) is bytes that Python can
    only carry as lone surrogates, which no text column takes (such a file failed its run's discovery, and
    so every file of the run, on every retry)."""
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        return "its path is not UTF-8: rename it to UTF-8 (convmv -f latin1 -t utf8 --notest FILE, say)"
    return None


def shown(path: str | Path) -> str:
    """A path as it can be logged and printed whatever its bytes: the bytes of a name that is not UTF-8
    as \\xNN (printing such a path was itself a UnicodeEncodeError)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def load_crawl_jobs(path: str | Path | None = None) -> list[CrawlJob]:
    path = Path(path) if path else settings.crawl_jobs_file()
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise ConfigError(f"cannot read crawl-job config {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"crawl-job config {path} is not valid YAML: {exc}") from exc
    entries = document.get("crawl_jobs") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}: expected a non-empty list under 'crawl_jobs'")
    root = path.resolve().parent.parent
    jobs, seen = [], set()
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: crawl job #{number} is not a mapping")
        name = str(entry.get("name") or "")
        if not _NAME.fullmatch(name):
            raise ConfigError(f"{path}: crawl job #{number} needs a name of letters, digits, '-' or '_'")
        if name in seen:
            raise ConfigError(f"{path}: crawl job name {name!r} is used twice")
        if not entry.get("directory"):
            raise ConfigError(f"{path}: crawl job {name!r} has no 'directory'")
        seen.add(name)
        kind = entry.get("kind", "warc")
        if kind not in ("warc", "wayback"):
            raise ConfigError(f"{path}: crawl job {name!r} has kind {kind!r}; known kinds: warc, wayback")
        directory = Path(str(entry["directory"])).expanduser()
        jobs.append(
            CrawlJob(
                name=name,
                directory=directory if directory.is_absolute() else root / directory,
                glob=str(entry.get("glob") or "*.warc.gz"),
                description=str(entry.get("description") or ""),
                wayback=_wayback(path, name, entry) if kind == "wayback" else None,
            )
        )
    return jobs


def _wayback(path: Path, name: str, entry: dict) -> WaybackSource:
    def strings(key: str) -> tuple[str, ...]:
        value = entry.get(key) or []
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
            raise ConfigError(f"{path}: crawl job {name!r}: '{key}' must be a string or a list of strings")
        return tuple(str(v) for v in value)

    if not entry.get("cdx") or not strings("url"):
        raise ConfigError(f"{path}: crawl job {name!r} of kind wayback needs 'cdx' (the CDX server's URL) "
                          "and 'url' (one or more URL patterns)")
    rate = entry.get("rate")
    if rate is not None and (not isinstance(rate, (int, float)) or rate <= 0):
        raise ConfigError(f"{path}: crawl job {name!r}: 'rate' must be a number of requests per second above 0")
    return WaybackSource(
        cdx=str(entry["cdx"]), urls=strings("url"), match=str(entry.get("match") or "exact"),
        filters=strings("filter"), collapse=strings("collapse"), rate=float(rate) if rate is not None else None,
        replay=str(entry["replay"]) if entry.get("replay") else None,
        from_=str(entry["from"]) if entry.get("from") is not None else None,
        to=str(entry["to"]) if entry.get("to") is not None else None)


def crawl_job(name: str, path: str | Path | None = None) -> CrawlJob:
    for job in load_crawl_jobs(path):
        if job.name == name:
            return job
    raise ConfigError(f"no crawl job named {name!r} in {path or settings.crawl_jobs_file()}")
