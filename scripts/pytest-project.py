#!/usr/bin/env python3
"""Writes the benchmarks' pytest project: 1,000 test modules of 5 tests each, in 20 packages, and the code they
test (`python3 scripts/pytest-project.py DIR`). Shared by scripts/bench-oracle.sh and scripts/bench-trace.sh."""
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
(root / "app").mkdir(parents=True)
(root / "app" / "__init__.py").write_text("")
(root / "app" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
for i in range(1000):
    d = root / "tests" / f"pkg_{i % 20}"
    d.mkdir(parents=True, exist_ok=True)
    body = "from app import calc\n"
    for t in range(5):
        body += f"\n\ndef test_case_{t}():\n    assert calc.add({t}, 1) == {t} + 1\n"
    (d / f"test_mod_{i}.py").write_text(body)
