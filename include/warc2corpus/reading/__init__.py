"""Reading real-world WARC records: the reader, charsets, size and time limits, libraries' notices, Wayback captures."""
