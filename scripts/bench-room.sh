#!/usr/bin/env bash
# What the oracle's room costs (issue 29): the promise on a warm cache, in the room and without it, side by side
# in one hyperfine run per project, and the disk the room takes.
#
#   scripts/bench-room.sh
#
# Three sides, each this build, every other check on: "without the room" is `LOOPGATE_ROOM=0` at setup (the
# process's environment, the shared caches, the tree's `__pycache__` and `target/`); "room, project's tree" is
# `LOOPGATE_ROOM_TREE=0` (private caches and the recorded environment, in the project's own tree: the promise
# before the clean-room tree); "in the room" is the default (the room's own tree, synced by stat and mounted at
# the project's path, where user namespaces work).
# A promise is measured as `loopgate verify` (the same judge: seal checks, the test side, the run, the verdict).
# Projects: a pytest project of 1,000 test files (scripts/pytest-project.py), a small cargo project, a cargo
# workspace of three crates (`workspace`), and a jest
# project when `JEST_MODULES` names a node_modules holding jest (the gaming suite installs one in
# target/tmp/gaming-cache/js/node_modules). `PROJECTS="cargo jest"` picks some. Needs hyperfine, python3 with
# pytest, cargo, git.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
for tool in hyperfine python3 git cargo; do
    command -v "$tool" >/dev/null || { echo "bench-room: \`$tool\` is needed" >&2; exit 1; }
done
# `LOOPGATE_BIN` names a build to measure instead of this tree's release build (e.g. a debug build on a busy
# machine: the sides are then compared within that build).
if [ -n "${LOOPGATE_BIN:-}" ]; then
    bin=$(cd "$(dirname "$LOOPGATE_BIN")" && pwd)/$(basename "$LOOPGATE_BIN")
else
    cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
    bin="${CARGO_TARGET_DIR:-$repo/target}/release/loopgate"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-room.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOOPGATE_HOME="$work/home"
# The oracle's run is confined off loopgate's home, so no new entry may appear in the directories above it
# (`$work`, and `/tmp` itself when the work directory is there): the run without the room gets a temporary
# directory that exists beforehand.
mkdir -p "$work/tmp" && export TMPDIR="$work/tmp"
# Bytecode is written, as on a user's machine (a CI image often turns it off).
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS PYTHONDONTWRITEBYTECODE CARGO_TARGET_DIR

# Two copies of a project, one set up in the room and one without it; the baseline runs at setup (cold in the
# room), then one verify each warms what is left to warm.
pair() {
    local name=$1 verify=$2
    cp -r "$work/$name-room" "$work/$name-caches"
    for side in room caches shared; do
        git -C "$work/$name-$side" init -q && git -C "$work/$name-$side" add -A
        git -C "$work/$name-$side" -c user.name=b -c user.email=b@b commit -qm init
        case $side in
            room) (cd "$work/$name-$side" && "$bin" setup --session-id S --verify "$verify" "fix it" >/dev/null) ;;
            caches) (cd "$work/$name-$side" && LOOPGATE_ROOM_TREE=0 "$bin" setup --session-id S --verify "$verify" "fix it" >/dev/null) ;;
            shared) (cd "$work/$name-$side" && LOOPGATE_ROOM=0 "$bin" setup --session-id S --verify "$verify" "fix it" >/dev/null) ;;
        esac
        (cd "$work/$name-$side" && "$bin" verify >/dev/null 2>&1 || true)
    done
    echo "== $name: \`$verify\`, warm"
    hyperfine --warmup 1 --runs "${RUNS:-10}" \
        -n "$name, without the room" "cd $work/$name-shared && $bin verify" \
        -n "$name, room, project's tree" "cd $work/$name-caches && $bin verify" \
        -n "$name, in the room" "cd $work/$name-room && $bin verify"
    local dir
    dir=$(cd "$work/$name-room" && "$bin" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["room"]["dir"])')
    echo "room: $(du -sh "$dir" | cut -f1) (its tree: $(du -sh "$dir/tree" 2>/dev/null | cut -f1); the project: $(du -sh --exclude=.git "$work/$name-room" | cut -f1))"
    (cd "$work/$name-room" && "$bin" status | grep 'tree:')
}

wanted() { case " ${PROJECTS:-pytest cargo workspace jest} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if wanted pytest; then
    python3 "$repo/scripts/pytest-project.py" "$work/pytest-room"
    cp -r "$work/pytest-room" "$work/pytest-shared"
    pair pytest "python3 -m pytest -q"
fi

if wanted cargo; then
    mkdir -p "$work/cargo-room/src" "$work/cargo-room/tests"
    printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' > "$work/cargo-room/Cargo.toml"
    printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n' > "$work/cargo-room/src/lib.rs"
    printf '#[test]\nfn commutes() {\n    assert_eq!(calc::add(2, 5), calc::add(5, 2));\n}\n' > "$work/cargo-room/tests/api.rs"
    cp -r "$work/cargo-room" "$work/cargo-shared"
    pair cargo "cargo test -q"
fi

if wanted workspace; then
    # A cargo workspace of three crates, each with unit and integration tests, the later ones depending on the
    # earlier by path (issue 29's Measure names a workspace).
    mkdir -p "$work/workspace-room"
    printf '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n' > "$work/workspace-room/Cargo.toml"
    previous=""
    for crate in base calc report; do
        dir="$work/workspace-room/crates/$crate"
        mkdir -p "$dir/src" "$dir/tests"
        deps=""
        [ -n "$previous" ] && deps="$previous = { path = \"../$previous\" }"
        printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n%s\n' "$crate" "$deps" > "$dir/Cargo.toml"
        printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n' > "$dir/src/lib.rs"
        for t in 1 2 3; do
            printf '#[test]\nfn commutes_%s() {\n    assert_eq!(%s::add(%s, 5), %s::add(5, %s));\n}\n' "$t" "$crate" "$t" "$crate" "$t" > "$dir/tests/t$t.rs"
        done
        previous=$crate
    done
    cp -r "$work/workspace-room" "$work/workspace-shared"
    pair workspace "cargo test -q --workspace"
fi

if wanted jest && [ -n "${JEST_MODULES:-}" ] && [ -x "$JEST_MODULES/.bin/jest" ]; then
    mkdir -p "$work/jest-room/test" "$work/jest-room/src"
    printf '{"name": "calc", "version": "1.0.0", "scripts": {"test": "jest --ci"}}\n' > "$work/jest-room/package.json"
    printf 'exports.add = (a, b) => a + b;\n' > "$work/jest-room/src/calc.js"
    for i in $(seq 1 50); do
        printf "const calc = require('../src/calc.js');\ntest('adds $i', () => {\n  expect(calc.add($i, 1)).toBe($i + 1);\n});\n" > "$work/jest-room/test/t$i.test.js"
    done
    cp -r "$work/jest-room" "$work/jest-shared"
    ln -s "$JEST_MODULES" "$work/jest-room/node_modules"
    ln -s "$JEST_MODULES" "$work/jest-shared/node_modules"
    pair jest "npm test --silent"
fi
