"""Writing harvested captures as standard WARC files with warcio.

Each file starts with a ``warcinfo`` record naming the source (CDX server, replay, query); each capture
is a ``request`` and a ``response`` record (WARC-Target-URI the original URL, WARC-Date the capture
time, WARC-Source-URI the replay URL it was fetched from), or a ``revisit`` record
(identical-payload-digest, referring to the record that holds the payload). Files are written as
``NAME.open`` and renamed when closed, with IIPC names ``PREFIX-YYYYMMDDhhmmssSSS-NNNNN-host.warc.gz``
(the first capture's time), so discovery dates them and never takes one still being written. A file
holds the captures of one UTC day at most (a backfill day takes exactly its files).
"""

from __future__ import annotations

import io
import os
import socket
import uuid
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REVISIT_PROFILE = "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
MAX_FILE_BYTES = 1_000_000_000


def warc_date(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class WarcFile:
    """One WARC file being written (``path`` is its final name; it is ``path.open`` until closed)."""

    def __init__(self, path: Path, info: dict[str, str]):
        self.path = path
        self.open_path = path.with_name(path.name + ".open")
        self._file = open(self.open_path, "xb")
        self._writer = WARCWriter(self._file, gzip=True, warc_version="WARC/1.1")
        self._writer.write_record(self._writer.create_warcinfo_record(path.name, info))
        self._sync()

    def size(self) -> int:
        return self._file.tell()

    def _sync(self) -> int:
        self._file.flush()
        os.fsync(self._file.fileno())
        return self._file.tell()

    def write_capture(self, url: str, captured: datetime, status: int, reason: str,
                      headers: list[tuple[str, str]], body: bytes, source_uri: str,
                      extra: dict[str, str] | None = None) -> tuple[str, int]:
        """A request and a response record; returns the response's WARC-Record-ID and the file's end."""
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request = StatusAndHeaders(f"GET {target} HTTP/1.1", [("Host", parts.netloc)], is_http_request=True)
        response_id = f"<urn:uuid:{uuid.uuid4()}>"
        warc_headers = {"WARC-Date": warc_date(captured), "WARC-Record-ID": response_id,
                        "WARC-Source-URI": source_uri, **(extra or {})}
        response = self._writer.create_warc_record(
            url, "response", payload=io.BytesIO(body), length=len(body),
            http_headers=StatusAndHeaders(f"{status} {reason}".strip(), headers, protocol="HTTP/1.1"),
            warc_headers_dict=warc_headers)
        self._writer.write_record(response)
        self._writer.write_record(self._writer.create_warc_record(
            url, "request", payload=io.BytesIO(b""), length=0, http_headers=request,
            warc_headers_dict={"WARC-Date": warc_date(captured), "WARC-Concurrent-To": response_id}))
        return response_id, self._sync()

    def write_revisit(self, url: str, captured: datetime, digest: str, original: dict,
                      source_uri: str) -> tuple[str, int]:
        """A revisit record of ``original`` (the ledger entry of the record holding the payload)."""
        record_id = f"<urn:uuid:{uuid.uuid4()}>"
        record = self._writer.create_revisit_record(url, f"sha1:{digest}", original["url"], original["date"])
        record.rec_headers.replace_header("WARC-Date", warc_date(captured))
        record.rec_headers.replace_header("WARC-Record-ID", record_id)
        record.rec_headers.add_header("WARC-Refers-To", original["record_id"])
        record.rec_headers.add_header("WARC-Source-URI", source_uri)
        self._writer.write_record(record)
        return record_id, self._sync()

    def close(self) -> None:
        self._file.close()
        os.replace(self.open_path, self.path)


def recover(directory: Path, ends) -> list[str]:
    """Files a killed harvest left open in ``directory``: each is cut after the last record the ledger
    knows (``ends(name)``; the records written after it are fetched again) and closed, or removed when
    the ledger knows none of its records. Returns what was done, one line per file."""
    done = []
    for open_path in sorted(directory.glob("*.warc.gz.open")):
        name = open_path.name[: -len(".open")]
        end = ends(name)
        if end is None:
            open_path.unlink()
            done.append(f"{open_path.name}: removed (no capture of it is in the ledger)")
            continue
        with open(open_path, "r+b") as handle:
            handle.truncate(end)
        os.replace(open_path, directory / name)
        done.append(f"{name}: closed after the last capture the ledger holds ({end} bytes)")
    return done


class FileNamer:
    """IIPC file names: ``PREFIX-YYYYMMDDhhmmssSSS-NNNNN-host.warc.gz``, the serial going on from the
    files already in the folder."""

    def __init__(self, directory: Path, prefix: str):
        self.directory, self.prefix = directory, prefix
        self.host = socket.gethostname().split(".")[0] or "localhost"
        self.serial = len(list(directory.glob(f"{prefix}-*.warc.gz*")))

    def next(self, first_capture: datetime) -> Path:
        while True:
            name = f"{self.prefix}-{first_capture:%Y%m%d%H%M%S}000-{self.serial:05d}-{self.host}.warc.gz"
            self.serial += 1
            path = self.directory / name
            if not path.exists() and not path.with_name(name + ".open").exists():
                return path
