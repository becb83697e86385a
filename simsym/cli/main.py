"""The `simsym` command. Domain errors become one clear line and exit code 2 here, and only here.

Exit codes (docs/reliability.md): 0 done; 1 a bug in simsym; 2 bad input (or --out in use,
a worker killed); 3 a `--fail-on` threshold crossed; 4 the machine refused a write (full
disk, quota, permissions, read-only, open files); 128 + the signal when stopped by SIGINT
(130), SIGTERM (143) or SIGHUP (129).
"""

from __future__ import annotations

import signal
import sys
import traceback

import click

from simsym.errors import OutputError, SimsymError, environment_error

ISSUES_URL = "the simsym issue tracker"
ENVIRONMENT_EXIT = 4  # the machine refused a write: neither a bug (1) nor bad input (2)


class SimsymGroup(click.Group):
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


def _register():
    from simsym.cli import (ablate, bench, best, compare, compare_tree, init, ladder, log,
                            options, report, run, serve, sweep, tune, validate)

    main.add_command(best.best)
    main.add_command(run.run)
    main.add_command(log.log)
    main.add_command(report.report)
    main.add_command(compare.compare_cmd)
    main.add_command(compare_tree.compare_tree_cmd)
    main.add_command(sweep.sweep)
    main.add_command(tune.tune)
    main.add_command(ablate.ablate)
    main.add_command(ladder.ladder)
    main.add_command(validate.validate)
    main.add_command(serve.serve)
    main.add_command(bench.bench)
    main.add_command(options.options)
    main.add_command(init.init)


_register()

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
