"""Precision and recall of near-duplicate detection on labelled pairs built from real pages.

    .venv/bin/python eval/near_duplicates.py [--samples DIR] [--json]

The pairs and how they are built: warc2corpus.quality.near_duplicates_eval. A pair counts as found exactly
as the pipeline stores it (a shared LSH band key and an estimated Jaccard similarity >= THRESHOLD).
"""

import argparse
import json
import os
from pathlib import Path

from warc2corpus.quality import near_duplicates_eval

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=Path,
                        default=Path(os.environ.get("WARC2CORPUS_SAMPLES", ROOT.parent / "shared" / "samples")))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not (args.samples / "news_fundus").is_dir():
        parser.error(f"no samples at {args.samples} (set --samples or WARC2CORPUS_SAMPLES)")
    result = near_duplicates_eval.evaluate(near_duplicates_eval.labelled_pairs(args.samples))
    if args.json:
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return
    print(f"threshold {result['threshold']}, {result['shingle_words']}-word shingles, "
          f"LSH {result['bands']} bands x {result['rows']} rows")
    print(f"{'kind':<26} {'label':<6} {'pairs':>6} {'found':>6}")
    for kind, row in sorted(result["kinds"].items(), key=lambda kv: (not kv[1]["label"], kv[0])):
        print(f"{kind:<26} {'same' if row['label'] else 'other':<6} {row['pairs']:>6} {row['found']:>6}")
    print(f"TP {result['tp']}  FP {result['fp']}  FN {result['fn']}  TN {result['tn']}")
    print(f"precision {result['precision']:.3f}  recall {result['recall']:.3f}")
    for kind, a, b, estimate in result["missed"]:
        print(f"  missed ({kind}, estimate {estimate}): {a} ~ {b}")
    for kind, a, b, estimate in result["false_positives"]:
        print(f"  false positive ({kind}, estimate {estimate}): {a} ~ {b}")


if __name__ == "__main__":
    main()
