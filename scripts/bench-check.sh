#!/bin/sh
# `loopgate check` on a real crate (semver 1.0.26, from the crates registry) against what it replaces: two bare
# `cargo test` runs, on the base and on the head, each in a fresh clone with no build cache, as a CI job starts.
# The check does both runs too (the baseline on the base, the judged run on the head) plus the sealing: the
# clone, the traced baseline, the room, the test signatures. Target: at most 1.3x (issue 44). BENCHMARKS.md.
#
#   scripts/bench-check.sh [LOOPGATE] [RUNS]      default: target/debug/loopgate, 3 runs
#
# Needs curl, git, cargo and hyperfine. The head adds one test file (honest work), so the check passes. The third
# command shows what the traced runs (strace, the observed closure) cost.
set -eu
cd "$(dirname "$0")/.."
loopgate=$(realpath "${1:-target/debug/loopgate}")
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -sSfL https://static.crates.io/crates/semver/semver-1.0.26.crate | tar xz -C "$work"
repo=$work/semver-1.0.26
git="git -c user.name=bench -c user.email=bench@example.com"
(
    cd "$repo"
    printf 'verify = "cargo test"\n' > .loopgate.toml
    printf 'target/\n' > .gitignore
    git init -q -b main && $git add -A && $git commit -qm base
    git checkout -qb head
    printf 'use semver::Version;\n\n#[test]\nfn parses_a_prerelease() {\n    assert!(Version::parse("1.2.3-rc.1").unwrap().pre.len() > 0);\n}\n' > tests/extra.rs
    $git add -A && $git commit -qm head
)
export LOOPGATE_HOME="$work/home"
bare="rm -rf $work/b $work/h; git clone -q -b main $repo $work/b && cd $work/b && cargo test >/dev/null 2>&1 && git clone -q -b head $repo $work/h && cd $work/h && cargo test >/dev/null 2>&1"
cd "$repo"
hyperfine --runs "$runs" --export-markdown "$work/bench.md" \
    -n 'two bare cargo test runs (base, head)' "sh -c '$bare'" \
    -n 'loopgate check --base main' "$loopgate check --base main" \
    -n 'loopgate check, runs untraced (LOOPGATE_TRACE=0)' "env LOOPGATE_TRACE=0 $loopgate check --base main"
cat "$work/bench.md"
