"""The ``warc2corpus`` command (entry point: :func:`warc2corpus.cli.main.main`)."""
