"""A run directory's Markdown report as safe HTML for the workbench page.

markdown-it-py renders CommonMark plus tables with raw HTML switched off (a report's ``<``
is shown, never run) and its default link check (no ``javascript:`` links). Relative image
and link targets are pointed at ``/reports/file``, which serves only files inside the
reports folder.
"""

from __future__ import annotations

from urllib.parse import quote, urlparse


def render(text: str, run_dir: str) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for tok in tokens:
        for child in tok.children or ():
            attr = {"image": "src", "link_open": "href"}.get(child.type)
            if attr and _relative(child.attrGet(attr) or ""):
                child.attrSet(attr, f"/reports/file?dir={quote(run_dir)}&name="
                                    f"{quote(child.attrGet(attr))}")
    return md.renderer.render(tokens, md.options, {})


def _relative(target: str) -> bool:
    u = urlparse(target)
    return bool(target) and not u.scheme and not u.netloc and not target.startswith(("/", "#"))
