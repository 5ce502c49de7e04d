#!/usr/bin/env bash
# Side by side, in one hyperfine run: the Stop hook with no loop and with a loop in the default configuration
# (progress probe and checkpoints) on a 50-file repository whose tree does not change, for one or more loopgate
# binaries, and the shell baseline hook. Every stop is a real next stop: the agent used a tool since the last
# one (the PreToolUse marker) and the transcript grew (so no stop is taken for a twin of the one before).
# With --agents, the same stops also through the other agents' adapters (`hook --agent A stop`, each agent's own
# input: Codex CLI, Gemini CLI, and Cursor, Copilot CLI and opencode as their documented formats say), side by
# side with Claude Code's (issue 34).
# Usage: scripts/bench-stop-small.sh [--agents] BIN [BIN2…]   (issue 23, item 6; figures in BENCHMARKS.md)
set -euo pipefail
agents=claude
if [ "${1-}" = --agents ]; then agents="claude codex gemini cursor copilot opencode"; shift; fi
repo=$(cd "$(dirname "$0")/.." && pwd)
w=${TMPDIR:-/tmp}/loopgate-bench-small; rm -rf $w; mkdir -p $w/home $w/lh $w/idle $w/small $w/base/.claude
export HOME=$w/home LOOPGATE_HOME=$w/lh CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 LOOPGATE_BLOCK_CAP=0
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID
cd $w/small && git init -q . && for i in $(seq 1 50); do echo "line $i" > f$i.txt; done && git add -A && git -c user.email=a@b -c user.name=n commit -qm i
"$1" setup --session-id S --stall-limit 1000000 "make it work" >/dev/null
cp .claude/pua-loop.local.md $w/base/.claude/
printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"working"}]}}\n' > $w/t.jsonl
# Cursor's and Copilot CLI's transcripts in one file (each reader takes its own entry); it grows like Claude Code's.
{ printf '{"role":"assistant","message":{"content":[{"type":"text","text":"still working"}]}}\n'
  printf '{"type":"assistant.message","data":{"content":"still working"}}\n'; } > $w/a.jsonl
# Each agent's Stop input (Codex: Claude Code's fields and a `turn_id`; Gemini: `AfterAgent`, the cumulative
# `prompt_response`, read from its tail since the transcript here is not Gemini's; Cursor and Copilot: the last
# message from the transcript; opencode: what loopgate's plugin sends).
inp() { # AGENT DIR
    case $1 in
        claude) printf '{"session_id":"S","transcript_path":"%s","cwd":"%s","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"still working"}' $w/t.jsonl "$2" ;;
        codex) printf '{"session_id":"S","turn_id":"T","transcript_path":"%s","cwd":"%s","hook_event_name":"Stop","model":"m","permission_mode":"default","stop_hook_active":true,"last_assistant_message":"still working"}' $w/t.jsonl "$2" ;;
        gemini) printf '{"session_id":"S","transcript_path":"%s","cwd":"%s","hook_event_name":"AfterAgent","timestamp":"2026-11-26T00:00:00Z","prompt":"make it work","prompt_response":"working. still working","stop_hook_active":true}' $w/t.jsonl "$2" ;;
        cursor) printf '{"conversation_id":"S","generation_id":"G","workspace_roots":["%s"],"hook_event_name":"stop","status":"completed","loop_count":1,"transcript_path":"%s"}' "$2" $w/a.jsonl ;;
        copilot) printf '{"session_id":"S","timestamp":"2026-11-26T00:00:00.000Z","cwd":"%s","hook_event_name":"Stop","transcript_path":"%s","stop_reason":"end_turn","stop_hook_active":true}' "$2" $w/a.jsonl ;;
        opencode) printf '{"hook_event_name":"session.idle","session_id":"S","cwd":"%s","stop_hook_active":true,"last_assistant_message":"still working"}' "$2" ;;
    esac
}
for a in $agents; do inp $a $w/idle > $w/idle-$a.json; inp $a $w/small > $w/small-$a.json; done
inp claude $w/base > $w/base.json
args=(--warmup 20 --min-runs 300 --prepare "touch $w/small/.claude/loopgate/tool-ran; echo {} >> $w/t.jsonl; echo {} >> $w/a.jsonl" --export-markdown $w/out.md --export-json $w/out.json)
cmds=()
for b in "$@"; do n=$(basename $(dirname $b))-$(basename $b)
  for a in $agents; do
    # Claude Code's own command line stays `hook stop`, as installed plugins run it.
    if [ $a = claude ]; then hook="hook stop"; label=$n; else hook="hook --agent $a stop"; label="$n $a"; fi
    cmds+=(-n "$label no loop" "cd $w/idle && $b $hook < $w/idle-$a.json" -n "$label default loop, small repo" "cd $w/small && $b $hook < $w/small-$a.json")
  done
done
cmds+=(-n "shell baseline hook, loop" "cd $w/base && bash $repo/benches/baseline/stop-hook.sh < $w/base.json")
hyperfine "${args[@]}" "${cmds[@]}" >&2
python3 - "$w/out.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"| {r['command']} | {r['median'] * 1000:.2f} ms | {r['mean'] * 1000:.2f} ms |")
PY
