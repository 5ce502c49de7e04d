#!/usr/bin/env bash
# What a promise costs over the verify command it runs (issue 39's speed goals), side by side in one run:
# `loopgate verify` (the room, the snapshot, the trace, the verdict) against the bare command, alternating, CPU
# of the whole process tree (perf's task clock, or GNU time where perf cannot count; see `cpu`), the median of RUNS pairs. Two projects:
#
#   1. click 8.1.7 from PyPI (its sdist, 589 tests) in a venv inside the project, `pytest<8`;
#   2. a one-test pytest project;
#   3. a one-test Jest project and a one-test Vitest project (no configuration file, as most start), then each
#      again with a `jest.config.js` / `vitest.config.js`: the runners' configuration is resolved by running the
#      runner before each promise (`closure::js_config`), which is what these rows show.
#
#   BIN=target/debug/loopgate RUNS=7 scripts/bench-promise.sh          # every project
#   BIN=target/debug/loopgate KIND=js scripts/bench-promise.sh         # only python (1–2) or js (3)
#   BIN=new/loopgate BASE=old/loopgate scripts/bench-promise.sh         # a before/after column, same alternation
#   BIN=… KIND=one scripts/bench-promise.sh    # the one-test pytest, Jest and Go projects only (no PyPI, no config)
#
#   4. a one-test Go project (`go test ./...`, the go stand-in and its `-exec` hook): KIND=go, all or one.
#
# Needs python3 with venv and pip (PyPI reachable), git, GNU time (/usr/bin/time), strace for the trace; for the
# JavaScript rows node and npm (the npm registry reachable: jest and vitest are installed once into JS_CACHE,
# default the work directory, pinned as the gaming suite pins them).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${BIN:-$repo/target/release/loopgate}")
runs=${RUNS:-7}
base=${BASE:+$(realpath "$BASE")}
kind=${KIND:-all}
[ -x "$bin" ] || { echo "bench-promise: no loopgate at $bin (set BIN=…)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-promise: GNU time is needed (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-promise.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS

commit() { git -C "$1" init -q && git -C "$1" add -A && git -C "$1" -c user.name=b -c user.email=b@b commit -qm init; }

# CPU seconds of one run of "$@", its output dropped: `perf stat`'s task clock where perf can count (every
# process the run forked, the tracer too: a promise's strace runs detached, `-D`, and is no child that GNU time's
# rusage would count), else user + system time from GNU time.
if perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1; then
    cpu() {
        perf stat -x, -e task-clock -o "$work/time" "$@" >/dev/null 2>&1 || true
        awk -F, '/task-clock/ {print $1 / 1000}' "$work/time"
    }
    echo "(CPU: perf stat's task clock, every forked process)"
else
    cpu() { /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true; awk '{print $1 + $2}' "$work/time"; }
    echo "(CPU: GNU time's user + system; a detached tracer is not counted)"
fi

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# Side by side in `$1`: the bare command `$2` and `loopgate verify` of a loop sealing it, alternating; with BASE
# set, also that binary's `loopgate verify` in a copy of the project (its own store), in the same alternation.
compare() {
    local dir=$1 verify=$2 name=$3
    [ -z "$base" ] || { rm -rf "$dir.base" && cp -a "$dir" "$dir.base"; }
    (cd "$dir" && "$bin" setup --session-id S --force --verify "$verify" bench >/dev/null 2>&1)
    [ -z "$base" ] || (cd "$dir.base" && LOOPGATE_HOME="$work/home-base" \
        "$base" setup --session-id S --force --verify "$verify" bench >/dev/null 2>&1)
    : >"$work/bare" && : >"$work/promise" && : >"$work/base"
    for _ in $(seq "$runs"); do
        (cd "$dir" && cpu sh -c "$verify") >>"$work/bare"
        (cd "$dir" && cpu "$bin" verify) >>"$work/promise"
        [ -z "$base" ] || (cd "$dir.base" && LOOPGATE_HOME="$work/home-base" cpu "$base" verify) >>"$work/base"
    done
    local bare promise
    bare=$(median <"$work/bare") promise=$(median <"$work/promise")
    awk -v n="$name" -v b="$bare" -v p="$promise" \
        'BEGIN {printf "%-28s bare %.2f s   promise %.2f s   ratio %.2fx   over %+.2f s", n, b, p, p / b, p - b}'
    if [ -n "$base" ]; then
        awk -v b="$bare" -v p="$(median <"$work/base")" 'BEGIN {printf "   | BASE %.2f s, over %+.2f s", p, p - b}'
        (cd "$dir.base" && LOOPGATE_HOME="$work/home-base" "$base" cancel >/dev/null 2>&1 || true)
    fi
    echo
    (cd "$dir" && "$bin" cancel >/dev/null 2>&1 || true)
}

if [ "$kind" = all ] || [ "$kind" = python ] || [ "$kind" = one ]; then
if [ "$kind" != one ]; then
echo "== click 8.1.7 (589 tests), CPU, median of $runs alternating runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
click="$work/click"
mkdir -p "$click" && (cd "$work" && pip download -q --no-deps --no-binary :all: click==8.1.7 -d dl)
tar xzf "$work/dl/click-8.1.7.tar.gz" -C "$work" --no-same-owner && mv "$work/click-8.1.7"/* "$click"/
printf '.venv/\n' >"$click/.gitignore"
python3 -m venv "$click/.venv" && "$click/.venv/bin/pip" install -q -e "$click" 'pytest<8'
commit "$click"
compare "$click" ".venv/bin/python -m pytest -q" "click 8.1.7"
fi

echo "== one test"
one="$work/one"
mkdir -p "$one/tests"
printf 'def add(a, b):\n    return a + b\n' >"$one/calc.py"
printf 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n' >"$one/tests/test_calc.py"
commit "$one"
compare "$one" "python3 -m pytest -q" "one pytest test"
# Where `python3` is a launcher script (pyenv's shim: a dozen bash processes before Python starts), the same
# project with the interpreter it resolves to: the promise's trace stops at every process the launcher runs.
python=$(python3 -c 'import sys; print(sys.executable)')
if [ "$(command -v python3)" != "$python" ] && [ "$(head -c 2 "$(command -v python3)")" = '#!' ]; then
    compare "$one" "$python -m pytest -q" "one pytest test, no launcher"
fi
fi

if [ "$kind" = all ] || [ "$kind" = go ] || [ "$kind" = one ]; then
echo "== one Go test, CPU, median of $runs alternating runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
gone="$work/go"
mkdir -p "$gone"
printf 'module calc\n\ngo 1.19\n' >"$gone/go.mod"
printf 'package calc\n\nfunc Add(a, b int) int { return a + b }\n' >"$gone/calc.go"
printf 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("Add")\n\t}\n}\n' >"$gone/calc_test.go"
commit "$gone"
GOFLAGS=-count=1 compare "$gone" "go test ./..." "one go test"
fi

[ "$kind" = all ] || [ "$kind" = js ] || [ "$kind" = one ] || exit 0
echo "== one JavaScript test, CPU, median of $runs alternating runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# jest and vitest as tests/gaming/fixtures.rs pins them, installed once and linked into each project.
js=${JS_CACHE:-$work/js}
if [ ! -x "$js/node_modules/.bin/jest" ] || [ ! -x "$js/node_modules/.bin/vitest" ]; then
    mkdir -p "$js"
    printf '{"private": true, "devDependencies": {"jest": "30.5.2", "vitest": "4.1.12"}}\n' >"$js/package.json"
    (cd "$js" && npm install --no-audit --no-fund --no-package-lock --loglevel=error >/dev/null)
fi
# A one-test project of runner `$1` in `$2`, its test importing with `$3`; `$4` a configuration file to add.
js_project() {
    local runner=$1 dir=$2 import=$3 config=${4:-}
    mkdir -p "$dir/test" "$dir/node_modules"
    ln -s "$js/node_modules/"* "$js/node_modules/.bin" "$dir/node_modules/"
    printf 'node_modules/\n' >"$dir/.gitignore"
    printf '%s\ntest("adds", () => { expect(add(1, 2)).toBe(3); });\n' "$import" >"$dir/test/calc.test.js"
    [ -z "$config" ] || printf '%s\n' "$config" >"$dir/$runner.config.js"
}
js_project jest "$work/jest" "const add = (a, b) => a + b;"
printf '{"name": "one"}\n' >"$work/jest/package.json"
commit "$work/jest"
compare "$work/jest" "node_modules/.bin/jest --ci" "one jest test"
[ "$kind" != one ] || exit 0
js_project jest "$work/jest-config" "const add = (a, b) => a + b;" "module.exports = { testTimeout: 10000 };"
printf '{"name": "one"}\n' >"$work/jest-config/package.json"
commit "$work/jest-config"
compare "$work/jest-config" "node_modules/.bin/jest --ci" "one jest test, config file"
vitest_import="import { expect, test } from 'vitest';
const add = (a, b) => a + b;"
js_project vitest "$work/vitest" "$vitest_import"
printf '{"type": "module"}\n' >"$work/vitest/package.json"
commit "$work/vitest"
compare "$work/vitest" "node_modules/.bin/vitest run" "one vitest test"
js_project vitest "$work/vitest-config" "$vitest_import" "export default { test: { testTimeout: 10000 } };"
printf '{"type": "module"}\n' >"$work/vitest-config/package.json"
commit "$work/vitest-config"
compare "$work/vitest-config" "node_modules/.bin/vitest run" "one vitest test, config file"
