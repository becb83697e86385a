"""Documentation stays true: the rule-option table is generated, every option is in it."""

from click.testing import CliRunner

from simsym.cli.main import main
from simsym.model.rules import RuleOptions
from simsym.model.scenario import REPO_ROOT


def test_rule_options_doc_is_current():
    r = CliRunner().invoke(main, ["options", "--markdown"])
    assert r.exit_code == 0
    doc = (REPO_ROOT / "docs" / "rule-options.md").read_text()
    assert doc == r.output, "docs/rule-options.md is stale: run `make docs`"


def test_every_option_is_documented_with_a_ruling_and_meaning():
    doc = (REPO_ROOT / "docs" / "rule-options.md").read_text()
    for name in RuleOptions.names():
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{name}` |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row


def test_the_rulings_and_the_rules_text_ship_and_every_cited_ruling_is_in_them():
    """`simsym options --rulings` prints docs/rulings.md, which names the rules text shipped
    beside it; every ruling number the option table cites is a numbered ruling there."""
    import re

    r = CliRunner().invoke(main, ["options", "--rulings"])
    assert r.exit_code == 0
    rulings = (REPO_ROOT / "docs" / "rulings.md").read_text()
    assert r.output == rulings
    assert "(symposion-rules.txt)" in rulings
    rules_text = (REPO_ROOT / "docs" / "symposion-rules.txt").read_text()
    assert "Symposion" in rules_text and len(rules_text) > 2000
    numbered = {int(m.group(1)) for m in re.finditer(r"^(\d+)\. ", rulings, re.M)}
    cited = set()
    for line in (REPO_ROOT / "docs" / "rule-options.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            cited |= {int(n) for n in re.findall(r"\d+", cells[2])}
    assert cited and cited <= numbered, sorted(cited - numbered)


def test_readme_leads_with_the_two_commands():
    readme = (REPO_ROOT / "README.md").read_text()
    first = readme[: readme.find("\n## ", readme.find("make test"))]
    assert "make run" in first and "make test" in first


def test_simsym_help_lists_every_command_with_its_own_help_without_importing_it():
    """`simsym --help` lists the commands from simsym.cli.main.COMMANDS, so that listing them
    imports none (numba, pandas ...): each entry's sentence is the command's own first
    sentence, and a fresh process asked for --help loads no command module."""
    import importlib
    import subprocess
    import sys

    from simsym.cli.main import COMMANDS

    for name, (module, attr, sentence) in COMMANDS.items():
        cmd = getattr(importlib.import_module(module), attr)
        assert cmd.get_short_help_str(1000) == sentence, name
    code = ("import sys; from simsym.cli.main import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('simsym.cli.', 'numba', "
            "'pandas'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "Commands:" in out and "compare-tree" in out
    assert out.strip().splitlines()[-1] == "['simsym.cli.main']"


def test_readme_and_guide_say_the_docs_ship_with_the_package():
    """The quick start, the command list and the guide name `simsym docs`."""
    readme = (REPO_ROOT / "README.md").read_text()
    quick = readme[readme.index("## Quick start"):readme.index("## Install, and a workspace")]
    line = "The guide, the card notation, the rulings ship with the package: `simsym docs`."
    assert line in quick
    commands = readme[readme.index("## What a designer does"):]
    commands = commands[:commands.index("```\n", commands.index("```sh") + 5)]
    assert "\nsimsym docs " in commands
    guide = (REPO_ROOT / "docs" / "designer-guide.md").read_text()
    intro = guide[:guide.index("## 1.")]
    assert "the rulings ship with the package: `simsym docs` lists them" in intro
