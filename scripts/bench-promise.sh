#!/usr/bin/env bash
# What a promise costs over the verify command it runs (issue 39's speed goals), side by side in one run:
# `loopgate verify` (the room, the snapshot, the trace, the verdict) against the bare command, alternating, CPU
# as user + system time of the whole process tree (GNU time), the median of RUNS pairs. Two projects:
#
#   1. click 8.1.7 from PyPI (its sdist, 589 tests) in a venv inside the project, `pytest<8`;
#   2. a one-test pytest project.
#
#   BIN=target/debug/loopgate RUNS=7 scripts/bench-promise.sh
#
# Needs python3 with venv and pip (PyPI reachable), git, GNU time (/usr/bin/time), strace for the trace.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${BIN:-$repo/target/release/loopgate}")
runs=${RUNS:-7}
[ -x "$bin" ] || { echo "bench-promise: no loopgate at $bin (set BIN=…)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-promise: GNU time is needed (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-promise.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS

commit() { git -C "$1" init -q && git -C "$1" add -A && git -C "$1" -c user.name=b -c user.email=b@b commit -qm init; }

# CPU seconds (user + system) of one run of "$@", its output dropped.
cpu() { /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true; awk '{print $1 + $2}' "$work/time"; }

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# Side by side in `$1`: the bare command `$2` and `loopgate verify` of a loop sealing it, alternating.
compare() {
    local dir=$1 verify=$2 name=$3
    (cd "$dir" && "$bin" setup --session-id S --force --verify "$verify" bench >/dev/null 2>&1)
    : >"$work/bare" && : >"$work/promise"
    for _ in $(seq "$runs"); do
        (cd "$dir" && cpu sh -c "$verify") >>"$work/bare"
        (cd "$dir" && cpu "$bin" verify) >>"$work/promise"
    done
    local bare promise
    bare=$(median <"$work/bare") promise=$(median <"$work/promise")
    awk -v n="$name" -v b="$bare" -v p="$promise" \
        'BEGIN {printf "%-28s bare %.2f s   promise %.2f s   ratio %.2fx   over %+.2f s\n", n, b, p, p / b, p - b}'
    (cd "$dir" && "$bin" cancel >/dev/null 2>&1 || true)
}

echo "== click 8.1.7 (589 tests), CPU, median of $runs alternating runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
click="$work/click"
mkdir -p "$click" && (cd "$work" && pip download -q --no-deps --no-binary :all: click==8.1.7 -d dl)
tar xzf "$work/dl/click-8.1.7.tar.gz" -C "$work" --no-same-owner && mv "$work/click-8.1.7"/* "$click"/
printf '.venv/\n' >"$click/.gitignore"
python3 -m venv "$click/.venv" && "$click/.venv/bin/pip" install -q -e "$click" 'pytest<8'
commit "$click"
compare "$click" ".venv/bin/python -m pytest -q" "click 8.1.7"

echo "== one test"
one="$work/one"
mkdir -p "$one/tests"
printf 'def add(a, b):\n    return a + b\n' >"$one/calc.py"
printf 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n' >"$one/tests/test_calc.py"
commit "$one"
compare "$one" "python3 -m pytest -q" "one pytest test"
