"""Text from a page, and its quality: extraction, templates, naturalness, page types, language, tokens, text identity. Pure: no database."""
