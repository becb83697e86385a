"""The `simsym` command. Domain errors become one clear line and exit code 2 here, and only here.

Exit codes (docs/reliability.md): 0 done; 1 a bug in simsym; 2 bad input (or --out in use,
a worker killed); 3 a `--fail-on` threshold crossed; 4 the machine refused a write (full
disk, quota, permissions, read-only, open files); 128 + the signal when stopped by SIGINT
(130), SIGTERM (143) or SIGHUP (129).
"""

from __future__ import annotations

import importlib
import signal
import sys
import traceback

import click

from simsym.errors import Interrupted, OutputError, SimsymError, environment_error

ISSUES_URL = "the simsym issue tracker"
ENVIRONMENT_EXIT = 4  # the machine refused a write: neither a bug (1) nor bad input (2)


class SimsymGroup(click.Group):
    def list_commands(self, ctx):
        """COMMANDS in their order (the designer's, then the maintainer's), then any other."""
        return [*COMMANDS, *sorted(set(super().list_commands(ctx)) - set(COMMANDS))]

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module, attr, _ = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter):
        """The command list of `simsym --help`, from COMMANDS: no command module is imported
        to list them (each imports its own work: numba, pandas, ...). The designer's commands
        first, the maintainer's under a heading of their own; each summary whole (wrapped on
        a narrow terminal, never cut)."""
        names = self.list_commands(ctx)
        width = max(map(len, names))
        sections = {DESIGNER_HEADING: [], MAINTAINER_HEADING: []}
        for name in names:
            summary = (COMMANDS[name][2] if name in COMMANDS
                       else self.get_command(ctx, name).get_short_help_str(1000))
            heading = MAINTAINER_HEADING if name in MAINTAINER else DESIGNER_HEADING
            sections[heading].append((name.ljust(width), summary))  # one column for both
        for heading, rows in sections.items():
            with formatter.section(heading):
                formatter.write_dl(rows)

    def invoke(self, ctx):
        from simsym.run.lifeline import signals_stop_the_run, stop_received

        try:
            try:
                with signals_stop_the_run():
                    return super().invoke(ctx)
            except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException,
                    KeyboardInterrupt):
                raise
            except Exception as e:
                signum = stop_received()
                if signum is None:
                    raise
                if ctx.obj and ctx.obj.get("debug"):
                    traceback.print_exc()
                raise Interrupted(signum) from e  # what failed, failed because of the stop
        except OSError as e:
            env = environment_error(e)
            if env is None:
                self._internal_error(ctx, e)
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            click.echo(f"simsym: error: {env}", err=True)
            ctx.exit(ENVIRONMENT_EXIT)
        except SimsymError as e:
            if ctx.obj and ctx.obj.get("debug"):
                traceback.print_exc()
            errors = getattr(e, "errors", None) or [e]
            if len(errors) == 1:
                click.echo(f"simsym: error: {errors[0]}", err=True)
            else:
                click.echo(f"simsym: error: {len(errors)} problems:\n"
                           + "\n".join(str(x) for x in errors), err=True)
            ctx.exit(ENVIRONMENT_EXIT if isinstance(e, OutputError) else 2)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt as e:
            signum = getattr(e, "signum", signal.SIGINT)
            hint = getattr(e, "resume_hint", None)
            click.echo(f"simsym: interrupted by {signal.Signals(signum).name}"
                       + (f"; {hint}" if hint else ""), err=True)
            ctx.exit(128 + signum)
        except Exception as e:  # a bug: say so, and where to report it
            self._internal_error(ctx, e)

    @staticmethod
    def _internal_error(ctx, e):
        if ctx.obj and ctx.obj.get("debug"):
            traceback.print_exc()
        click.echo(f"simsym: internal error (a bug in simsym, not in your input): "
                   f"{type(e).__name__}: {e}\nPlease report it, with the command you ran, "
                   f"to {ISSUES_URL}; rerun with --debug for the traceback.", err=True)
        ctx.exit(1)


@click.group(cls=SimsymGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show Python tracebacks (for developers).")
@click.version_option(package_name="simsym")
@click.pass_context
def main(ctx, debug):
    """simsym: a game-balance toolkit for the card game Symposion."""
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


# Each command's module, imported only when that command runs (click's lazy group): `simsym
# validate` loads no pandas, scipy.stats, optuna or FastAPI, and `simsym --help` lists the
# commands from the summaries here (tests/product/test_docs.py keeps each the first sentence
# of the command's own help; tests/product/test_cli_main.py, one line of an 80-column terminal).
COMMANDS = {  # name: (module, attribute, the first sentence of its help), as --help lists them
    # the designer's, in the order of the work
    "init": ("simsym.cli.init", "init", "Write a starter workspace into DIR."),
    "validate": ("simsym.cli.validate", "validate",
                 "Check SCENARIO files, what they extend and their cards."),
    "run": ("simsym.cli.run", "run", "Play SCENARIO's games and write its report."),
    "report": ("simsym.cli.report", "report", "Rebuild a run's report.md and its figures."),
    "compare": ("simsym.cli.compare", "compare_cmd",
                "Compare scenario A with B on the same deals."),
    "serve": ("simsym.cli.serve", "serve",
              "Edit cards and rules in the browser and see the verdict."),
    "sweep": ("simsym.cli.sweep", "sweep",
              "Vary one card, rule or the players; plot the metrics."),
    "tune": ("simsym.cli.tune", "tune", "Search card values and rules for a balanced game."),
    "ablate": ("simsym.cli.ablate", "ablate",
               "Remove each card in turn and measure what changes."),
    "ladder": ("simsym.cli.ladder", "ladder",
               "Rate every strategy of SCENARIO against every other."),
    "best": ("simsym.cli.best", "best", "Find the best legal Symposion in a hand."),
    "log": ("simsym.cli.log", "log", "Print one game's log, move by move."),
    "options": ("simsym.cli.options", "options",
                "List the rule options a scenario's `rules:` may set."),
    "docs": ("simsym.cli.docs", "docs",
             "Show the guide, the card notation, the rulings and more."),
    # the maintainer's: CI, speed, the shipped learned player
    "compare-tree": ("simsym.cli.compare_tree", "compare_tree_cmd",
                     "Compare every scenario a change touched, on the same deals."),
    "bench": ("simsym.cli.bench", "bench",
              "Measure the speed of the search and the engines."),
    "train": ("simsym.cli.train", "train",
              "Train a `learned` player from the `lookahead` search."),
}
MAINTAINER = ("compare-tree", "bench", "train")  # listed apart, under MAINTAINER_HEADING
DESIGNER_HEADING = "Commands"
MAINTAINER_HEADING = "Commands for simsym's maintainers"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
