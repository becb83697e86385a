"""`simsym init DIR`: a starter workspace (simsym/model/workspace.py)."""

from __future__ import annotations

import click


@click.command("init")
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Overwrite the workspace files if they exist.")
def init(directory, force):
    """Write a starter workspace into DIR.

    A scenario extending the packaged base game (game.yaml), an editable copy of the card
    file it plays (cards/symposion.yaml), and a README on what to run next."""
    from simsym.model.workspace import SCENARIO, write_workspace

    for path in write_workspace(directory, force=force):
        click.echo(f"wrote {path}")
    click.echo(f"next: cd {directory} && simsym run {SCENARIO} --games 5000")
