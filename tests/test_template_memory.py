"""Memory does not grow with the file (issue 9): the peak RSS of extracting a WARC of 5,000 records
of unique text stays within 40 MB (and 15 %) of a 500-record WARC's. Each extraction runs in its own
process (``per_file.extract``, as a DAG task does), which reports its own peak RSS (``ru_maxrss``).

Measured with these WARCs (tests/synthetic_warcs.py): 361 and 362 MB; before the template state was
bounded, 371 and 474 MB (about 23 KB more per record)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from synthetic_warcs import write_warc

CHILD = """
import json, resource, sys
from pathlib import Path
from warc2corpus.stages import per_file
from warc2corpus.store import db, ledger
from warc2corpus.store.staging import Staging

warc = Path(sys.argv[1])
with db.connect() as conn:
    ledger.register(conn, "memory", warc)
    conn.commit()
manifest = per_file.extract(str(warc.resolve()), "memory", "memory-run", staging=Staging(sys.argv[2]))
print(json.dumps({"documents": manifest["counts"]["documents"],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def extraction_peak(warc, staging) -> dict:
    result = subprocess.run([sys.executable, "-c", CHILD, str(warc), str(staging)], capture_output=True, text=True,
                            timeout=3600, env=dict(os.environ))
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("small, large", [(500, 5000)])
def test_peak_memory_does_not_grow_with_the_file(corpus_db, tmp_path, small, large):
    peaks = {}
    for records in (small, large):
        warc = write_warc(tmp_path / f"SYNTHETIC-20240301000000-{records}.warc.gz", records)
        peaks[records] = extraction_peak(warc, tmp_path / f"staging-{records}")
        assert peaks[records]["documents"] == records  # every page extracted (unique text, not template)
    growth = peaks[large]["peak_mb"] - peaks[small]["peak_mb"]
    assert growth <= min(40, 0.15 * peaks[small]["peak_mb"]), peaks
