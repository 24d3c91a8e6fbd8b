"""Plain-text tables for the terminal (the command's summaries, the eval gate's report)."""

from __future__ import annotations


def format_table(header: tuple, rows: list[tuple]) -> str:
    cells = [tuple(str(c) for c in header)] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
             for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
