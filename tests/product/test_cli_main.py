"""The `simsym` group: every command listed and reachable, each command's module imported only
when that command runs."""

import subprocess
import sys

from click.testing import CliRunner

from simsym.cli.main import COMMANDS, main

NAMES = ["ablate", "bench", "best", "compare", "compare-tree", "docs", "init", "ladder",
         "log", "options", "report", "run", "serve", "sweep", "train", "tune", "validate"]


def test_help_lists_every_command_and_each_resolves_to_itself():
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0, r.output
    listed = [line.split()[0] for line in r.output.split("Commands:")[1].splitlines()
              if line.startswith("  ") and not line.startswith("   ")]
    assert listed == NAMES
    assert sorted(COMMANDS) == NAMES
    for name in NAMES:
        assert main.get_command(None, name).name == name


def test_start_up_imports_no_command_module():
    code = ("import sys; import simsym.cli.main as m; "
            "print(sorted(x for x in sys.modules if x.startswith('simsym.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['simsym.cli.main']"


def test_an_unknown_command_is_bad_input():
    r = CliRunner().invoke(main, ["nope"])
    assert r.exit_code == 2 and "No such command 'nope'" in r.output
