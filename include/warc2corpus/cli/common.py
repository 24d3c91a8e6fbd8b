"""What the command's modules share: the exit codes, failing on bad input, who is at the keyboard."""

from __future__ import annotations

import sys

# Exit codes (the README's "Exit codes"): 0 done, 1 a check failed (eval, db status) or a bug.
EXIT_BAD_INPUT = 2       # bad arguments or config, the database unreachable or lost: nothing half-loaded
EXIT_NOT_ALL_TAKEN = 3   # run: the others loaded, but a path was skipped or a file waits for a retry


def fail(message: str) -> None:
    print(f"warc2corpus: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def duration(seconds: float) -> str:
    """A time left or taken, as a person reads it: 40 s, 12 min, 3.5 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def current_user() -> str:
    """The person a decision or a token is recorded as made by."""
    import getpass
    import os

    try:
        return os.environ.get("WARC2CORPUS_USER") or getpass.getuser()
    except Exception:  # no login name (containers)
        return "unknown"
