"""Who may use the researcher API: its tokens (stored hashed) and, inside Airflow, Airflow's own login.

Two kinds of access:

* **read** — the research endpoints. Open unless ``WARC2CORPUS_API_REQUIRE_TOKEN`` is set; then an
  API token of any scope (or, inside Airflow, an Airflow login) is needed.
* **change** — anything that changes state (a person's decision on a publication, tokens). Always
  authenticated: standalone by an API token of scope ``admin``; inside Airflow by Airflow's login
  (its JWT, as ``Authorization: Bearer`` or the UI's cookie, validated by Airflow's auth manager) of a
  user allowed to edit the ``warc2corpus`` DAG, since a decision changes what that DAG loads.

A plugin's FastAPI app is not behind Airflow's authentication by itself: these checks are what
protects it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import psycopg
from fastapi import HTTPException, Request, status

from warc2corpus.research import store

TOKEN_PREFIX = "w2c_"  # tells an API token from an Airflow JWT in the same Authorization header
SCOPES = ("research", "admin")
DAG_ID = "warc2corpus"  # Airflow users who may edit this DAG may change what it loads


@dataclass(frozen=True)
class Principal:
    """Who made a request: a token's or an Airflow user's name, and whether it may change state."""

    name: str
    may_change: bool


# ---------------------------------------------------------------------------------------------
# API tokens
# ---------------------------------------------------------------------------------------------

def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


def create_token(conn: psycopg.Connection, name: str, *, scope: str = "research", by: str) -> dict:
    """A new token; the returned dict carries it under "token" (the only time it is ever seen)."""
    if not name or not name.strip():
        raise ValueError("a token needs a name (whose it is)")
    if scope not in SCOPES:
        raise ValueError(f"a token's scope is one of {', '.join(SCOPES)}, not {scope!r}")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return {**store.insert_token(conn, name.strip(), scope, token_hash(token), by), "token": token}


def list_tokens(conn: psycopg.Connection) -> list[dict]:
    return store.tokens(conn)


def revoke_token(conn: psycopg.Connection, token_id: int) -> dict | None:
    """Revoke a token (once; revoking again keeps the first time). None when there is no such token."""
    return store.revoke_token(conn, token_id)


def find_token(conn: psycopg.Connection, token: str) -> dict | None:
    """The active (not revoked) token with this value, else None."""
    return store.active_token(conn, token_hash(token))


# ---------------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------------

def bearer(request: Request) -> str | None:
    """The credential of an ``Authorization: Bearer`` header, if any."""
    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    return credential.strip() or None if scheme.lower() == "bearer" else None


def unauthenticated(message: str) -> HTTPException:
    return HTTPException(status.HTTP_401_UNAUTHORIZED, message, headers={"WWW-Authenticate": "Bearer"})


def token_principal(token_row: dict | None, *, change: bool) -> Principal:
    """The principal of a looked-up API token, or the refusal (401 unknown/revoked, 403 scope)."""
    if token_row is None:
        raise unauthenticated("unknown or revoked API token")
    if change and token_row["scope"] != "admin":
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"token {token_row['id']} ({token_row['name']}) has scope '{token_row['scope']}': "
                            "it may read, not change anything (that needs a token of scope 'admin')")
    return Principal(name=token_row["name"], may_change=token_row["scope"] == "admin")


async def airflow_principal(request: Request, *, change: bool) -> Principal:
    """The Airflow user of the request, validated by Airflow's own auth manager (Bearer JWT, else the
    UI's cookie); for a change, the user must be allowed to edit the warc2corpus DAG.

    Raises 401 without credentials, 401/403 for an expired or forged JWT (Airflow's own answers), 403
    for a user without that permission.
    """
    from fastapi.security import HTTPAuthorizationCredentials

    from airflow.api_fastapi.app import get_auth_manager
    from airflow.api_fastapi.auth.managers.models.resource_details import DagDetails
    from airflow.api_fastapi.core_api.security import get_user

    header = request.headers.get("authorization", "")
    scheme, _, credential = header.partition(" ")
    credentials = HTTPAuthorizationCredentials(scheme=scheme, credentials=credential.strip()) if credential else None
    user = await get_user(request, None, credentials)
    if change and not get_auth_manager().is_authorized_dag(method="PUT", details=DagDetails(id=DAG_ID), user=user):
        raise HTTPException(status.HTTP_403_FORBIDDEN,
                            f"Airflow user {user.get_name()!r} may not edit the {DAG_ID} DAG, so may not change "
                            "what it loads")
    return Principal(name=user.get_name(), may_change=change)
