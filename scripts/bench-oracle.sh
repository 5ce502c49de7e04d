#!/usr/bin/env bash
# Whole-process cost of the baseline run and the per-test verdict (issue 20), side by side in one hyperfine run
# per question, on a real pytest project of 1,000 test files:
#
#   1. setup with the baseline against the suite alone (the baseline is one verify run plus setup's own work);
#   2. `loopgate verify` (what a promise pays: seal checks, the test side as sealed, the run, the verdict) with
#      every issue-20 check on, with them off, and the bare command;
#   3. the Stop hook's no-promise path of this build against another build (`OLD_BIN=path/to/loopgate`), which
#      must not get slower.
#
#   scripts/bench-oracle.sh                      # 1 and 2
#   OLD_BIN=/tmp/old/loopgate scripts/bench-oracle.sh   # and 3
#
# Needs hyperfine (Debian: `apt-get install hyperfine`), python3 with pytest, git. Noisy on a busy machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
for tool in hyperfine python3 git; do
    command -v "$tool" >/dev/null || { echo "bench-oracle: \`$tool\` is needed" >&2; exit 1; }
done
python3 -m pytest --version >/dev/null 2>&1 || { echo "bench-oracle: pytest is needed (pip install pytest)" >&2; exit 1; }
cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
bin="${CARGO_TARGET_DIR:-$repo/target}/release/loopgate"
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-oracle.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS

# 1,000 test modules of 5 tests each, in 20 packages, and the code they test; a git work tree like a user's.
project="$work/project"
python3 "$repo/scripts/pytest-project.py" "$project"
git -C "$project" init -q && git -C "$project" add -A && git -C "$project" -c user.name=b -c user.email=b@b commit -qm init
verify="python3 -m pytest -q -p no:cacheprovider"
cd "$project"

echo "== 1. setup with the baseline vs the suite alone (1,000 test files, 5,000 tests)"
hyperfine --warmup 0 --runs 3 \
    -n "pytest alone" "$verify" \
    -n "loopgate setup (baseline on)" "$bin setup --session-id S --force --verify '$verify' fix it" \
    -n "loopgate setup --no-baseline" "$bin setup --session-id S --force --no-baseline --verify '$verify' fix it"

echo "== 2. what a promise pays: loopgate verify with the issue-20 checks on / off, and the bare command"
"$bin" setup --session-id S --force --verify "$verify" "fix it" >/dev/null
# An honest change: a new test file (it sits out the oracle's run) and an edited existing one (it stands as sealed).
printf 'def test_new():\n    pass\n' > tests/test_new.py
printf '\n\ndef test_added():\n    assert True\n' >> tests/pkg_0/test_mod_0.py
"$bin" setup --session-id S2 --force --no-test-verdict --with-new-tests --verify "$verify" "fix it" >/dev/null 2>&1 || true
hyperfine --warmup 0 --runs 3 \
    -n "bare pytest" "$verify" \
    -n "loopgate verify, checks off" "$bin verify"
"$bin" setup --session-id S --force --verify "$verify" "fix it" >/dev/null
hyperfine --warmup 0 --runs 3 -n "loopgate verify, per-test verdict and test side on" "$bin verify"
git checkout -q -- . && rm -f tests/test_new.py

if [ -n "${OLD_BIN:-}" ]; then
    echo "== 3. the Stop hook without a promise: this build vs $OLD_BIN (same loop, --no-checkpoints --stall-limit 0)"
    "$bin" setup --session-id S --force --no-checkpoints --stall-limit 0 --verify "$verify" "fix it" >/dev/null
    printf '%s\n' '{"session_id":"S","hook_event_name":"Stop","cwd":"'"$project"'","stop_hook_active":true,"last_assistant_message":"working on it"}' > "$work/stop.json"
    export CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0
    hyperfine --warmup 20 --runs 300 \
        -n "this build" "$bin hook stop < $work/stop.json" \
        -n "old build" "$OLD_BIN hook stop < $work/stop.json"
fi
