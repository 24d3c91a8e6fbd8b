-- Tokens of the researcher API (`warc2corpus tokens create|list|revoke`, POST/GET/DELETE /corpus/tokens).
-- Only the sha256 of a token is kept: the token itself is shown once, when it is made. A revoked token
-- stays listed (who had it, until when) and never works again.
CREATE TABLE api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text NOT NULL,
    scope        text NOT NULL CHECK (scope IN ('research', 'admin')),
    token_sha256 bytea NOT NULL UNIQUE,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz
);
