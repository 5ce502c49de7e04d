#!/usr/bin/env bash
# What the start hooks' record costs each process that loads a hook (`room::hook::record`): Python's
# `sitecustomize.py`, taken from the source and laid out as the room lays it out (`hook/python/`, the socket at
# `report/hook.sock`), started three ways side by side in one hyperfine run — with no hook, with the hook and
# nothing listening (it finds no socket and sends nothing), and with the hook connecting and sending its key to a
# listener (socat, standing in for loopgate's accepting thread). Every Python process of an oracle's run pays the
# third; a unittest process also signs each event it sends.
#
#   scripts/bench-hook-record.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine socat; do
    command -v "$tool" >/dev/null || { echo "bench-hook-record: $tool is needed (apt-get install $tool)" >&2; exit 2; }
done
# The interpreter itself, not a version manager's shim in front of it.
python=$(python3 -c 'import sys; print(sys.executable)')
room=$(mktemp -d)
listener=
trap '[ -z "$listener" ] || kill "$listener" 2>/dev/null; rm -rf "$room"' EXIT
mkdir -p "$room/hook/python" "$room/report" "$room/idle/hook/python" "$room/idle/report"
cp src/ecosystem/python/sitecustomize.py "$room/hook/python/"
cp src/ecosystem/python/sitecustomize.py "$room/idle/hook/python/"
socat UNIX-LISTEN:"$room/report/hook.sock",fork OPEN:/dev/null </dev/null >/dev/null 2>&1 &
listener=$!
for _ in $(seq 50); do [ -S "$room/report/hook.sock" ] && break; sleep 0.1; done
hyperfine -N --warmup 5 --runs "${RUNS:-200}" \
    -n 'python -c pass (no hook)' "$python -c pass" \
    -n 'with the hook, no socket' "env PYTHONPATH=$room/idle/hook/python $python -c pass" \
    -n 'with the hook, connected' "env PYTHONPATH=$room/hook/python $python -c pass"
