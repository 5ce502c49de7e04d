#!/usr/bin/env bash
# What tracing the baseline run costs (issue 21), side by side in one hyperfine run per question:
#
#   1. setup with a traced baseline vs an untraced one (LOOPGATE_TRACE=0) vs the suite alone, on a pytest
#      project of 1,000 test files and on a cargo workspace of 3 crates (built once first: the warm case);
#   2. the observed closure's size on each (files sealed by content, as absent, directories searched, bytes);
#   3. what a promise pays to check it: `loopgate allow` (which computes every breach and runs nothing) on the
#      traced loop vs the untraced one.
#
#   scripts/bench-trace.sh
#
# Needs hyperfine (Debian: `apt-get install hyperfine`), strace, python3 with pytest, cargo, git. Noisy on a
# busy machine: compare the ratios of one run, not figures across runs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
for tool in hyperfine strace python3 cargo git; do
    command -v "$tool" >/dev/null || { echo "bench-trace: \`$tool\` is needed" >&2; exit 1; }
done
cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
bin="${CARGO_TARGET_DIR:-$repo/target}/release/loopgate"
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS

commit() { git -C "$1" init -q && git -C "$1" add -A && git -C "$1" -c user.name=b -c user.email=b@b commit -qm init; }

# The observed closure of the loop set up last in $PWD: counts and size.
sizes() {
    local file
    file=$(ls -t "$LOOPGATE_HOME"/seals/*.observed.json | head -n 1)
    python3 - "$file" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
files = d["closure"]["files"]
present = sum(1 for f in files if f["parts"])
print(f"   observed: {present} files by content, {len(files) - present} as absent, "
      f"{len(d['searched'])} directories searched, {len(d['used'])} modules used; "
      f"{os.path.getsize(sys.argv[1]) / 1024:.0f} KiB; {d['tracing'].get('events', 0)} events traced")
PY
}

bench() { # NAME VERIFY
    local name=$1 verify=$2
    echo "== 1. $name: setup with a traced baseline vs untraced vs the suite alone"
    hyperfine --warmup 1 --runs 5 \
        -n "suite alone" "$verify" \
        -n "setup, untraced baseline" "LOOPGATE_TRACE=0 $bin setup --session-id S --force --no-checkpoints --verify '$verify' fix it" \
        -n "setup, traced baseline" "$bin setup --session-id S --force --no-checkpoints --verify '$verify' fix it"
    echo "== 2. $name: the observed closure"
    "$bin" setup --session-id S --force --no-checkpoints --verify "$verify" "fix it" >/dev/null
    sizes
    echo "== 3. $name: a promise's check of the oracle's inputs (loopgate allow computes it, runs nothing)"
    hyperfine --warmup 3 --runs 30 -n "traced loop" "$bin allow"
    LOOPGATE_TRACE=0 "$bin" setup --session-id S --force --no-checkpoints --verify "$verify" "fix it" >/dev/null
    hyperfine --warmup 3 --runs 30 -n "untraced loop" "$bin allow"
}

# pytest: 1,000 test modules of 5 tests each, in 20 packages, and the code they test.
python3 -m pytest --version >/dev/null 2>&1 || { echo "bench-trace: pytest is needed" >&2; exit 1; }
project="$work/pytest"
python3 "$repo/scripts/pytest-project.py" "$project"
commit "$project"
(cd "$project" && bench "pytest, 1,000 test files" "python3 -m pytest -q -p no:cacheprovider")

# cargo: a workspace of three crates, each with unit and integration tests, built once before timing.
project="$work/cargo"
mkdir -p "$project"
printf '[workspace]\nmembers = ["a", "b", "c"]\nresolver = "2"\n' > "$project/Cargo.toml"
for crate in a b c; do
    mkdir -p "$project/$crate/src" "$project/$crate/tests"
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n' "$crate" > "$project/$crate/Cargo.toml"
    printf 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n' > "$project/$crate/src/lib.rs"
    printf '#[test]\nfn api() { assert_eq!(%s::add(2, 2), 4); }\n' "$crate" > "$project/$crate/tests/api.rs"
done
commit "$project"
(cd "$project" && cargo test -q --workspace >/dev/null 2>&1 && bench "cargo workspace of 3 crates (warm)" "cargo test -q --workspace")
