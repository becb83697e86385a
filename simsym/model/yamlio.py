"""YAML loading that remembers the line of every key, so errors can say where they are."""

from __future__ import annotations

from pathlib import Path

import yaml

from simsym.errors import InputError, Problems, show
from simsym.model.yamlsyntax import explain


class LineDict(dict):
    """A dict from YAML that knows the 1-based line of itself and of each of its keys, and
    (``item_lines``) of each item of a value that is a list."""

    line: int = 0
    key_lines: dict
    item_lines: dict = {}


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    out.item_lines = {}
    problems = getattr(loader, "problems", None)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            hash(key)
        except TypeError:
            err = InputError("a key must be a plain value, not a list or mapping", line=line)
            if problems is None:
                raise err from None
            problems.add(err)
            continue
        if key in out:
            err = InputError(f"duplicate key {show(key)} (first on line {out.key_lines[key]}); "
                             "give each key once", line=line, key=str(key))
            if problems is None:
                raise err
            problems.add(err)
            continue
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
        if isinstance(value_node, yaml.SequenceNode):
            out.item_lines[key] = [n.start_mark.line + 1 for n in value_node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _relocate(e: InputError, file: str) -> InputError:
    return InputError(e.message, file=file, line=e.line, key=e.key)


def load_yaml_text(text: str, file: str):
    """Parse YAML text; every problem is an InputError naming ``file`` (and the line)."""
    loader = None
    try:
        loader = _Loader(text)  # checks the characters: may raise a ReaderError already
        loader.problems = Problems()
        data = loader.get_single_data()
    except InputError as e:
        raise _relocate(e, file) from None
    except yaml.MarkedYAMLError as e:  # PyYAML's own words stay in the chain, for --debug
        plain = explain(e, text)
        raise InputError(plain.message, file=file, line=plain.line) from e
    except yaml.reader.ReaderError as e:
        where = e.position if isinstance(e.position, int) else 0
        char = f"{e.character:#x}" if isinstance(e.character, int) else repr(e.character)
        raise InputError(f"YAML cannot read the character {char} ({e.reason}); allowed: "
                         "printable text", file=file, line=text.count("\n", 0, where) + 1) from None
    except yaml.YAMLError as e:
        raise InputError(f"YAML error: {e}", file=file) from None
    except ValueError as e:  # e.g. an integer with more digits than Python will convert
        mark = loader.get_mark() if loader is not None else None
        raise InputError(f"a value YAML cannot read: {e}", file=file,
                         line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise InputError("lists or mappings nested too deeply to read", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()
    _relocated(loader.problems, file).raise_if_any()
    return data


def _relocated(problems: Problems, file: str) -> Problems:
    out = Problems()
    for e in problems.items:
        out.add(_relocate(e, file))
    return out


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
    except ValueError as e:  # e.g. a path with a NUL character
        raise InputError(f"cannot read: {e}", file=str(path)) from None
    return load_yaml_text(text, str(path))


def line_of(mapping, key, default=None):
    """Line of ``key`` in ``mapping`` when it came from YAML, else ``default``."""
    lines = getattr(mapping, "key_lines", None)
    if lines:
        try:
            if key in lines:
                return lines[key]
        except TypeError:  # an unhashable key
            pass
    return getattr(mapping, "line", default) or default


def line_of_item(mapping, key, index: int, default=None):
    """Line of item ``index`` of the list ``mapping[key]`` when it came from YAML, else the
    line of ``key`` (or ``default``)."""
    lines = getattr(mapping, "item_lines", None) or {}
    try:
        items = lines.get(key)
    except TypeError:  # an unhashable key
        items = None
    if items and 0 <= index < len(items):
        return items[index]
    return line_of(mapping, key, default)
