#!/usr/bin/env bash
# What sharing setups saves the gaming suite (`tests/gaming/shared_setup.rs`): the same cases played with each
# case's loop set up afresh (`LOOPGATE_GAMING_SHARED_SETUP=0`, as before) and shared (the first case that starts
# alike sets its loop up and keeps it, the next restore it), alternating, each shared round starting with no loop
# kept (as a CI run does). CPU is `perf stat`'s task-clock over every process the suite started; wall time beside.
#
#   scripts/bench-shared-setup.sh                       # 2 rounds of honest_changes_2:: and fresh_moves_2::
#   ROUNDS=3 THREADS=2 scripts/bench-shared-setup.sh fresh_moves_3:: closure_moves::
#
# Plays the debug build's cases (`cargo test --test gaming --no-run` first) with one proof in eight, as CI does.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-2}
THREADS=${THREADS:-2}
[ "$#" -gt 0 ] || set -- honest_changes_2:: fresh_moves_2::
command -v perf >/dev/null || { echo "bench-shared-setup: perf is needed (apt-get install linux-perf)" >&2; exit 2; }
suite=$(ls -t target/debug/deps/gaming-* 2>/dev/null | grep -v '\.d$' | head -n 1 || true)
[ -x "$suite" ] || { echo "bench-shared-setup: no gaming suite built (cargo test --test gaming --no-run)" >&2; exit 2; }
kept=target/tmp/gaming-cache/kept-loops
stat=$(mktemp)
trap 'rm -f "$stat"' EXIT

# MODE FILTER...: plays the cases with LOOPGATE_GAMING_SHARED_SETUP=MODE; prints "CPU s, wall s, N passed".
play() {
    local mode=$1 started passed
    shift
    # Directories only: a kept loop's files may be hard links to a toolchain's own (`shared_setup.rs`, `copy`).
    [ ! -d "$kept" ] || find "$kept" -type d -exec chmod u+rwx {} +
    rm -rf "$kept"
    started=$(date +%s)
    passed=$(LOOPGATE_GAMING_SHARED_SETUP=$mode LOOPGATE_GAMING_PROOF_SAMPLE=8:bench \
        perf stat -x, -e task-clock -o "$stat" "$suite" "$@" --test-threads="$THREADS" 2>&1 |
        sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\1 passed, \2 failed/p')
    printf '%s s CPU, %d s wall, %s' "$(awk -F, '/task-clock/ { printf "%.0f", $1 / 1000 }' "$stat")" \
        "$(($(date +%s) - started))" "$passed"
}

echo "== $* (${THREADS} threads)"
for round in $(seq "$ROUNDS"); do
    echo "round $round: afresh $(play 0 "$@"); shared $(play 1 "$@")"
done
