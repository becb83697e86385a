"""YAML loading that remembers the line of every key, so errors can say where they are."""

from __future__ import annotations

from pathlib import Path

import yaml

from simsym.errors import InputError


class LineDict(dict):
    """A dict from YAML that knows the 1-based line of itself and of each of its keys."""

    line: int = 0
    key_lines: dict


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise InputError("a key must be a plain value, not a list or mapping",
                             line=key_node.start_mark.line + 1) from None
        if key in out:
            raise InputError(f"duplicate key {key!r}", line=key_node.start_mark.line + 1)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml_text(text: str, file: str):
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    except InputError as e:
        e.file = file
        raise InputError(e.message, file=file, line=e.line, key=e.key) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        what = e.problem or str(e)
        raise InputError(f"YAML syntax error: {what}", file=file, line=line) from None
    except yaml.YAMLError as e:
        raise InputError(f"YAML error: {e}", file=file) from None


def load_yaml_file(path: str | Path):
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", file=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a YAML file", file=str(path)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason})", file=str(path)) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", file=str(path)) from None
    return load_yaml_text(text, str(path))


def line_of(mapping, key, default=None):
    """Line of ``key`` in ``mapping`` when it came from YAML, else ``default``."""
    lines = getattr(mapping, "key_lines", None)
    if lines and key in lines:
        return lines[key]
    return getattr(mapping, "line", default) or default
