#!/usr/bin/env bash
# Honest runs keep their verdict in the clean room (issue 29, item 1): real open-source projects fetched from
# their registries, each with its own test suite, set up twice with loopgate — once in the room's own tree
# (the default: a private copy mounted at the project's path) and once in the project's own tree
# (`LOOPGATE_ROOM_TREE=0`) — and the baselines loopgate recorded compared test by test: exit, totals and every
# test's outcome must match. A difference is a defect of the room, not a tuning knob.
#
#   scripts/room-honest.sh            # every project
#   PROJECTS="click server" scripts/room-honest.sh
#   LOOPGATE_BIN=target/debug/loopgate scripts/room-honest.sh
#   ROOM_TREE=copy scripts/room-honest.sh   # the room's tree copied at its own path (what macOS gets)
#
# Projects (pinned versions; the registries must be reachable):
#   crate    `semver` 1.0.26 from crates.io (`cargo test`: unit, integration and doc tests; builds into the tree)
#   click    `click` 8.1.8 sdist from PyPI (`pytest`: 650 tests, many write files in the tree's temporary
#            directories, read `$HOME` through `expanduser`, and run subprocesses)
#   server   `pytest-localserver` 0.10.0.post0 sdist from PyPI (`pytest`: its tests start local HTTP, HTTPS and SMTP
#            servers and talk to them; needs `werkzeug` and `requests` installed, as its users have them)
#   npm      `minimist` 1.2.8 from npm (`tape` tests, with `tape` installed into its node_modules as the user
#            would: the room mounts the user's node_modules)
# Needs cargo, python3 with pytest, node and npm, curl, pip. (The Go module proxy was not reachable from the
# machine this was written on, so the local-service project is a Python one.)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# `LOOPGATE_BIN` runs a loopgate already built (timing does not matter here).
if [ -z "${LOOPGATE_BIN:-}" ]; then
    cargo build --release --locked --manifest-path "$repo/Cargo.toml" >&2
fi
bin="${LOOPGATE_BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/loopgate}"
work=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-room-honest.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID PYTEST_ADDOPTS CARGO_TARGET_DIR

wanted() { case " ${PROJECTS:-crate click server npm} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# The baseline of `verify` in the project at `dir`, set up with the environment `env…`, as JSON (exit, counts,
# per-test results), on stdout.
baseline() {
    local dir=$1 verify=$2 home=$3
    shift 3
    (cd "$dir" && env LOOPGATE_HOME="$home" "$@" "$bin" setup --session-id S --verify "$verify" \
        --verify-timeout 1200 "keep the tests passing" >/dev/null)
    (cd "$dir" && env LOOPGATE_HOME="$home" "$bin" status | grep 'tree:' >&2)
    python3 - "$home" <<'END'
import glob, json, sys
[path] = glob.glob(sys.argv[1] + "/**/*.baseline.json", recursive=True)
b = json.load(open(path))
print(json.dumps({"exit": b["exit"], "counts": b.get("counts"), "results": b["results"]}, sort_keys=True))
END
    (cd "$dir" && env LOOPGATE_HOME="$home" "$bin" cancel >/dev/null 2>&1 || true)
}

# Sets `dir` up in the room and out of it, and compares.
compare() {
    local name=$1 dir=$2 verify=$3
    git -C "$dir" init -q && git -C "$dir" add -A && git -C "$dir" -c user.name=b -c user.email=b@b commit -qm init
    local inside outside
    # shellcheck disable=SC2086 # empty, or one word
    inside=$(baseline "$dir" "$verify" "$work/home-$name-room" ${ROOM_TREE:+LOOPGATE_ROOM_TREE=$ROOM_TREE})
    git -C "$dir" clean -qfdx -e node_modules
    outside=$(baseline "$dir" "$verify" "$work/home-$name-tree" LOOPGATE_ROOM_TREE=0)
    python3 - "$name" "$inside" "$outside" <<'END'
import json, sys
name, a, b = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
tests = a["results"].get("tests", {})
passed = sum(1 for o in tests.values() if o == "passed")
line = f"{name}: exit {a['exit']} / {b['exit']}, {len(tests)} tests by name ({passed} passed), counts {a['counts']}"
if a != b:
    only = sorted(set(a["results"].get("tests", {}).items()) ^ set(b["results"].get("tests", {}).items()))
    print(f"DIFFER {line}\n  room vs project's tree: {only[:20]}\n  counts {a['counts']} vs {b['counts']}")
    sys.exit(1)
print(f"same   {line}")
END
}

status=0
if wanted crate; then
    mkdir -p "$work/crate" && curl -fsSL https://static.crates.io/crates/semver/semver-1.0.26.crate | tar xz --no-same-owner -C "$work/crate"
    compare crate "$work/crate/semver-1.0.26" "cargo test" || status=1
fi
if wanted click; then
    (cd "$work" && pip download -q --no-binary :all: --no-deps click==8.1.8 -d "$work/dl" && tar xzf "$work"/dl/click-8.1.8.tar.gz --no-same-owner)
    compare click "$work/click-8.1.8" "PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider -W ignore::pytest.PytestRemovedIn10Warning tests" || status=1
fi
if wanted server; then
    (cd "$work" && pip download -q --no-binary :all: --no-deps pytest-localserver==0.10.0.post0 -d "$work/dl" &&
        tar xzf "$work"/dl/pytest_localserver-0.10.0.post0.tar.gz --no-same-owner)
    compare server "$work/pytest_localserver-0.10.0.post0" "PYTHONPATH=. python3 -m pytest -q -p no:cacheprovider tests" || status=1
fi
if wanted npm; then
    (cd "$work" && npm pack -q minimist@1.2.8 >/dev/null && mkdir npm && tar xzf minimist-1.2.8.tgz --no-same-owner -C npm)
    (cd "$work/npm/package" && npm install -q --no-save --no-audit --no-fund tape@5 >/dev/null)
    compare npm "$work/npm/package" "node_modules/.bin/tape 'test/*.js'" || status=1
fi
exit $status
