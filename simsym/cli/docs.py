"""`simsym docs [TOPIC]`: the documents that ship with simsym (simsym.model.packaged.DOCS)."""

from __future__ import annotations

import json
import sys

import click


@click.command("docs")
@click.argument("topic", required=False, metavar="[TOPIC]")
@click.option("--path", "as_path", is_flag=True,
              help="Print the installed file's path instead of its text (without TOPIC: the "
                   "folder of the docs).")
def docs(topic, as_path):
    """Show the guide, the card notation, the rulings and more.

    Without TOPIC, list the documents that ship with simsym, a topic a line; with TOPIC,
    print that document (Markdown as written, through a pager on a terminal; the notebook as
    its cells). An unknown TOPIC is an error that names the topics.

    \b
    simsym docs guide            # the designer's guide
    simsym docs --path notebook  # where the example notebook is installed
    """
    from simsym.model.packaged import DOCS, doc_file, doc_topic

    if topic is None:
        if as_path:
            click.echo(doc_file(DOCS["guide"].file).parent)
            return
        click.echo(topic_list(DOCS))
        return
    doc = doc_topic(topic)
    path = doc_file(doc.file)
    if as_path:
        click.echo(path)
        return
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        text = notebook_text(text, path)
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=not text.endswith("\n"))


def topic_list(docs: dict) -> str:
    """The topics, a line each: the designer's, then the maintainer's under their heading."""
    width = max(map(len, docs))
    lines = ["The documents that ship with simsym (`simsym docs TOPIC` prints one):", ""]
    for maintainer in (False, True):
        if maintainer:
            lines += ["", "For simsym's maintainers:", ""]
        lines += [f"  {name:<{width}}  {doc.about}" for name, doc in docs.items()
                  if doc.maintainer == maintainer]
    return "\n".join(lines)


def notebook_text(source: str, path) -> str:
    """A notebook as text: each Markdown cell as written, each code cell in a ```python
    fence, in the order Jupyter shows them; the file itself named first."""
    cells = json.loads(source)["cells"]
    parts = [f"The notebook {path}, cell by cell (open the file in Jupyter to run it):"]
    for cell in cells:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        parts.append(f"```python\n{text}\n```" if cell["cell_type"] == "code" else text)
    return "\n\n".join(parts) + "\n"
