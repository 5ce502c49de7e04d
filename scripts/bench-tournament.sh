#!/usr/bin/env bash
# Cost of a tournament's machinery (issue 35, issue 41's goal: at most 0.5 s CPU per extra candidate): on a git
# repository of 10,000 files, `loopgate run` alone and `loopgate run --candidates 2` and `--candidates N`, all with
# an agent that does nothing and a verify command that passes at once, so what is timed is loopgate's own work —
# sealing and the baseline once, then per candidate its tree (a clone, or where the kernel allows an overlay of
# one shared checkout), a copy of the seal, its child `loopgate run`, and at the end the commit of its work and
# the diff.
#
# The figure that answers the goal is the **marginal**: (tournament of N − tournament of 2) / (N − 2), CPU time
# (user + system of loopgate and every process it waited for, GNU time; on a busy machine the steadier figure),
# the median over RUNS runs. It is trustworthy only with the fixture's pages warm, and both builds measured under
# the same conditions, so:
#   - one tournament of N per build is run first and discarded (the fixture's 10,000 files read into the page
#     cache, the binary's pages loaded);
#   - no run's files are deleted before the end (see `time_one`: file creation right after a mass deletion is
#     slow on ext4, by seconds that vary);
#   - given two builds (BEFORE and BIN), they take turns run by run, and which goes first alternates, as does
#     the order of the tournaments of 2 and N inside a run: no build or size always pays for the other's runs.
# Also given, as before: the "script's figure", (tournament of N − one loop) / (N − 1), which spreads the
# tournament's constant work (the shared checkout, the seal and baseline) over its candidates; and the disk one
# candidate's tree takes.
#
#   scripts/bench-tournament.sh                                   # a release build of this tree, N = 4
#   BIN=target/debug/loopgate scripts/bench-tournament.sh         # a build of your own, no release build
#   BEFORE=/tmp/main/loopgate BIN=target/release/loopgate RUNS=5 scripts/bench-tournament.sh   # side by side
#   CANDIDATES=8 scripts/bench-tournament.sh
#
# Needs git, GNU time (/usr/bin/time), and about 100 MB of disk per run until the end (the shared checkout and
# the room's tree). Noisy on a busy machine: compare builds only side by side.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
n=${CANDIDATES:-4}
runs=${RUNS:-3}
if [ "$n" -le 2 ]; then
    echo "bench-tournament: CANDIDATES must be more than 2 (the marginal compares N with 2), not $n" >&2
    exit 2
fi
if [ ! -x /usr/bin/time ]; then
    echo "bench-tournament: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
    exit 2
fi
# BIN=path/to/loopgate measures that build instead of building a release one.
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
fi
# The runs start in the fixture's directory: relative paths (`target/debug/loopgate`) are taken from here.
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
bin=$(absolute "${BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/loopgate}")
labels=(this)
bins=("$bin")
if [ -n "${BEFORE:-}" ]; then
    labels=(before after)
    bins=("$(absolute "$BEFORE")" "$bin")
fi
for b in "${bins[@]}"; do
    [ -x "$b" ] || { echo "bench-tournament: no loopgate binary at $b (BIN, BEFORE)" >&2; exit 2; }
done
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

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }

time_one() { # $1: the binary, $2: how many candidates (1: a single loop). Prints "wall cpu".
    # The previous run's store and clones go first, as after `loopgate accept` — moved aside, not deleted: on
    # ext4 the files of the next checkout would take the inodes of the 20,000 just freed, and the inode
    # allocator's check for recently deleted ones (`recently_deleted`, in `perf`) then costs seconds that vary
    # from run to run, more than a candidate does. They are deleted at the end.
    [ -d "$LOOPGATE_HOME" ] && mv "$LOOPGATE_HOME" "$(mktemp -d "$work/old.XXXXXX")"
    git -C "$project" worktree prune
    git -C "$project" for-each-ref --format='%(refname)' refs/heads/loopgate refs/loopgate |
        xargs -r -n1 git -C "$project" update-ref -d
    local flags="" start end
    [ "$2" -gt 1 ] && flags="--candidates $2 --jobs $2"
    start=$(now)
    # shellcheck disable=SC2086 # the flags are words
    if ! (cd "$project" && /usr/bin/time -f '%U %S' -o "$work/cpu" "$1" run $flags --verify 'sh check.sh' \
        --max-iterations 1 'nothing to do' -- true >/dev/null 2>"$work/last.err"); then
        echo "bench-tournament: $1 run $flags failed:" >&2
        tail -5 "$work/last.err" >&2
        exit 1
    fi
    end=$(now)
    echo "$(echo "$end - $start" | bc -l) $(awk '{print $1 + $2}' "$work/cpu")"
}

# Warm-up, discarded: the fixture's pages and each binary's.
for b in "${bins[@]}"; do time_one "$b" "$n" >/dev/null; done

# Of the last warm-up (the last build's tournament of N): how long the seal and baseline took once, and the
# candidates' trees and seal copies.
sealed=$(sed -n 's/.*sealed and baselined once in \([0-9.]*\)s; .* ready in \([0-9.]*\)s.*/\1 \2/p' "$work/last.err")
if [ -n "$sealed" ]; then
    printf 'warm-up tournament of %d: the seal and baseline, once: %.2f s; all candidates'"'"' trees ready: %.2f s wall\n' \
        "$n" "${sealed% *}" "${sealed#* }"
fi

# Disk: one candidate's files (without loopgate's .claude) and its git directory: of its clone, or where its
# tree is an overlay of the shared checkout (`worktrees/<id>/base`), of its upper layer (what it wrote).
tree=$(ls -d "$LOOPGATE_HOME"/worktrees/*/c2 2>/dev/null || true)
if [ -n "$tree" ]; then
    if [ -d "$tree.layer" ]; then
        tree="$tree.layer/upper"
        admin_kb=$(du -sk "$tree/.git" 2>/dev/null | cut -f1)
    else
        admin_kb=$(du -sk "$(git -C "$tree" rev-parse --absolute-git-dir)" | cut -f1)
    fi
    files_kb=$(du -sk --exclude=.claude --exclude=.git "$tree" | cut -f1)
    store_kb=$(du -sk "$LOOPGATE_HOME/seals" 2>/dev/null | cut -f1)
    printf 'disk per candidate: %d KiB of files, %d KiB in its git directory; all seals of the tournament: %d KiB\n' \
        "$files_kb" "${admin_kb:-0}" "${store_kb:-0}"
fi

# One line per measurement: label run size wall cpu.
: > "$work/times"
measure() { # $1: run, $2: the sizes, in order; each build in turn, which first alternating with the run.
    local order i size line
    order=$(seq 0 $((${#bins[@]} - 1)))
    [ $(($1 % 2)) -eq 0 ] && order=$(echo "$order" | tac)
    for i in $order; do
        for size in $2; do
            line="${labels[$i]} $1 $size $(time_one "${bins[$i]}" "$size")"
            echo "$line" >> "$work/times"
            echo "  $line" >&2 # label, run, candidates, wall s, CPU s: progress
        done
    done
}
# The tournaments first, the single loops after them all: a single loop removes its oracle room's copy of the
# tree when it ends (10,000 files), which makes the next run's checkout slow as above — a tournament right
# after one cost 1.2 s more system time, whichever its size.
for r in $(seq "$runs"); do
    if [ $((r % 2)) -eq 0 ]; then measure "$r" "$n 2"; else measure "$r" "2 $n"; fi
done
# (Each single loop still follows the previous one's removal: its figure is high on ext4; the marginal is the one to read.)
for r in $(seq "$runs"); do measure "$r" 1; done

# A figure of `label` from the measurements: `pick SIZE COLUMN` (4: wall, 5: cpu), the median over the runs.
pick() { awk -v l="$1" -v s="$2" -v c="$3" '$1 == l && $3 == s {print $c}' "$work/times" | median; }
# The marginal per extra candidate of each run of `label` (CPU, or wall with column 4), the median of them.
marginals() {
    awk -v l="$1" -v n="$n" -v c="$2" '$1 == l && $3 == 2 {two[$2] = $c} $1 == l && $3 == n {big[$2] = $c}
        END {for (r in two) if (r in big) printf "%.3f\n", (big[r] - two[r]) / (n - 2)}' "$work/times"
}

for label in "${labels[@]}"; do
    one_cpu=$(pick "$label" 1 5)
    two_cpu=$(pick "$label" 2 5)
    big_cpu=$(pick "$label" "$n" 5)
    each=$(marginals "$label" 5 | sort -g | tr '\n' ' ')
    marginal=$(marginals "$label" 5 | median)
    marginal_wall=$(marginals "$label" 4 | median)
    script_cpu=$(echo "($big_cpu - $one_cpu) / ($n - 1)" | bc -l)
    printf '%s: CPU (user + system), the median of %d runs: one loop %.2f s, a tournament of 2 %.2f s, of %d %.2f s\n' \
        "$label" "$runs" "$one_cpu" "$two_cpu" "$n" "$big_cpu"
    printf '%s: marginal per extra candidate ((%d − 2) / %d): %.2f s CPU (runs: %s), %.2f s wall\n' \
        "$label" "$n" "$((n - 2))" "$marginal" "${each% }" "$marginal_wall"
    printf '%s: the script'"'"'s older figure, (tournament of %d − one loop) / %d: %.2f s CPU\n' \
        "$label" "$n" "$((n - 1))" "$script_cpu"
done
