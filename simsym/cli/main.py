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
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module, attr, _ = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter):
        """The command list of `simsym --help`, from COMMANDS: no command module is imported
        to list them (each imports its own work: numba, pandas, ...)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, (click.Command(name, help=COMMANDS[name][2]) if name in COMMANDS
                        else self.get_command(ctx, name)).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
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
# commands from the sentences here (tests/product/test_docs.py keeps each the command's own).
COMMANDS = {  # name: (module, attribute, the first sentence of its help)
    "ablate": ("simsym.cli.ablate", "ablate",
               "Replay the same seeds with each card removed; the change in mean score, length,"
               " seat gap and strategies' win shares, with paired intervals."),
    "bench": ("simsym.cli.bench", "bench",
              "Measure the search and the engines: numba vs reference, scaling, compile, "
              "memory."),
    "best": ("simsym.cli.best", "best",
             "Find the best legal Symposion in a hand."),
    "compare": ("simsym.cli.compare", "compare_cmd",
                "Run A and B (scenario files or run directories) on the same seeds and deals, "
                "and report per seat and per card A, B and the difference with a paired "
                "interval."),
    "compare-tree": ("simsym.cli.compare_tree", "compare_tree_cmd",
                     "Compare the scenarios of NEW whose games differ from OLD's (cards, rules,"
                     " table or strategies, with their card files and `extends`), each on the "
                     "same deals; write OUT/NAME/compare.md for each and the verdicts in "
                     "OUT/summary.md."),
    "docs": ("simsym.cli.docs", "docs",
             "Show the guide, the card notation, the rulings and more."),
    "init": ("simsym.cli.init", "init",
             "Write a starter workspace into DIR: a scenario extending the packaged base game, "
             "an editable copy of the card file it plays, and a README on what to run next."),
    "ladder": ("simsym.cli.ladder", "ladder",
               "Rate every strategy of SCENARIO against every other, on the same deals."),
    "log": ("simsym.cli.log", "log",
            "Print one game's full log: every draw, discard, trade, Symposion and score."),
    "options": ("simsym.cli.options", "options",
                "List the rule options a scenario's `rules:` may set."),
    "report": ("simsym.cli.report", "report",
               "Write RUN_DIR/report.md, cards_strength.csv and the figures, from a `simsym "
               "run`."),
    "run": ("simsym.cli.run", "run",
            "Simulate many seeded games of SCENARIO and write summary.json, cards.csv, "
            "run.json."),
    "serve": ("simsym.cli.serve", "serve",
              "Edit SCENARIO's cards and rules in the browser and see each variant against it."),
    "sweep": ("simsym.cli.sweep", "sweep",
              "Run the scenario once per value on the same seed and plot the metrics against "
              "it."),
    "train": ("simsym.cli.train", "train",
              "Train a `learned` player from the `lookahead` search, as SPEC's `train:` block "
              "says (rounds, games, tables, teacher, ridge, eval_games, seed): round after "
              "round the learner plays, the search labels the decisions it reaches, and the "
              "model is fitted again."),
    "tune": ("simsym.cli.tune", "tune",
             "Search the `tune:` block of SPEC (knobs, targets, budget: below) on the same "
             "deals for every candidate, re-measure the best on held-out deals, "
             "confirm the winner against the start on fresh ones, and write tuned.yaml, tune.md"
             " and trials.csv."),
    "validate": ("simsym.cli.validate", "validate",
                 "Check SCENARIO files (and the files they extend, and their card files)."),
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
