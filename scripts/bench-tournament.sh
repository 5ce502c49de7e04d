#!/usr/bin/env bash
# Cost of a tournament's machinery (issue 35): on a git repository of 10,000 files, one `loopgate run` against
# `loopgate run --candidates N`, both with an agent that does nothing and a verify command that passes at once, so
# what is timed is loopgate's own work — sealing and the baseline once, then per candidate a clone (or, where
# the kernel allows, an overlay of one shared checkout), a copy of the seal, its child `loopgate run`, and at the end the commit of its work and the diff. Both wall time and CPU
# time (user + system, of loopgate and every process it waited for) are given: on a busy machine the CPU figure
# is the steadier one. Also the disk one candidate's clone takes (its files, and its own git directory).
#
#   scripts/bench-tournament.sh            # N = 4
#   CANDIDATES=8 scripts/bench-tournament.sh
#   BIN=target/debug/loopgate scripts/bench-tournament.sh   # a build of your own, no release build
#
# Needs git. Each figure is the median of RUNS (default 3) runs; noisy on a busy machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
n=${CANDIDATES:-4}
runs=${RUNS:-3}
# BIN=path/to/loopgate measures that build instead of building a release one.
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
fi
bin="${BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/loopgate}"
# The runs start in the fixture's directory: a relative BIN (`target/debug/loopgate`) is taken from here.
case $bin in /*) ;; *) bin="$PWD/$bin" ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-tournament.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID
export LOOPGATE_HOME="$work/home"

# 10,000 files of about 100 bytes in 100 directories, one commit.
project="$work/project"
mkdir -p "$project"
for d in $(seq -w 0 99); do
    mkdir -p "$project/src/d$d"
    for f in $(seq -w 0 99); do
        printf 'module %s/%s\nline two of a small source file\nand a third line to make it real\n' "$d" "$f" \
            > "$project/src/d$d/f$f.txt"
    done
done
printf '#!/bin/sh\ntest -f src/d00/f00.txt && echo "check: 1 passed"\n' > "$project/check.sh"
git -C "$project" init -q -b main
git -C "$project" add -A
git -C "$project" -c user.name=bench -c user.email=bench@localhost commit -qm fixture
echo "files: $(git -C "$project" ls-files | wc -l)"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }

time_one() { # $1: extra flags. The previous run's store and clones go first, as after `loopgate accept`.
    rm -rf "$LOOPGATE_HOME"
    git -C "$project" worktree prune
    git -C "$project" for-each-ref --format='%(refname)' refs/heads/loopgate refs/loopgate |
        xargs -r -n1 git -C "$project" update-ref -d
    local start end cpu
    start=$(now)
    (cd "$project" && /usr/bin/time -f '%U %S' -o "$work/cpu" "$bin" run $1 --verify 'sh check.sh' \
        --max-iterations 1 'nothing to do' -- true >/dev/null 2>"$work/last.err")
    end=$(now)
    cpu=$(awk '{print $1 + $2}' "$work/cpu")
    echo "$(echo "$end - $start" | bc -l) $cpu"
}

singles=$(for _ in $(seq "$runs"); do time_one ""; done)
tournaments=$(for _ in $(seq "$runs"); do time_one "--candidates $n --jobs $n"; done)
single=$(echo "$singles" | cut -d' ' -f1 | median)
tournament=$(echo "$tournaments" | cut -d' ' -f1 | median)
single_cpu=$(echo "$singles" | cut -d' ' -f2 | median)
tournament_cpu=$(echo "$tournaments" | cut -d' ' -f2 | median)
sealed=$(sed -n 's/.*sealed and baselined once in \([0-9.]*\)s; .* ready in \([0-9.]*\)s.*/\1 \2/p' "$work/last.err")
seal_once=${sealed% *}
ready=${sealed#* }
per=$(echo "($tournament - $single) / ($n - 1)" | bc -l)
per_cpu=$(echo "($tournament_cpu - $single_cpu) / ($n - 1)" | bc -l)
per_prep=$(echo "($ready - $seal_once) / ($n - 1)" | bc -l)

# Disk: one candidate's files (without loopgate's .claude) and its git directory: of its clone, or where its
# tree is an overlay of the shared checkout (`worktrees/<id>/base`), of its upper layer (what it wrote).
tree=$(ls -d "$LOOPGATE_HOME"/worktrees/*/c2)
if [ -d "$tree.layer" ]; then
    tree="$tree.layer/upper"
    files_kb=$(du -sk --exclude=.claude --exclude=.git "$tree" | cut -f1)
    admin_kb=$(du -sk "$tree/.git" 2>/dev/null | cut -f1)
else
    files_kb=$(du -sk --exclude=.claude --exclude=.git "$tree" | cut -f1)
    admin_kb=$(du -sk "$(git -C "$tree" rev-parse --absolute-git-dir)" | cut -f1)
fi
store_kb=$(du -sk "$LOOPGATE_HOME/seals" 2>/dev/null | cut -f1)

printf 'single loop (setup + 1 iteration + end):       %.2f s\n' "$single"
printf 'tournament of %d (same, every candidate):       %.2f s\n' "$n" "$tournament"
printf 'added per extra candidate, whole run:          %.2f s\n' "$per"
printf 'CPU (user + system): single %.2f s, tournament %.2f s, per extra candidate %.2f s\n' \
    "$single_cpu" "$tournament_cpu" "$per_cpu"
printf 'of which clone + seal copy, per candidate:      %.2f s (the seal and baseline, once: %.2f s)\n' "$per_prep" "$seal_once"
printf 'disk per candidate: %d KiB of files, %d KiB in its git directory; all seals of the tournament: %d KiB\n' \
    "$files_kb" "${admin_kb:-0}" "${store_kb:-0}"
