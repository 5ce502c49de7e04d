#!/usr/bin/env bash
# Baseline for scripts/bench.sh: a Stop hook written the way the popular shell loop hooks (the "Ralph" family) are
# written, making the decision loopgate makes on the no-verify path:
#
#   read the state file's frontmatter (sed + grep), check the session, find the agent's last message by grepping
#   the whole transcript for assistant lines and taking the last with jq, look for the promise tag with perl,
#   bump the iteration (sed to a temp file + mv), print the block decision with jq.
#
# It is not handicapped: no sleeps, no needless passes, each tool used once for what those hooks use it for. It does
# less than loopgate (no seal, no history, no tamper checks, no feedback synthesis, no lock). It reads the
# transcript because that is what these hooks do: they predate `last_assistant_message` in the hook input.
set -euo pipefail

HOOK_INPUT=$(cat)
STATE_FILE=".claude/pua-loop.local.md"

[[ -f "$STATE_FILE" ]] || exit 0

FRONTMATTER=$(sed -n '/^---$/,/^---$/{ /^---$/d; p; }' "$STATE_FILE")
field() { echo "$FRONTMATTER" | grep "^$1:" | sed "s/^$1: *//; s/^[\"']\\(.*\\)[\"']\$/\\1/" || true; }
ITERATION=$(field iteration)
MAX_ITERATIONS=$(field max_iterations)
PROMISE=$(field completion_promise)
SESSION=$(field session_id)

if [[ ! "$ITERATION" =~ ^[0-9]+$ || ! "$MAX_ITERATIONS" =~ ^[0-9]+$ ]]; then
  echo "baseline: corrupt state file" >&2
  exit 0
fi

# One jq start for both fields (jq 1.6 takes ~20 ms to start).
{ read -r INPUT_SESSION; read -r TRANSCRIPT; } < <(echo "$HOOK_INPUT" | jq -r '(.session_id // ""), (.transcript_path // "")')
[[ -z "$SESSION" || "$SESSION" == "$INPUT_SESSION" ]] || exit 0

if [[ $MAX_ITERATIONS -gt 0 && $ITERATION -ge $MAX_ITERATIONS ]]; then
  echo "baseline: max iterations ($MAX_ITERATIONS) reached" >&2
  exit 0
fi

LAST_OUTPUT=""
if [[ -f "$TRANSCRIPT" ]]; then
  LAST_LINE=$(grep '"role":"assistant"' "$TRANSCRIPT" | tail -n 1 || true)
  if [[ -n "$LAST_LINE" ]]; then
    LAST_OUTPUT=$(echo "$LAST_LINE" | jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\n")' 2>/dev/null || true)
  fi
fi

if [[ -n "$PROMISE" && -n "$LAST_OUTPUT" ]]; then
  FOUND=$(echo "$LAST_OUTPUT" | perl -0777 -ne 'if (/<promise>(.*?)<\/promise>/s) { $t = $1; $t =~ s/^\s+|\s+$//g; $t =~ s/\s+/ /g; print $t }' || true)
  if [[ -n "$FOUND" && "$FOUND" == "$PROMISE" ]]; then
    echo "baseline: promise found, loop complete" >&2
    rm -f "$STATE_FILE"
    exit 0
  fi
fi

NEXT=$((ITERATION + 1))
TASK=$(awk '/^---$/ { n++; next } n >= 2' "$STATE_FILE")
TMP="$STATE_FILE.tmp.$$"
sed "s/^iteration: .*/iteration: $NEXT/" "$STATE_FILE" > "$TMP"
mv "$TMP" "$STATE_FILE"

jq -n --arg reason "$TASK" --arg msg "iteration $NEXT: output <promise>$PROMISE</promise> when the task is done" \
  '{decision: "block", reason: $reason, systemMessage: $msg}'
