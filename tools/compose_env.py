#!/usr/bin/env python3
"""Write the .env that docker-compose.yaml needs, with fresh secrets.

    python3 tools/compose_env.py [PATH]      (`make compose-env`; PATH defaults to .env)

A missing file is created with mode 0600. An existing one keeps every value it has: only the
variables it lacks (or has empty) are filled in, and its mode is set to 0600. Prints the names it
wrote, never the values. Standard library only, so it runs before anything is installed.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import sys
import tempfile
from pathlib import Path

LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def fresh_values() -> dict[str, str]:
    """Every variable .env.example lists, with a new value. Passwords go into URLs: URL-safe only."""
    return {
        "AIRFLOW_UID": str(os.getuid()),
        "W2C_BIND": "127.0.0.1",
        "W2C_WARC_DIR": "./demo/warcs",
        "W2C_STAGING": "/opt/airflow/staging",
        "W2C_STAGING_CONN_ID": "",
        "_AIRFLOW_WWW_USER_PASSWORD": secrets.token_urlsafe(18),
        "AIRFLOW_DB_PASSWORD": secrets.token_urlsafe(24),
        "CORPUS_DB_PASSWORD": secrets.token_urlsafe(24),
        # A Fernet key is 32 random bytes, URL-safe base64 (what cryptography's Fernet.generate_key() returns).
        "AIRFLOW_FERNET_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        # The key that signs Airflow's tokens (HS512): 64 random bytes, RFC 7518's least for that hash.
        "AIRFLOW_JWT_SECRET": secrets.token_urlsafe(64),
    }


def write_env(path: Path) -> list[str]:
    """Create or complete the env file at path; return the names of the variables written."""
    values = fresh_values()
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    written = []
    for i, line in enumerate(lines):
        match = LINE.match(line)
        if match and match.group(1) in values:
            name = match.group(1)
            if match.group(2) in ("", '""', "''"):
                lines[i] = f"{name}={values[name]}"
                written.append(name)
            del values[name]
    for name, value in values.items():
        lines.append(f"{name}={value}")
        written.append(name)
    # Written beside the target and renamed over it: never a moment with the secrets readable by others.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write("\n".join(lines) + "\n")
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return written


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path = Path(argv[0] if argv else ".env")
    written = write_env(path)
    if written:
        print(f"{path}: wrote {', '.join(written)} (mode 0600)")
    else:
        print(f"{path}: complete, left as it was (mode 0600)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
