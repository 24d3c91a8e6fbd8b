"""The peer side of ``bench/bench_peer.py``: DataTrove's WarcReader -> Trafilatura -> JsonlWriter on one WARC.

This is the pipeline people pick today to turn WARCs into text, written as its documentation shows it
and run as a user runs it: one task, one worker (the executor then runs in-process; DataTrove's
Trafilatura step still extracts in a forked sandbox process of its own, with its default 1 s timeout).
It runs in the separate venv ``bench_peer.py`` builds from ``bench/peer-requirements.txt``, never in
the project's own.

Run: ``var/bench-peer-venv/bin/python bench/peer_datatrove.py WARC OUTPUT_DIR``; prints one JSON line
with the number of documents written and of pages the extractor gave up on, by reason.
"""

import argparse
import gzip
import json
from pathlib import Path

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("warc", type=Path)
    parser.add_argument("output", type=Path, help="folder for the JSONL output and DataTrove's logs")
    args = parser.parse_args()
    warc = args.warc.resolve()
    if not warc.is_file():
        parser.error(f"no such file: {warc}")

    documents = args.output / "documents"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warc.parent), glob_pattern=warc.name, recursive=False),
            Trafilatura(favour_precision=True),
            JsonlWriter(str(documents)),
        ],
        tasks=1,
        workers=1,
        logging_dir=str(args.output / "logs"),
        skip_completed=False,
    ).run()

    written = 0
    for path in sorted(documents.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            written += sum(1 for _ in lines)
    # What the extractor gave up on (its 1 s timeout, a dead sandbox, an error) is skipped, not extracted.
    steps = json.loads((args.output / "logs" / "stats.json").read_text(encoding="utf-8"))
    extractor = next((step["stats"] for step in steps if "EXTRAC" in step["name"]), {})
    print(json.dumps({"documents": written,
                      **{key: extractor.get(key, 0) for key in ("timeout", "broken_process", "clean_error")}}))


if __name__ == "__main__":
    main()
