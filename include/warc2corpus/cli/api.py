"""The ``warc2corpus serve`` and ``warc2corpus tokens …`` commands: the researcher API standalone, and its
tokens (added to the parser by :func:`add_commands`)."""

from __future__ import annotations

import json


def cmd_serve(args) -> None:
    import uvicorn

    from warc2corpus.cli.common import fail
    from warc2corpus.research.api import PREFIX, Settings, standalone_app

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        fail(str(exc))
    print(f"warc2corpus research API on http://{args.host}:{args.port}{PREFIX}/ (docs: {PREFIX}/docs); "
          f"research endpoints {'need a token' if settings.require_token else 'open'}, changes need an admin token",
          flush=True)
    uvicorn.run(standalone_app(settings), host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=5)


def cmd_tokens(args) -> None:
    from warc2corpus.store import db
    from warc2corpus.cli.common import current_user, fail
    from warc2corpus.formatting import format_table
    from warc2corpus.research import auth

    with db.connect() as conn:
        if args.action == "create":
            try:
                created = auth.create_token(conn, args.name, scope=args.scope, by=current_user())
            except ValueError as exc:
                fail(str(exc))
            conn.commit()
            if args.json:
                print(json.dumps(created, indent=2))
            else:
                print(f"token {created['id']} for {created['name']} (scope {created['scope']}); it is shown "
                      f"only now:\n{created['token']}")
        elif args.action == "list":
            rows = auth.list_tokens(conn)
            if args.json:
                print(json.dumps(rows, indent=2))
                return
            print(format_table(("id", "name", "scope", "created by", "created", "revoked"),
                               [(r["id"], r["name"], r["scope"], r["created_by"], r["created_at"][:19],
                                 (r["revoked_at"] or "-")[:19]) for r in rows]))
        else:
            revoked = auth.revoke_token(conn, args.id)
            if revoked is None:
                fail(f"no token {args.id}")
            conn.commit()
            print(f"token {revoked['id']} ({revoked['name']}) revoked at {revoked['revoked_at']}")


def add_commands(commands) -> None:
    serve = commands.add_parser("serve", help="the research API standalone (uvicorn), at /corpus")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.set_defaults(handler=cmd_serve)

    tokens = commands.add_parser("tokens", help="API tokens of the research API (stored hashed)")
    actions = tokens.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="make a token and print it (the only time it is shown)")
    create.add_argument("name", help="whose token it is")
    create.add_argument("--scope", choices=("research", "admin"), default="research",
                        help="research: read (when tokens are required); admin: also decisions and tokens")
    create.add_argument("--json", action="store_true")
    listing = actions.add_parser("list", help="every token (never its value), revoked ones too")
    listing.add_argument("--json", action="store_true")
    revoke = actions.add_parser("revoke", help="revoke a token for good")
    revoke.add_argument("id", type=int)
    tokens.set_defaults(handler=cmd_tokens)
