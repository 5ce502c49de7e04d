#!/usr/bin/env bash
# Whole-process benchmarks of loopgate, each group measured side by side in one hyperfine run, plus peak memory,
# plus the in-process divan benches. Prints a Markdown report on stdout (progress on stderr) and keeps hyperfine's
# JSON and Markdown exports in $BENCH_OUT (default: target/bench). BENCHMARKS.md explains every number.
#
#   scripts/bench.sh            # everything, with 1 MiB, 200 MiB and 1 GiB transcripts (needs ~2 GiB in $TMPDIR)
#   scripts/bench.sh --quick    # 1 MiB and 200 MiB only, fewer runs: a smoke test of the script itself
#   scripts/bench.sh --no-divan # the whole-process timings only (the divan benches take minutes more)
#
# Needs: hyperfine and GNU time (Debian: `apt-get install hyperfine time`), python3, git, and for the baseline
# hook bash, jq, perl, sed, grep, awk. Timing is noisy on a busy machine: check `uptime` first.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
quick=false divan=true
for arg in "$@"; do
    case $arg in
        --quick) quick=true ;;
        --no-divan) divan=false ;;
        *) echo "bench: unknown argument \`$arg\` (use --quick and/or --no-divan)" >&2; exit 2 ;;
    esac
done
for tool in hyperfine python3 git bash jq perl awk /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench: \`$tool\` is needed (apt-get install hyperfine time python3 git jq perl)" >&2; exit 1; }
done

say() { echo "bench: $*" >&2; }

load_start=$(python3 -c 'import os; print(" ".join(f"{x:.2f}" for x in os.getloadavg()))')
say "building the release binary"
cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
bin="${CARGO_TARGET_DIR:-$repo/target}/release/loopgate"
baseline="$repo/benches/baseline/stop-hook.sh"
out=${BENCH_OUT:-$repo/target/bench}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/loopgate-home"
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID
# Every measured stop continues the turn the previous one blocked (`stop_hook_active: true`), hundreds of times
# in a row: with Claude Code's stop-hook block cap off, each one is a plain block (the cap's count still runs).
export CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0
session=bench-session

if $quick; then
    sizes=(1 200)
    runs=(--warmup 2 --min-runs 10 --max-runs 50)
else
    sizes=(1 200 1024)
    runs=(--warmup 5 --min-runs 20 --max-runs 400)
fi

# ---------------------------------------------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------------------------------------------

# A transcript of SIZE MiB in Claude Code's format (compact JSON lines): tool results and assistant turns with
# text and tool calls; the last line is the assistant's final text of the turn.
transcript() { # PATH MIB
    python3 - "$1" "$2" <<'PY'
import json, sys
path, mib = sys.argv[1], int(sys.argv[2])
dump = lambda v: json.dumps(v, separators=(",", ":"))
meta = {"sessionId": "bench-session", "cwd": "/work/project", "version": "2.1.197", "gitBranch": "main"}
lines = []
for i in range(4):
    lines.append(dump({**meta, "type": "user", "uuid": f"u{i}", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "test result: FAILED. 41 passed; 1 failed\n" * 60}]}}))
    lines.append(dump({**meta, "type": "assistant", "uuid": f"a{i}", "message": {"id": f"msg_{i}", "role": "assistant",
        "model": "claude", "content": [{"type": "text", "text": "The failure is in the parser; fixing the offset. " * 12},
        {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "cargo test -p parser"}}],
        "usage": {"input_tokens": 1200, "output_tokens": 300}}}))
block = ("\n".join(lines) + "\n").encode()
last = dump({**meta, "type": "assistant", "uuid": "last", "message": {"id": "msg_last", "role": "assistant",
    "content": [{"type": "text", "text": "Still working on the parser; the offset fix is next."}]}}) + "\n"
with open(path, "wb") as f:
    target = mib * 1024 * 1024 - len(last)
    written = 0
    while written + len(block) <= target:
        f.write(block)
        written += len(block)
    f.write(b"\n" * (target - written))  # pad to the exact size with empty lines (readers skip them)
    f.write(last.encode())
PY
}

stop_input() { # FILE PROJECT TRANSCRIPT with-message|without-message
    python3 - "$@" <<'PY'
import json, sys
path, cwd, transcript, mode = sys.argv[1:5]
data = {"session_id": "bench-session", "transcript_path": transcript, "cwd": cwd, "hook_event_name": "Stop",
        "stop_hook_active": True, "prompt_id": "bench-prompt", "permission_mode": "default"}
if mode == "with-message":
    data["last_assistant_message"] = "Still working on the parser; the offset fix is next."
json.dump(data, open(path, "w"))
PY
}

setup_loop() { # PROJECT SLASH-COMMAND-TEXT
    (cd "$1" && printf '%s' "$2" | "$bin" setup --args-stdin --session-id "$session" >/dev/null)
}

# A project that is a git work tree with a realistic amount of source: loopgate's own tree at HEAD.
git_project() { # DIR
    mkdir -p "$1"
    git -C "$repo" archive HEAD | tar -x -C "$1"
    git -C "$1" init -q
    git -C "$1" add -A
    git -C "$1" -c user.name=bench -c user.email=bench@example.com commit -q -m init
}

say "creating projects and transcripts in $work"
mkdir -p "$work/idle"
# Every timed command gets a project of its own: a stop appends to the history and the seal's mark re-hashes this
# loop's part of it, so commands sharing a loop would each pay for the runs of the ones before.
loop_project() { # NAME FLAGS: a git work tree with loopgate's own sources and a loop started with FLAGS
    git_project "$work/$1"
    setup_loop "$work/$1" "\"make the parser handle unicode\" --max-iterations 0 $2"
}
for mib in msg "${sizes[@]}"; do
    loop_project "nostall-$mib" "--stall-limit 0 --no-checkpoints"  # progress probe and checkpoints off
    loop_project "default-$mib" ""                    # the default: probe on (--stall-limit 10), checkpoints on
    # The baseline keeps its own copy of the state file (it rewrites it; loopgate would call that tampering).
    mkdir -p "$work/baseline-$mib/.claude"
    cp "$work/nostall-$mib/.claude/pua-loop.local.md" "$work/baseline-$mib/.claude/"
done
loop_project still "--stall-limit 1000000"          # probe on, a tree that never changes, a limit never reached
loop_project nockpt-msg "--no-checkpoints"          # probe on, checkpoints off: what a checkpoint adds
# A repository of 10,000 files (100 directories, 5 MiB), as in the divan benches, with and without checkpoints; its
# index refreshed a second after the commit (files as old as their index are "racily clean" and re-read).
big_project() { # NAME FLAGS
    mkdir -p "$work/$1"
    python3 -c 'import os, sys
for i in range(10000):
    d = os.path.join(sys.argv[1], "tests/d%d" % (i % 100)); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "f%d.rs" % i), "wb").write(b"x" * 512)' "$work/$1"
    git -C "$work/$1" init -q && git -C "$work/$1" add -A
    git -C "$work/$1" -c user.name=bench -c user.email=bench@example.com commit -q -m init
    sleep 1.1 && git -C "$work/$1" update-index -q --refresh
    setup_loop "$work/$1" "\"make the parser handle unicode\" --max-iterations 0 $2"
}
big_project big-default ""
big_project big-nockpt "--no-checkpoints"
for mib in "${sizes[@]}"; do
    say "  transcript of $mib MiB"
    transcript "$work/t$mib.jsonl" "$mib"
    for project in "nostall-$mib" "default-$mib" "baseline-$mib"; do
        stop_input "$work/$project.json" "$work/$project" "$work/t$mib.jsonl" without-message
    done
done
stop_input "$work/baseline-idle.json" "$work/idle" "$work/t1.jsonl" without-message
for project in idle nostall-msg default-msg still nockpt-msg big-default big-nockpt; do
    stop_input "$work/$project.json" "$work/$project" "$work/t1.jsonl" with-message
done

# Each stop in a default project must see a change (as when the agent edits code), or the stall breaker would
# pause the loop after 10 stops and later runs would measure the no-loop fast path.
edit() { echo "echo edit >> $work/$1/README.md"; }

# ---------------------------------------------------------------------------------------------------------------
# 1. The Stop hook, every case side by side
# ---------------------------------------------------------------------------------------------------------------
cmds=() preps=()
add() { cmds+=(-n "$1" "$2"); preps+=(--prepare "$3"); }
add "floor: /bin/true (process start)" "/bin/true < $work/idle.json" true
add "loopgate: no loop" "$bin hook stop < $work/idle.json" true
add "baseline: no loop" "cd $work/idle && bash $baseline < $work/baseline-idle.json" true
add "loopgate: loop, message in input, --stall-limit 0 --no-checkpoints" "$bin hook stop < $work/nostall-msg.json" true
add "loopgate: loop, message in input, default (probe on), tree changed" "$bin hook stop < $work/default-msg.json" "$(edit default-msg)"
add "loopgate: loop, message in input, probe on, --no-checkpoints, tree changed" "$bin hook stop < $work/nockpt-msg.json" "$(edit nockpt-msg)"
add "loopgate: loop, message in input, probe on, tree unchanged (checkpoint reused)" "$bin hook stop < $work/still.json" true
add "loopgate: loop, 10,000 files, default, 1 file changed" "$bin hook stop < $work/big-default.json" "echo edit >> $work/big-default/tests/d1/f1.rs"
add "loopgate: loop, 10,000 files, --no-checkpoints, 1 file changed" "$bin hook stop < $work/big-nockpt.json" "echo edit >> $work/big-nockpt/tests/d1/f1.rs"
for mib in "${sizes[@]}"; do
    add "loopgate: loop, transcript fallback $mib MiB, --stall-limit 0 --no-checkpoints" "$bin hook stop < $work/nostall-$mib.json" true
    add "loopgate: loop, transcript fallback $mib MiB, default (probe on)" "$bin hook stop < $work/default-$mib.json" "$(edit "default-$mib")"
    add "baseline: loop, transcript $mib MiB" "cd $work/baseline-$mib && bash $baseline < $work/baseline-$mib.json" true
done
say "1/5 hook stop (hyperfine)"
hyperfine "${runs[@]}" --style basic "${preps[@]}" \
    --export-json "$out/hook-stop.json" --export-markdown "$out/hook-stop.md" "${cmds[@]}" >&2
# Sanity: the loops were running (not stalled, not ended) all along, so every run measured the loop path.
for state in "$work"/{nostall,default,baseline,big}-*/.claude/pua-loop.local.md "$work"/{still,nockpt-msg}/.claude/pua-loop.local.md; do
    grep -q '^status: running' "$state" \
        || { echo "bench: $state is no longer a running loop; its timings are not the loop path" >&2; exit 1; }
done

# ---------------------------------------------------------------------------------------------------------------
# 2. The verify runner: overhead over running the command directly, and peak memory with 1 GiB of output
# ---------------------------------------------------------------------------------------------------------------
mkdir -p "$work/verify-true" "$work/verify-seq" "$work/verify-loud"
setup_loop "$work/verify-true" "\"verify overhead\" --verify 'true' --stall-limit 0"
setup_loop "$work/verify-seq" "\"verify overhead\" --verify 'seq 1 200000' --stall-limit 0"
setup_loop "$work/verify-loud" "\"verify memory\" --verify 'head -c 1073741824 /dev/zero; exit 1' --stall-limit 0"
say "2/5 verify runner (hyperfine)"
hyperfine "${runs[@]}" --style basic -N \
    --export-json "$out/verify.json" --export-markdown "$out/verify.md" \
    -n "sh -c 'true' (directly)" "/bin/sh -c true" \
    -n "loopgate verify: true" "env CLAUDE_PROJECT_DIR=$work/verify-true $bin verify" \
    -n "sh -c 'seq 1 200000' (directly, 1.3 MB of output)" "/bin/sh -c 'seq 1 200000'" \
    -n "loopgate verify: seq 1 200000" "env CLAUDE_PROJECT_DIR=$work/verify-seq $bin verify" >&2
peak() { # prints "peak RSS KiB, wall seconds" of a command
    /usr/bin/time -f '%M %e' "$@" 2>&1 >/dev/null | tail -n 1
}
say "    peak memory, 1 GiB of output"
read -r rss_verify secs_verify < <(cd "$work/verify-loud" && peak "$bin" verify)
stop_input "$work/loud-promise.json" "$work/verify-loud" "$work/t1.jsonl" with-message
python3 - "$work/loud-promise.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1])); data["last_assistant_message"] = "Done. <promise>LOOP_DONE</promise>"
json.dump(data, open(sys.argv[1], "w"))
PY
read -r rss_stop secs_stop < <(peak sh -c "$bin hook stop < $work/loud-promise.json")
read -r rss_direct secs_direct < <(peak sh -c 'head -c 1073741824 /dev/zero | cat >/dev/null')
log_bytes=$(cat "$work/verify-loud/.claude/loopgate/"*.log | wc -c)

# ---------------------------------------------------------------------------------------------------------------
# 3. `loopgate status` over a history of 100,000 records
# ---------------------------------------------------------------------------------------------------------------
history_file() { # PROJECT CURRENT-LOOP-RECORDS: 100,000 records in all, the last ones the running loop's
    python3 - "$1/.claude/pua-loop-history.jsonl" "$2" "$(sed -n 's/^loop_id: //p' "$1/.claude/pua-loop.local.md")" <<'PY'
import json, sys
path, current, loop_id = sys.argv[1], int(sys.argv[2]), sys.argv[3]
dump = lambda v: json.dumps(v, separators=(",", ":"))
tail = "".join(f"test parser::case_{i} ... FAILED\n" for i in range(40))[-2048:]
def record(lid, i):
    r = {"loop_id": lid, "iteration": i, "timestamp": "2026-11-21T00:00:00Z"}
    if i % 10 in (3, 6, 9):  # a rejected promise: the verify facts, as the Stop hook records them
        r.update(status="promise_rejected", verify_exit=101, verify_signal=None, timed_out=False, duration_ms=2311,
                 verify_tail=tail, fingerprint="0123456789abcdef", summary="failing: parser::case_7\nassertion failed",
                 log=".claude/loopgate/verify-x.log", passed=False, zero_tests=False, score=None, note=None, rejections=i // 3)
    else:
        r.update(status="continue", tree_changed=True, diff_stat="3 files changed, 12 insertions(+), 4 deletions(-)")
    return dump(r)
with open(path) as f:
    existing = f.read()  # the running loop's `init`, written by setup
old = 100_000 - current - existing.count("\n")
with open(path, "w") as f:
    for n in range(old):
        f.write(record(f"lg-20261001T000000Z-{n // 1000:06x}", n % 1000 + 1) + "\n")
    f.write(existing)
    for i in range(current):
        f.write(record(loop_id, i + 1) + "\n")
PY
}
for kind in typical worst fresh; do
    mkdir -p "$work/status-$kind"
    setup_loop "$work/status-$kind" '"status over a long history" --verify "true"'
done
history_file "$work/status-typical" 1000   # 99 old loops, the running one has 1,000 records
history_file "$work/status-worst" 99999    # the running loop owns all 100,000 records
history_bytes=$(wc -c < "$work/status-typical/.claude/pua-loop-history.jsonl")
say "3/5 status (hyperfine)"
hyperfine "${runs[@]}" --style basic \
    --export-json "$out/status.json" --export-markdown "$out/status.md" \
    -n "status: fresh loop, 1 record" "CLAUDE_PROJECT_DIR=$work/status-fresh $bin status" \
    -n "status: 100,000 records, running loop has 1,000" "CLAUDE_PROJECT_DIR=$work/status-typical $bin status" \
    -n "status: 100,000 records, all the running loop's" "CLAUDE_PROJECT_DIR=$work/status-worst $bin status" >&2

# ---------------------------------------------------------------------------------------------------------------
# 4. The PreToolUse guard, whole process
# ---------------------------------------------------------------------------------------------------------------
guard_input() { # FILE PROJECT TOOL INPUT-JSON
    python3 -c 'import json,sys; json.dump({"session_id":"bench-session","cwd":sys.argv[2],"hook_event_name":"PreToolUse","tool_name":sys.argv[3],"tool_input":json.loads(sys.argv[4])}, open(sys.argv[1],"w"))' "$@"
}
guard_input "$work/g-bash.json" "$work/nostall-msg" Bash '{"command":"cargo test -p parser 2>&1 | tail -n 40"}'
guard_input "$work/g-write.json" "$work/nostall-msg" Write "{\"file_path\":\"$work/nostall-msg/src/lib.rs\",\"content\":\"fn main() {}\"}"
guard_input "$work/g-deny.json" "$work/nostall-msg" Bash '{"command":"echo iteration: 99 > .claude/pua-loop.local.md"}'
guard_input "$work/g-idle.json" "$work/idle" Bash '{"command":"cargo test"}'
guard_input "$work/g-read.json" "$work/nostall-msg" Read "{\"file_path\":\"$work/nostall-msg/src/lib.rs\"}"
guard_input "$work/g-read-idle.json" "$work/idle" Read "{\"file_path\":\"$work/idle/README.md\"}"
# Sanity: the guard is on (the state-file write is denied, the others are allowed).
"$bin" hook pre-tool-use < "$work/g-deny.json" | grep -q '"permissionDecision":"deny"' \
    || { echo "bench: the guard did not deny a write to the state file" >&2; exit 1; }
for allowed in bash write idle read read-idle; do
    [ -z "$("$bin" hook pre-tool-use < "$work/g-$allowed.json")" ] || { echo "bench: the guard denied g-$allowed" >&2; exit 1; }
done
say "4/5 PreToolUse guard (hyperfine)"
hyperfine "${runs[@]}" --style basic \
    --export-json "$out/guard.json" --export-markdown "$out/guard.md" \
    -n "guard: no loop" "$bin hook pre-tool-use < $work/g-idle.json" \
    -n "guard: no loop, Read (any tool: the matcher is *)" "$bin hook pre-tool-use < $work/g-read-idle.json" \
    -n "guard: loop, Read (not inspected; notes the tool call)" "$bin hook pre-tool-use < $work/g-read.json" \
    -n "guard: loop, Bash allowed" "$bin hook pre-tool-use < $work/g-bash.json" \
    -n "guard: loop, Write allowed" "$bin hook pre-tool-use < $work/g-write.json" \
    -n "guard: loop, Bash denied (writes the state file)" "$bin hook pre-tool-use < $work/g-deny.json" >&2

# ---------------------------------------------------------------------------------------------------------------
# 5. In-process benches (divan): sealed-tree hashing, parsers, history reading
# ---------------------------------------------------------------------------------------------------------------
if $divan; then
    say "5/5 divan benches"
    (cd "$repo" && cargo bench --locked --bench core 2>/dev/null) > "$out/divan.txt"
else
    echo "(not run: --no-divan)" > "$out/divan.txt"
fi

# ---------------------------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------------------------
python3 - "$out" "$history_bytes" "$load_start" "$rss_verify" "$secs_verify" "$rss_stop" "$secs_stop" "$rss_direct" "$secs_direct" "$log_bytes" "${sizes[*]}" <<'PY'
import json, os, platform, subprocess, sys
out, history_bytes, load_start = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rss_verify, secs_verify, rss_stop, secs_stop, rss_direct, secs_direct, log_bytes = sys.argv[4:11]
sizes = sys.argv[11].split()
ms = lambda v: f"{v * 1000:.2f} ms"
def table(name):
    data = json.load(open(os.path.join(out, name + ".json")))["results"]
    print("| command | median | mean ± σ | min | max | runs |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in data:
        print(f"| {r['command']} | {ms(r['median'])} | {ms(r['mean'])} ± {ms(r['stddev'])} | {ms(r['min'])} | {ms(r['max'])} | {len(r['times'])} |")
    return {r["command"]: r for r in data}
print("### Stop hook\n")
stop = table("hook-stop")
print("\nBaseline ÷ loopgate (medians; the same decision, side by side in the run above):\n")
print("| case | baseline | loopgate `--stall-limit 0 --no-checkpoints` | ratio | loopgate default | ratio |")
print("|---|---:|---:|---:|---:|---:|")
med = lambda name: stop[name]["median"]
print(f"| no loop | {ms(med('baseline: no loop'))} | {ms(med('loopgate: no loop'))} | {med('baseline: no loop') / med('loopgate: no loop'):.1f}× | — | — |")
for mib in sizes:
    b = med(f"baseline: loop, transcript {mib} MiB")
    n = med(f"loopgate: loop, transcript fallback {mib} MiB, --stall-limit 0 --no-checkpoints")
    d = med(f"loopgate: loop, transcript fallback {mib} MiB, default (probe on)")
    print(f"| loop, {mib} MiB transcript | {ms(b)} | {ms(n)} | {b / n:.0f}× | {ms(d)} | {b / d:.0f}× |")
print("\nWhat a checkpoint adds to a stop (medians, tree changed, probe on in both):\n")
print("| project | checkpoints on (default) | `--no-checkpoints` | difference |")
print("|---|---:|---:|---:|")
for name, on, off in [
    ("loopgate's own tree", "loopgate: loop, message in input, default (probe on), tree changed",
     "loopgate: loop, message in input, probe on, --no-checkpoints, tree changed"),
    ("10,000 files", "loopgate: loop, 10,000 files, default, 1 file changed",
     "loopgate: loop, 10,000 files, --no-checkpoints, 1 file changed"),
]:
    print(f"| {name} | {ms(med(on))} | {ms(med(off))} | {ms(med(on) - med(off))} |")
print("\n### Verify runner\n")
table("verify")
print(f"\nPeak RSS with 1 GiB of verify output: `loopgate verify` {int(rss_verify) / 1024:.1f} MiB ({secs_verify} s), "
      f"`loopgate hook stop` judging a promise {int(rss_stop) / 1024:.1f} MiB ({secs_stop} s); "
      f"`head -c 1GiB /dev/zero | cat` alone: {int(rss_direct) / 1024:.1f} MiB ({secs_direct} s). "
      f"Verify logs kept on disk: {int(log_bytes) / 1048576:.1f} MiB.")
print(f"\n### `loopgate status` (history of {history_bytes / 1048576:.0f} MiB)\n")
table("status")
print("\n### PreToolUse guard\n")
table("guard")
print("\n### divan (in-process)\n\n```")
print(open(os.path.join(out, "divan.txt")).read().rstrip())
print("```\n")
cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
keep = ("Architecture", "Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket", "Hypervisor vendor", "L2 cache", "L3 cache")
print("### Machine\n\n```")
print("\n".join(l for l in cpu.splitlines() if l.split(":")[0].strip() in keep))
print(f"Kernel: {platform.system()} {platform.release()}")
print(f"Load average (1, 5, 15 min) at the start: {load_start}; at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
print("```")
PY
