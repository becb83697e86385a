"""Packaging beyond what pyproject.toml can say: the scenarios ship inside the package.

The base scenario, its card file and the example scenarios have one copy, the checkout's
``scenarios/`` (the tests, the Makefile and the docs use it there). Here that folder is mapped
into the wheel as the package data ``simsym/data/``, which ``simsym.model.packaged`` reads through
importlib.resources (``extends: simsym:base``). The docs (``docs/*.md``, the rules text, the
example notebook) ship the same way as ``simsym.docs``, which ``simsym docs`` and ``simsym
options --rulings`` read. Every other setting is in pyproject.toml.
"""

from setuptools import find_namespace_packages, find_packages, setup

# scenarios/ and each of its sub-folders (cards/, strategies/, any added later), as packages
DATA = ["simsym.data", *(f"simsym.data.{p}" for p in find_namespace_packages(
    where="scenarios", exclude=["*__pycache__*"]))]

setup(
    packages=[*find_packages(include=["simsym", "simsym.*"]), *DATA, "simsym.docs"],
    package_dir={"simsym.data": "scenarios", "simsym.docs": "docs"},
    package_data={**{p: ["*.yaml", "*.py"] for p in DATA},
                  "simsym.docs": ["*.md", "*.txt", "*.ipynb"],
                  "simsym.serve": ["templates/*.html", "static/*"],
                  "simsym.learned": ["generations/*.json"]},
)
