#!/usr/bin/env bash
# What the snapshot of the oracle's world costs (issue 39, item 1): setup and the promise with and without it,
# side by side in one hyperfine run each, on a project whose tests read a large `node_modules` above the project
# (or a venv: `KIND=venv`), and the snapshot's disk against what it holds.
#
#   scripts/bench-snapshot.sh            # FILES=5000 files read (+ as many never read), 8 KiB each
#
# "without" is `LOOPGATE_SNAPSHOT=0` at setup (everything else as the default: the room's mounted tree, the
# scratch, the trace); "with" is the default. A promise is measured as `loopgate verify` (the same judge). Needs
# hyperfine, node (KIND=node) or python3 (KIND=venv), git, strace.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${LOOPGATE_BIN:-}" ]; then
    bin=$(cd "$(dirname "$LOOPGATE_BIN")" && pwd)/$(basename "$LOOPGATE_BIN")
else
    cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
    bin="${CARGO_TARGET_DIR:-$repo/target}/release/loopgate"
fi
files=${FILES:-5000}
kind=${KIND:-node}
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-snapshot.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp" && export TMPDIR="$work/tmp"

# The place outside the project: `files` modules the tests load, and as many they never load.
python3 - "$work" "$files" "$kind" <<'EOF'
import os, sys
work, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
body = "// " + "x" * 8000 + "\n"
if kind == "node":
    place = os.path.join(work, "node_modules")
    for i in range(2 * n):
        d = os.path.join(place, f"pkg{i}")
        os.makedirs(d)
        open(os.path.join(d, "index.js"), "w").write(body + f"module.exports = {i};\n")
        # The manifest npm unpacks with every package (what makes the snapshot link, not copy, its files).
        open(os.path.join(d, "package.json"), "w").write(f'{{"name": "pkg{i}", "version": "1.0.0"}}\n')
    for side in ("with", "without"):
        p = os.path.join(work, side)
        os.makedirs(os.path.join(p, "test"))
        open(os.path.join(p, "package.json"), "w").write('{"name": "b", "version": "1.0.0"}\n')
        open(os.path.join(p, "test", "load.test.js"), "w").write(
            "const test = require('node:test');\nconst assert = require('node:assert');\n"
            f"test('loads', () => {{ let s = 0; for (let i = 0; i < {n}; i++) s += require('pkg' + i); "
            f"assert.strictEqual(s, {n * (n - 1) // 2}); }});\n")
else:
    place = os.path.join(work, "venv/lib/python3/site-packages")
    body = "# " + "x" * 8000 + "\n"
    for i in range(2 * n):
        d = os.path.join(place, f"pkg{i}")
        os.makedirs(d)
        open(os.path.join(d, "__init__.py"), "w").write(body + f"V = {i}\n")
        # What pip records of each distribution it installs.
        info = os.path.join(place, f"pkg{i}-1.0.dist-info")
        os.makedirs(info)
        open(os.path.join(info, "RECORD"), "w").write(f"pkg{i}/__init__.py,,\npkg{i}-1.0.dist-info/RECORD,,\n")
    for side in ("with", "without"):
        p = os.path.join(work, side)
        os.makedirs(os.path.join(p, "tests"))
        open(os.path.join(p, "tests", "__init__.py"), "w").write("")
        open(os.path.join(p, "tests", "test_load.py"), "w").write(
            "import importlib, unittest\n\nclass T(unittest.TestCase):\n    def test_loads(self):\n"
            f"        self.assertEqual(sum(importlib.import_module(f'pkg{{i}}').V for i in range({n})), {n * (n - 1) // 2})\n")
EOF
if [ "$kind" = node ]; then
    verify="node --test"
else
    verify="python3 -m unittest discover -s tests -t ."
    export PYTHONPATH="$work/venv/lib/python3/site-packages" PYTHONDONTWRITEBYTECODE=1
fi
for side in with without; do
    git -C "$work/$side" init -q && git -C "$work/$side" add -A
    git -C "$work/$side" -c user.name=b -c user.email=b@b commit -qm init
done

echo "== setup, $files files read outside the project ($kind)"
hyperfine --warmup 1 --runs "${RUNS:-5}" \
    --prepare "rm -rf $work/lg-without $work/without/.claude" \
    --prepare "rm -rf $work/lg-with $work/with/.claude" \
    -n "setup, without the snapshot" "cd $work/without && LOOPGATE_HOME=$work/lg-without LOOPGATE_SNAPSHOT=0 $bin setup --session-id S --verify '$verify' 'fix it' >/dev/null" \
    -n "setup, with the snapshot" "cd $work/with && LOOPGATE_HOME=$work/lg-with $bin setup --session-id S --verify '$verify' 'fix it' >/dev/null"

echo "== promise (loopgate verify), warm"
# The first promise after setup builds the snapshot's layer and, where objects are linked to the held files, reads
# each once (their change times moved when they were linked): measured on its own, CPU seconds (user + sys).
for side in with without; do
    out=$(cd "$work/$side" && LOOPGATE_HOME=$work/lg-$side /usr/bin/time -f "first promise, $side the snapshot: %U user + %S sys" -a -o "$work/first" "$bin" verify 2>&1) || {
        echo "the run $side the snapshot failed:" >&2
        echo "$out" | head -20 >&2
        exit 1
    }
done
cat "$work/first"
hyperfine --warmup 1 --runs "${RUNS:-10}" \
    -n "bare \`$verify\`" "cd $work/with && $verify >/dev/null 2>&1" \
    -n "promise, without the snapshot" "cd $work/without && LOOPGATE_HOME=$work/lg-without $bin verify >/dev/null" \
    -n "promise, with the snapshot" "cd $work/with && LOOPGATE_HOME=$work/lg-with $bin verify >/dev/null"

store=$(ls -d "$work"/lg-with/rooms/*.snapshot)
seal=$(ls "$work"/lg-with/seals/*.snapshot.json)
held=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["files"]; print(len(d), sum(v["stat"]["size"] for v in d.values() if "stat" in v))' "$seal")
# What the store adds to the disk: its directories' blocks and the blocks of the objects that are copies. A
# linked object (`*.l`, a hard link to the user's file) and a layer's files (hard links to objects) add none.
kib() { awk '{s += $1} END {print s * 1024}'; }
copies=$(find "$store/objects" -type f ! -name '*.l' -printf '%k\n' | kib)
linked=$(find "$store/objects" -type f -name '*.l' | wc -l)
dirs=$(find "$store" -type d -printf '%k\n' | kib)
echo "held: $(echo "$held" | cut -d' ' -f1) paths, $(echo "$held" | cut -d' ' -f2) bytes; store adds to the disk: $copies bytes of copied objects, $linked objects linked to the held files (no new blocks), $dirs bytes of directories (objects' shards and the layers); file system: $(stat -f -c %T "$store")"
# The same by `du`, which counts an inode once across its arguments: what the objects add beyond the place.
place="$work/node_modules"
[ "$kind" = node ] || place="$work/venv/lib/python3/site-packages"
alone=$(du -sB1 "$place" | cut -f1)
together=$(du -scB1 "$place" "$store/objects" | tail -1 | cut -f1)
held_bytes=$(echo "$held" | cut -d' ' -f2)
echo "du: the place $alone bytes; the place and the store's objects $together bytes: the objects add $((together - alone)) bytes ($((100 * (together - alone) / held_bytes)) % of the $held_bytes bytes held)"
