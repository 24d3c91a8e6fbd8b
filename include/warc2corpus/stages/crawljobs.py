"""Crawl jobs: named sets of WARC files (a directory and a glob), read from a YAML file.

    crawl_jobs:
      - name: demo
        directory: demo/warcs          # relative paths are relative to the config file's folder's parent
        glob: "*.warc.gz"
        description: Bundled demo news world
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
class CrawlJob:
    name: str
    directory: Path
    glob: str = "*.warc.gz"
    description: str = ""

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
            try:
                status = path.stat()
            except OSError as exc:
                log.warning("crawl job %s: skipped %s: %s", self.name, path, exc.strerror or exc)
                continue
            if stat.S_ISREG(status.st_mode):
                files.append(path)
            else:
                log.warning("crawl job %s: skipped %s: not a regular file", self.name, path)
        return files


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
        directory = Path(str(entry["directory"])).expanduser()
        jobs.append(
            CrawlJob(
                name=name,
                directory=directory if directory.is_absolute() else root / directory,
                glob=str(entry.get("glob") or "*.warc.gz"),
                description=str(entry.get("description") or ""),
            )
        )
    return jobs


def crawl_job(name: str, path: str | Path | None = None) -> CrawlJob:
    for job in load_crawl_jobs(path):
        if job.name == name:
            return job
    raise ConfigError(f"no crawl job named {name!r} in {path or settings.crawl_jobs_file()}")
