"""`simsym init DIR`: a starter workspace (simsym/model/workspace.py)."""

from __future__ import annotations

import click


@click.command("init")
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Overwrite the workspace files if they exist.")
@click.option("--notebook", is_flag=True,
              help="Also write notebook.ipynb, the notebook API's worked example (`simsym docs "
                   "notebook`), which runs from the workspace.")
def init(directory, force, notebook):
    """Write a starter workspace into DIR.

    A scenario extending the packaged base game (game.yaml), an editable copy of the card
    file it plays (cards/symposion.yaml), and a README on what to run next; with
    --notebook, the example notebook too (notebook.ipynb, `simsym docs notebook`)."""
    from simsym.model.workspace import SCENARIO, write_workspace

    for path in write_workspace(directory, force=force, notebook=notebook):
        click.echo(f"wrote {path}")
    click.echo(f"next: cd {directory} && simsym run {SCENARIO} --games 5000")
