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

from simsym.errors import OutputError, SimsymError, environment_error

ISSUES_URL = "the simsym issue tracker"
ENVIRONMENT_EXIT = 4  # the machine refused a write: neither a bug (1) nor bad input (2)


class SimsymGroup(click.Group):
    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        from simsym.run.lifeline import signals_stop_the_run

        try:
            with signals_stop_the_run():
                return super().invoke(ctx)
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


# Each command's module, imported only when that command runs (or `--help` lists them all):
# `simsym validate` no longer loads pandas, scipy.stats, optuna or FastAPI (click's lazy
# group; tests/test_cli_main.py).
COMMANDS = {
    "ablate": ("simsym.cli.ablate", "ablate"),
    "bench": ("simsym.cli.bench", "bench"),
    "best": ("simsym.cli.best", "best"),
    "compare": ("simsym.cli.compare", "compare_cmd"),
    "compare-tree": ("simsym.cli.compare_tree", "compare_tree_cmd"),
    "init": ("simsym.cli.init", "init"),
    "ladder": ("simsym.cli.ladder", "ladder"),
    "log": ("simsym.cli.log", "log"),
    "options": ("simsym.cli.options", "options"),
    "report": ("simsym.cli.report", "report"),
    "run": ("simsym.cli.run", "run"),
    "serve": ("simsym.cli.serve", "serve"),
    "sweep": ("simsym.cli.sweep", "sweep"),
    "train": ("simsym.cli.train", "train"),
    "tune": ("simsym.cli.tune", "tune"),
    "validate": ("simsym.cli.validate", "validate"),
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
