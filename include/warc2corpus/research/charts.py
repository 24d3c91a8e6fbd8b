"""Small SVG charts for the researcher page, drawn on the server: horizontal bars and lines over time.

Each chart is an ``<svg role="img">`` with a ``<title>`` and ``<desc>`` (the page puts the same data in a
table beside it). Colours keep 3:1 against white (WCAG 1.4.11) and lines differ by dash and marker too,
so no series is told apart by colour alone. No JavaScript, no fonts to load: text is the page's own.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

# Okabe-Ito-like hues, darkened where needed to reach 3:1 on white; dashes and markers tell series apart too.
COLOURS = ("#0b5fa5", "#b34700", "#00775c", "#a4317a", "#5b3c99", "#7a5c00", "#333333", "#b0002a")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
MARKERS = ("circle", "square", "diamond", "triangle")
BAR = "#0b5fa5"


def _fmt(value: float, comma: bool) -> str:
    """A number for a chart: thin spaces between thousands; a decimal comma when ``comma``."""
    if value == int(value) and abs(value) < 1e15:
        text = f"{int(value):,}"
    else:
        text = f"{value:,.1f}" if abs(value) >= 10 else f"{value:.2g}"
    text = text.replace(",", "\u202f")
    return text.replace(".", ",") if comma else text


def _short(label: str, width: int) -> str:
    return label if len(label) <= width else label[:width - 1] + "…"


def _frame(chart_id: str, width: int, height: int, title: str, desc: str, body: list[str]) -> Markup:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc">'
            f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
            f'<desc id="{escape(chart_id)}-desc">{escape(desc)}</desc>')
    return Markup(head + "".join(body) + "</svg>")


def bar_chart(chart_id: str, items: list[tuple[str, float]], *, title: str, desc: str,
              label_width: int = 26, decimal_comma: bool = False) -> Markup:
    """Horizontal bars, one per (label, value), in the order given; labels cut at label_width characters
    (the full label in each bar's tooltip)."""
    row, left, bar_area, top = 22, 8 + label_width * 7, 380, 6
    width = left + bar_area + 90
    height = top * 2 + row * max(len(items), 1)
    peak = max((v for _, v in items), default=0) or 1
    body = []
    for i, (label, value) in enumerate(items):
        y = top + i * row
        length = max(bar_area * value / peak, 1 if value else 0)
        body.append(f'<g><title>{escape(label)}: {_fmt(value, decimal_comma)}</title>'
                    f'<text x="{left - 6}" y="{y + 15}" text-anchor="end" class="label">'
                    f'{escape(_short(label, label_width))}</text>'
                    f'<rect x="{left}" y="{y + 3}" width="{length:.1f}" height="{row - 6}" fill="{BAR}"/>'
                    f'<text x="{left + length + 5:.1f}" y="{y + 15}" class="value">'
                    f'{_fmt(value, decimal_comma)}</text></g>')
    body.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - top}" stroke="#333"/>')
    return _frame(chart_id, width, height, title, desc, body)


def _ticks(peak: float, count: int = 5) -> list[float]:
    if peak <= 0:
        return [0.0, 1.0]
    raw = peak / count
    step = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * step:
            step *= factor
            break
    return [i * step for i in range(int(math.ceil(peak / step)) + 1)]


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'
    if shape == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    if shape == "diamond":
        return f'<path d="M{x:.1f} {y - 4.5:.1f}l4.5 4.5-4.5 4.5-4.5-4.5z" fill="{colour}"/>'
    return f'<path d="M{x:.1f} {y - 4.5:.1f}l4.5 8h-9z" fill="{colour}"/>'


def line_chart(chart_id: str, periods: list[str], series: list[tuple[str, list[float]]], *, title: str,
               desc: str, y_label: str, decimal_comma: bool = False) -> Markup:
    """Lines over the periods (x, in order), one per (name, values aligned with periods), with a legend."""
    left, right, top, bottom = 70, 20, 16, 56
    plot_w = max(480, min(900, 40 * len(periods)))
    plot_h = 240
    legend_rows = math.ceil(len(series) / 3)
    width, height = left + plot_w + right, top + plot_h + bottom + 20 * legend_rows
    peak = max((v for _, values in series for v in values if v is not None), default=0)
    ticks = _ticks(peak)
    top_value = ticks[-1] or 1

    def x(i: int) -> float:
        return left + (plot_w * (i + 0.5) / len(periods) if len(periods) else 0)

    def y(v: float) -> float:
        return top + plot_h - plot_h * v / top_value

    body = [f'<text x="14" y="{top + plot_h / 2:.0f}" transform="rotate(-90 14 {top + plot_h / 2:.0f})" '
            f'text-anchor="middle" class="label">{escape(y_label)}</text>']
    for t in ticks:
        body.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{left + plot_w}" y2="{y(t):.1f}" stroke="#ccc"/>'
                    f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" class="value">{_fmt(t, decimal_comma)}</text>')
    step = max(1, math.ceil(len(periods) / 12))
    for i, p in enumerate(periods):
        if i % step == 0:
            body.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle" class="value">'
                        f'{escape(p)}</text>')
    body.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#333"/>'
                f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>')
    for n, (name, values) in enumerate(series):
        colour, dash, shape = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)], MARKERS[n % len(MARKERS)]
        points = [(x(i), y(v)) for i, v in enumerate(values) if v is not None]
        group = [f'<g><title>{escape(name)}</title>']
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            group.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"'
                         + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        group += [_marker(shape, px, py, colour) for px, py in points]
        body.append("".join(group) + "</g>")
        lx, ly = left + (n % 3) * (plot_w / 3), top + plot_h + 40 + 20 * (n // 3)
        body.append(f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 28:.1f}" y2="{ly - 4}" stroke="{colour}" '
                    f'stroke-width="2"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
                    + _marker(shape, lx + 14, ly - 4, colour)
                    + f'<text x="{lx + 34:.1f}" y="{ly}" class="label">{escape(_short(name, 34))}</text>')
    return _frame(chart_id, width, height, title, desc, body)
