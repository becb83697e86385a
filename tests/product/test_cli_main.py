"""The `simsym` group: every command listed and reachable, each command's module imported only
when that command runs."""

import subprocess
import sys

from click.testing import CliRunner

from simsym.cli.main import COMMANDS, DESIGNER_HEADING, MAINTAINER_HEADING, main

# as `simsym --help` lists them: the designer's in the order of the work, then the maintainer's
DESIGNER = ["init", "validate", "run", "report", "compare", "serve", "sweep", "tune", "ablate",
            "ladder", "best", "log", "options", "docs"]
MAINTAINER = ["compare-tree", "bench", "train"]
NAMES = DESIGNER + MAINTAINER


def _sections(output: str) -> dict[str, list[str]]:
    """The command lines of `simsym --help` under each heading (a line ending in ':')."""
    sections, heading = {}, None
    for line in output.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            heading = line[:-1]
            sections[heading] = []
        elif heading and line.startswith("  "):
            sections[heading].append(line)
    return sections


def test_help_lists_every_command_and_each_resolves_to_itself():
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0, r.output
    sections = _sections(r.output)
    assert list(sections) == ["Options", DESIGNER_HEADING, MAINTAINER_HEADING]
    listed = {h: [line.split()[0] for line in lines if not line.startswith("   ")]
              for h, lines in sections.items()}
    assert listed[DESIGNER_HEADING] == DESIGNER
    assert listed[MAINTAINER_HEADING] == MAINTAINER
    assert list(COMMANDS) == NAMES
    for name in NAMES:
        assert main.get_command(None, name).name == name


def test_help_gives_each_command_its_whole_summary_on_one_line():
    """At 80 columns each command is one line, its summary whole (COMMANDS' sentence, never
    cut with "..."); on a narrow terminal the summaries wrap, still whole."""
    r = CliRunner().invoke(main, ["--help"], terminal_width=80)
    commands = [line for h, lines in _sections(r.output).items() if h != "Options"
                for line in lines]
    assert len(commands) == len(NAMES)
    for line, name in zip(commands, NAMES):
        assert line.split(None, 1) == [name, COMMANDS[name][2]], line
        assert len(line) <= 80
    narrow = CliRunner().invoke(main, ["--help"], terminal_width=50).output
    lines = [line for h, lines in _sections(narrow).items() if h != "Options"
             for line in lines]
    assert len(lines) > len(NAMES) and not any(line.endswith("...") for line in lines)
    text = " ".join(" ".join(lines).split())
    for name in NAMES:
        assert f"{name} {COMMANDS[name][2]}" in text, name


def test_run_help_names_the_files_a_run_writes():
    text = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    for name in ("summary.json", "cards.csv", "seats.csv", "run.json", "report.md",
                 "judges.json", "fast/"):
        assert name in text, name


def test_start_up_imports_no_command_module():
    code = ("import sys; import simsym.cli.main as m; "
            "print(sorted(x for x in sys.modules if x.startswith('simsym.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['simsym.cli.main']"


def test_an_unknown_command_is_bad_input():
    r = CliRunner().invoke(main, ["nope"])
    assert r.exit_code == 2 and "No such command 'nope'" in r.output
