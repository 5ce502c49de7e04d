#!/usr/bin/env bash
# What one gaming case costs, stage by stage: `loopgate setup` (the baseline run under
# strace, the snapshot, the room) two promises (`loopgate hook stop`) and the verify command run bare, on a one-test project of the kind the
# adversarial suite (tests/gaming.rs) starts from, in the environment its harness gives the runners.
#
#   scripts/bench-case-stages.sh [pytest|npm|go|cargo]...      # default: all four
#   BIN=path/to/loopgate RUNS=3 PYTHONDONTWRITEBYTECODE=1 scripts/bench-case-stages.sh pytest
#
# CPU is `perf stat`'s task-clock (user + system of every process the stage started, detached ones included:
# GNU time's rusage misses the tracer, which runs as a detached grandchild); with `PERF_RECORD=1` each stage is
# also sampled and its CPU split by process name. Needs perf, strace and the runners; figures in BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/target/debug/loopgate}
RUNS=${RUNS:-1}
[ -x "$BIN" ] || { echo "bench-case-stages: no loopgate at \`$BIN\` (cargo build, or set BIN)" >&2; exit 2; }
command -v perf >/dev/null || { echo "bench-case-stages: perf is needed (apt-get install linux-perf)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# KIND DIR: the fixture's files (as tests/gaming/fixtures.rs writes them, one failing test) and its verify command.
fixture() {
    local dir=$2
    mkdir -p "$dir"
    case $1 in
    pytest)
        printf '[project]\nname = "calc"\nversion = "0.1.0"\n' >"$dir/pyproject.toml"
        printf 'def add(a, b):\n    return a - b\n' >"$dir/calc.py"
        mkdir "$dir/tests"
        printf 'import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n' >"$dir/tests/test_calc.py"
        verify="python3 -m pytest -q -p no:cacheprovider" ;;
    npm)
        printf '{"name": "calc", "version": "1.0.0", "scripts": {"test": "node --test"}}\n' >"$dir/package.json"
        mkdir "$dir/src" "$dir/test"
        printf 'exports.add = (a, b) => a - b;\n' >"$dir/src/calc.js"
        printf "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/calc.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n" >"$dir/test/calc.test.js"
        verify="npm test --silent" ;;
    go)
        printf 'module calc\n\ngo 1.19\n' >"$dir/go.mod"
        printf 'package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n' >"$dir/calc.go"
        printf 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("Add(1, 2)")\n\t}\n}\n' >"$dir/calc_test.go"
        verify="go test -v ./..." ;;
    cargo)
        printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' >"$dir/Cargo.toml"
        mkdir "$dir/src"
        printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n' >"$dir/src/lib.rs"
        verify="cargo test -q" ;;
    *) echo "bench-case-stages: unknown kind \`$1\` (pytest, npm, go, cargo)" >&2; exit 2 ;;
    esac
}

# STAGE COMMAND...: runs it once and prints its CPU; with PERF_RECORD=1 sampled instead (a sample per millisecond of
# task-clock), its CPU split by process name.
stage() {
    local name=$1
    shift
    if [ "${PERF_RECORD:-0}" = 1 ]; then
        perf record -q -e task-clock -c 1000000 -o "$work/perf.data" -- "$@" >"$work/out.$name" 2>&1 || true
        perf script -i "$work/perf.data" -F comm 2>/dev/null | sort | uniq -c | sort -rn >"$work/comms"
        awk -v n="$name" '{ all += $1 } END { printf "  %-9s %6.2f s CPU\n", n, all / 1000 }' "$work/comms"
        head -6 "$work/comms" | awk '{ printf "             %6.2f s  %s\n", $1 / 1000, $2 }'
    else
        perf stat -x, -e task-clock -o "$work/stat" -- "$@" >"$work/out.$name" 2>&1 || true
        awk -F, -v n="$name" '/task-clock/ { printf "  %-9s %6.2f s CPU\n", n, $1 / 1000 }' "$work/stat"
    fi
}

kinds=("$@")
[ "${#kinds[@]}" -gt 0 ] || kinds=(pytest npm go cargo)
for kind in "${kinds[@]}"; do
        for run in $(seq "$RUNS"); do
            base="$work/$kind-$run"
            fixture "$kind" "$base/project"
            mkdir -p "$base/home" "$base/tmp"
            # The harness's environment (tests/gaming.rs, `runner_env`): cleared, then the toolchains and caches, and
            # one directory of seeds for every run's store (so the first run of a kind fills the seeds, and the
            # runs after it start from them, as every loop but a machine's first does).
            env=(env -i "PATH=$PATH" "HOME=$base/home" "LOOPGATE_HOME=$base/store" "TMPDIR=$base/tmp"
                "RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}" "CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}"
                "GOCACHE=$work/go-build" "GOPATH=$work/gopath" "LOOPGATE_SEEDS=$work/seeds" GOTOOLCHAIN=local GOFLAGS=-count=1
                npm_config_update_notifier=false npm_config_fund=false)
            [ -z "${PYTHONDONTWRITEBYTECODE:-}" ] || env+=("PYTHONDONTWRITEBYTECODE=$PYTHONDONTWRITEBYTECODE")
            stop=$(printf '{"session_id": "S", "transcript_path": "%s/t.jsonl", "cwd": "%s", "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "<promise>LOOP_DONE</promise>"}' "$base" "$base/project")
            printf '"fix the bug" --verify '"'%s'"'\n' "$verify" >"$base/setup.in"
            printf '%s\n' "$stop" >"$base/stop.in"
            echo "$kind, run $run: \`$verify\`"
            cd "$base/project"
            stage setup sh -c "exec \"\$@\" <'$base/setup.in'" - "${env[@]}" "$BIN" setup --args-stdin --session-id S
            [ -f .claude/pua-loop.local.md ] || { echo "setup failed:"; cat "$work/out.setup"; exit 1; }
            for n in 1 2; do
                stage "promise$n" sh -c "exec \"\$@\" <'$base/stop.in'" - "${env[@]}" "$BIN" hook stop
                grep -q 'PROMISE REJECTED' "$work/out.promise$n" || { echo "the promise was not judged:"; cat "$work/out.promise$n"; exit 1; }
            done
            echo "  files made by setup and the promises: $(find "$base" -type f | wc -l) ($(du -sh "$base" | cut -f1))"
            # Last, so that what the bare run leaves in the tree (Python's `__pycache__`) is not setup's input.
            stage bare "${env[@]}" sh -c "$verify"
            cd - >/dev/null
        done
done
