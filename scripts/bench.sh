#!/usr/bin/env bash
# Whole-process benchmarks of the hooks, measured side by side in one hyperfine run, plus the peak memory of a
# verify that prints 1 GiB. Prints a Markdown report (and keeps hyperfine's JSON in $BENCH_OUT, default
# target/bench). Needs hyperfine and GNU time (Debian: `apt-get install hyperfine time`) and python3.
#
#   scripts/bench.sh           # 1 MiB and 200 MiB transcripts
#   scripts/bench.sh --big     # also a 1 GiB transcript
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
big=false
[ "${1-}" = "--big" ] && big=true
for tool in hyperfine python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is needed (apt-get install hyperfine time python3)" >&2; exit 1; }
done

cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
bin="$repo/target/release/loopgate"
out=${BENCH_OUT:-$repo/target/bench}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID

# A transcript of SIZE MiB made of realistic JSONL turns; the last assistant turn holds the text.
transcript() {
    python3 - "$1" "$2" <<'PY'
import json, sys
path, mib = sys.argv[1], int(sys.argv[2])
user = json.dumps({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "content": "x" * 2000}]}})
asst = json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "working " * 250}]}})
block = (user + "\n" + asst + "\n").encode()
with open(path, "wb") as f:
    for _ in range(mib * 1024 * 1024 // len(block) + 1):
        f.write(block)
    f.write((json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "still working"}]}}) + "\n").encode())
PY
}

input() { # FILE PROJECT TRANSCRIPT [with-message]
    python3 - "$@" <<'PY'
import json, sys
path, cwd, transcript = sys.argv[1:4]
data = {"session_id": "bench-session", "transcript_path": transcript, "cwd": cwd, "hook_event_name": "Stop",
        "stop_hook_active": False}
if len(sys.argv) > 4:
    data["last_assistant_message"] = "still working"
json.dump(data, open(path, "w"))
PY
}

mkdir -p "$work/idle" "$work/loop"
(cd "$work/loop" && echo '"benchmark task" --max-iterations 0' | "$bin" setup --args-stdin --session-id bench-session >/dev/null)
sizes=(1 200)
$big && sizes+=(1024)
for mib in "${sizes[@]}"; do
    transcript "$work/t$mib.jsonl" "$mib"
    input "$work/idle-$mib.json" "$work/idle" "$work/t$mib.jsonl" msg
    input "$work/loop-$mib.json" "$work/loop" "$work/t$mib.jsonl" msg
done

commands=()
for mib in "${sizes[@]}"; do
    commands+=(-n "no loop, ${mib} MiB transcript" "$bin hook stop < $work/idle-$mib.json")
done
for mib in "${sizes[@]}"; do
    commands+=(-n "loop, no-verify path, ${mib} MiB transcript" "$bin hook stop < $work/loop-$mib.json")
done
hyperfine --warmup 20 --runs 300 --export-json "$out/hook-stop.json" "${commands[@]}" >&2

# Peak memory of a verify that prints 1 GiB (the runner keeps a bounded tail; the log keeps head and tail).
mkdir -p "$work/loud"
(cd "$work/loud" && echo "loud --verify 'head -c 1073741824 /dev/zero; exit 1'" | "$bin" setup --args-stdin --session-id loud >/dev/null)
rss_kib=$(cd "$work/loud" && /usr/bin/time -f '%M' "$bin" verify 2>&1 >/dev/null | tail -n 1)
secs=$(cd "$work/loud" && /usr/bin/time -f '%e' "$bin" verify 2>&1 >/dev/null | tail -n 1)
log_bytes=$(du -b "$work/loud/.claude/loopgate/"*.log | awk '{s+=$1} END {print s}')

python3 - "$out/hook-stop.json" "$rss_kib" "$secs" "$log_bytes" <<'PY'
import json, sys, platform, os
data = json.load(open(sys.argv[1]))
print("| command | median | mean ± σ | min | max |")
print("|---|---:|---:|---:|---:|")
for r in data["results"]:
    ms = lambda v: f"{v * 1000:.2f} ms"
    print(f"| {r['command']} | {ms(r['median'])} | {ms(r['mean'])} ± {ms(r['stddev'])} | {ms(r['min'])} | {ms(r['max'])} |")
rss = int(sys.argv[2]) / 1024
print()
print(f"Verify printing 1 GiB: peak RSS {rss:.1f} MiB, {sys.argv[3]} s wall, logs on disk {int(sys.argv[4]) / 1048576:.1f} MiB.")
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.processor())
print(f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}.")
PY
