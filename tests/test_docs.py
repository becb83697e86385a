"""Documentation stays true: the rule-option table is generated, every option is in it."""

from click.testing import CliRunner

from simsym.cli.main import main
from simsym.rules import RuleOptions
from simsym.scenario import REPO_ROOT


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


def test_readme_leads_with_the_two_commands():
    readme = (REPO_ROOT / "README.md").read_text()
    first = readme[: readme.find("\n## ", readme.find("make test"))]
    assert "make run" in first and "make test" in first
