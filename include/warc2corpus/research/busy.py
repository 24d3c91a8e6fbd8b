"""When the research API and its page are too busy to answer: what they raise and how long they ask a
client to wait (both the JSON API and the web page answer 503 with Retry-After)."""

RETRY_AFTER_SECONDS = 2


class Overloaded(RuntimeError):
    """No database connection became free in time."""
