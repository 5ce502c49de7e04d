#!/usr/bin/env bash
# What Python's bytecode seed saves a setup (`room::pycache`, `from_seed`): a one-test pytest project set up with
# no seed (`LOOPGATE_SEEDS` naming a place that cannot be made: every setup compiles the standard library and
# pytest into its room's empty prefix, as before the seed) and with a seed filled by one setup before, alternating,
# each a fresh project and store. CPU is `perf stat`'s task-clock over every process setup started.
#
#   scripts/bench-seed.sh                 # 5 rounds, the debug build
#   BIN=path/to/loopgate ROUNDS=9 scripts/bench-seed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/target/debug/loopgate}
ROUNDS=${ROUNDS:-5}
[ -x "$BIN" ] || { echo "bench-seed: no loopgate at \`$BIN\` (cargo build, or set BIN)" >&2; exit 2; }
command -v perf >/dev/null || { echo "bench-seed: perf is needed (apt-get install linux-perf)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# NAME SEEDS: sets up a fresh project NAME with LOOPGATE_SEEDS=SEEDS and prints setup's CPU in seconds.
setup() {
    local dir=$work/$1
    mkdir -p "$dir/tests"
    printf '[project]\nname = "calc"\nversion = "0.1.0"\n' >"$dir/pyproject.toml"
    printf 'def add(a, b):\n    return a - b\n' >"$dir/calc.py"
    printf 'import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n' >"$dir/tests/test_calc.py"
    (cd "$dir" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm init)
    (cd "$dir" && printf '"fix" --verify '"'%s'"'\n' 'python3 -m pytest -q -p no:cacheprovider' |
        env -u PYTHONDONTWRITEBYTECODE LOOPGATE_HOME="$work/store-$1" LOOPGATE_SEEDS="$2" \
            perf stat -x, -e task-clock -o "$work/stat-$1" "$BIN" setup --args-stdin --session-id S >/dev/null 2>&1)
    awk -F, '/task-clock/ { printf "%.2f", $1 / 1000 }' "$work/stat-$1"
}

setup fill "$work/seeds" >/dev/null
for round in $(seq "$ROUNDS"); do
    echo "round $round: no seed $(setup "none$round" /dev/null/none) s, seeded $(setup "seeded$round" "$work/seeds") s CPU"
done
