#!/usr/bin/env bash
# What checking a step's bytecode costs a promise (`room::pycache::compiled_from_sources`, `oracle::steps::Beside`):
# the check's own Python program, taken from the source, run as the judge runs it (isolated, reading no
# bytecode) on N standard-library modules compiled by `py_compile` — what a Python step before the tests
# writes — side by side with the same run on one module (the interpreter's start alone). The judge runs it once
# per interpreter, only at a promise where a step wrote bytecode the tests then read.
#
#   scripts/bench-bytecode-check.sh            # 20 modules
#   MODULES=40 scripts/bench-bytecode-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=${MODULES:-20}
command -v hyperfine >/dev/null || { echo "bench-bytecode-check: hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python=$(python3 -c 'import sys; print(sys.executable)')
python3 - "$work" src/ecosystem/python/pycache.rs <<'PY'
import os, py_compile, re, sys, sysconfig
work, source = sys.argv[1], sys.argv[2]
compare = re.search(r'const COMPARE: &str = r#"(.*?)"#;', open(source).read(), re.S).group(1)
open(os.path.join(work, "compare.py"), "w").write(compare)
std = sysconfig.get_paths()["stdlib"]
names = sorted(n for n in os.listdir(std) if n.endswith(".py"))[: int(os.environ.get("MODULES", "20"))]
words = []
for i, name in enumerate(names):
    pyc = os.path.join(work, f"{i}.pyc")
    py_compile.compile(os.path.join(std, name), cfile=pyc, doraise=True)
    words += [pyc, os.path.join(std, name), "0"]
open(os.path.join(work, "all"), "w").write(" ".join(words))
open(os.path.join(work, "one"), "w").write(" ".join(words[:3]))
PY
check="$python -I -S -B -X pycache_prefix=/proc/self/none $work/compare.py MARK"
# shellcheck disable=SC2086 # the command and its words, none with spaces
answers=$($check $(cat "$work/all") | awk '{ print $3 }' | sort | uniq -c | tr -s ' ')
echo "== $MODULES modules compared: $answers"
hyperfine -N --warmup 2 --runs 20 -n "one module" "$check $(cat "$work/one")" -n "$MODULES modules" "$check $(cat "$work/all")"
