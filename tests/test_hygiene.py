"""Rules of the test tree itself: test modules import shared helpers, never each other."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def test_no_test_module_imports_another_test_module():
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            offenders += [
                f"{path.relative_to(ROOT)} imports {name}"
                for name in names
                if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
            ]
    assert offenders == [], "move shared helpers to conftest.py or a helpers module:\n" + "\n".join(offenders)
