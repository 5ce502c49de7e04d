#!/usr/bin/env bash
# Side by side, in one hyperfine run: the Stop hook with no loop and with a loop in the default configuration
# (progress probe and checkpoints) on a 50-file repository whose tree does not change, for one or more loopgate
# binaries, and the shell baseline hook. Every stop is a real next stop: the agent used a tool since the last
# one (the PreToolUse marker) and the transcript grew (so no stop is taken for a twin of the one before).
# Usage: scripts/bench-stop-small.sh BIN [BIN2…]   (issue 23, item 6; figures in BENCHMARKS.md)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
w=${TMPDIR:-/tmp}/loopgate-bench-small; rm -rf $w; mkdir -p $w/home $w/lh $w/idle $w/small $w/base/.claude
export HOME=$w/home LOOPGATE_HOME=$w/lh CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID
cd $w/small && git init -q . && for i in $(seq 1 50); do echo "line $i" > f$i.txt; done && git add -A && git -c user.email=a@b -c user.name=n commit -qm i
"$1" setup --session-id S --stall-limit 1000000 "make it work" >/dev/null
cp .claude/pua-loop.local.md $w/base/.claude/
printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"working"}]}}\n' > $w/t.jsonl
inp() { printf '{"session_id":"S","transcript_path":"%s","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"still working"}' $w/t.jsonl "$1"; }
inp $w/idle > $w/idle.json; inp $w/small > $w/small.json; inp $w/base > $w/base.json
args=(--warmup 20 --min-runs 300 --prepare "touch $w/small/.claude/loopgate/tool-ran; echo {} >> $w/t.jsonl" --export-markdown $w/out.md --export-json $w/out.json)
cmds=()
for b in "$@"; do n=$(basename $(dirname $b))-$(basename $b)
  cmds+=(-n "$n no loop" "cd $w/idle && $b hook stop < $w/idle.json" -n "$n default loop, small repo" "cd $w/small && $b hook stop < $w/small.json")
done
cmds+=(-n "shell baseline hook, loop" "cd $w/base && bash $repo/benches/baseline/stop-hook.sh < $w/base.json")
hyperfine "${args[@]}" "${cmds[@]}" >&2
python3 - "$w/out.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"| {r['command']} | {r['median'] * 1000:.2f} ms | {r['mean'] * 1000:.2f} ms |")
PY
