#!/bin/sh
# The project's test command (README: "Run the tests"). Installs the Claude Code CLI versions the end-to-end
# suite runs against (tests/e2e/claude-versions.txt), and the Codex CLI, Gemini CLI, Copilot CLI and opencode
# versions the agent suite (tests/agents.rs) runs against (tests/e2e/AGENT-versions.txt), into .tools/ (once; needs
# npm; in the background while the tests build), builds every test once, then runs every test — unit,
# command-line integration, the end-to-end suite, the agent suite and the install suite (tests/dist.rs) —
# against the first listed version of each client, then, against each other listed version, the scenarios
# tests/e2e/every-version.txt names (those that exercise what differs between versions; CONTRIBUTING.md, "Which
# scenarios run on which version"). Every pass uses the one build: same flags, same profile, nothing that
# rustc sees changes between them.
#
#   scripts/test.sh                      # as above
#   scripts/test.sh --plan               # build, check tests/e2e/every-version.txt, print the passes; run nothing
#   LOOPGATE_FULL_MATRIX=1 scripts/test.sh
#                                        # every scenario against every listed version (when adding a version)
#   scripts/test.sh [CARGO ARGS] [-- LIBTEST ARGS]
#                                        # extra arguments go to every cargo test run
#   LOOPGATE_GAMING_BINARY=path/to/loopgate scripts/test.sh
#                                        # the gaming suite's cases against that binary (CI: the one it packs)
#   LOOPGATE_GAMING_PROOF_SAMPLE=1 scripts/test.sh
#                                        # every gaming case's proof (by default one in eight, chosen by the
#                                        # commit: tests/gaming.rs, `proof_sampled`)
#
# Each pass prints how long it took. The install suite installs what `scripts/dist.sh` packed (CI runs it first;
# the suite runs it for this machine's platform when nothing is packed).
# With LOOPGATE_CLAUDE_BIN set, the end-to-end suite runs once, against that binary.
set -eu
cd "$(dirname "$0")/.."
plan=no
if [ "${1-}" = --plan ]; then
    plan=yes
    shift
fi

# The caller's arguments, split at the first `--`: cargo's (before) and libtest's (after), each kept quoted
# for `eval`, so that a pass can add its own to either side.
quote() { printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
cargo_args= test_args= seen_dashdash=no
for arg in "$@"; do
    if [ "$seen_dashdash" = no ] && [ "$arg" = -- ]; then
        seen_dashdash=yes
    elif [ "$seen_dashdash" = no ]; then
        cargo_args="$cargo_args$(quote "$arg")"
    else
        test_args="$test_args$(quote "$arg")"
    fi
done

listed() { sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$' || true; }
# The tests of SUITE that tests/e2e/every-version.txt names.
every_version() { sed -e 's/#.*//' tests/e2e/every-version.txt | awk -v suite="$1" 'NF == 2 && $1 == suite { print $2 }'; }
# The tests of SUITE as libtest lists them (the suite must be built).
tests_of() { eval "cargo test --locked --quiet --test $1 $cargo_args -- --list --format terse" | sed -n 's/: test$//p'; }

passes_started=$(date +%s)
took() { # WHAT STARTED
    echo "== $1: $(($(date +%s) - $2)) s" >&2
}

# cargo test --locked TARGETS… [caller's cargo args] -- [caller's libtest args] --exact NAME…, with ENV set.
run_exact() { # ENV NAMES TARGETS...
    env=$1 names=$2
    shift 2
    # No name would be no filter at all: libtest would run the whole suite.
    [ -n "$(printf '%s' "$names" | tr -d '[:space:]')" ] || {
        echo "test: no scenario selected for $env (tests/e2e/every-version.txt)" >&2
        exit 1
    }
    set -f
    # shellcheck disable=SC2086 # the names are words without spaces or glob characters
    eval "set -- \"\$@\" $cargo_args -- $test_args --exact" $names
    set +f
    env "$env" cargo test --locked "$@"
}

# The CLIs install from npm in the background while the tests build (network and disk against the compiler's CPU).
started=$(date +%s)
install_log=$(mktemp)
trap 'rm -f "$install_log"' EXIT
if [ "$plan" = no ]; then
    { scripts/install-claude.sh >/dev/null && scripts/install-agents.sh >/dev/null; } </dev/null >"$install_log" 2>&1 &
    install_pid=$!
fi
echo "== building every test (one build for every pass)" >&2
eval "cargo test --locked --all-targets --no-run $cargo_args"
took "build" "$started"
if [ "$plan" = no ]; then
    if ! wait "$install_pid"; then
        cat "$install_log" >&2
        echo "test: installing the client CLIs failed (output above)" >&2
        exit 1
    fi
    cat "$install_log" >&2
    took "build and CLI installs" "$started"
fi

if [ -n "${LOOPGATE_CLAUDE_BIN-}" ]; then
    [ "$plan" = no ] || { echo "== LOOPGATE_CLAUDE_BIN is set: all tests, once, against it" >&2; exit 0; }
    rm -f "$install_log"
    eval "exec cargo test --locked --all-targets $cargo_args -- $test_args"
fi

# Every name in tests/e2e/every-version.txt must be a test of its suite: a renamed scenario would otherwise stop
# running on the other versions without a word.
for suite in $(sed -e 's/#.*//' tests/e2e/every-version.txt | awk 'NF == 2 { print $1 }' | sort -u); do
    all=$(tests_of "$suite")
    for name in $(every_version "$suite"); do
        printf '%s\n' "$all" | grep -qxF "$name" || {
            echo "test: tests/e2e/every-version.txt names \`$suite $name\`, which \`cargo test --test $suite -- --list\` does not list" >&2
            exit 1
        }
    done
done

versions=$(listed tests/e2e/claude-versions.txt)
first=$(printf '%s\n' "$versions" | head -n 1)
if [ "${LOOPGATE_FULL_MATRIX-}" = 1 ]; then
    e2e_names=$(tests_of e2e) dist_names=$(tests_of dist)
    matrix="every scenario"
else
    e2e_names=$(every_version e2e) dist_names=$(every_version dist)
    matrix="the scenarios in tests/e2e/every-version.txt"
fi
# The agent suite's tests of one agent: `codex::…` and `codex_…`.
agent_names() { # AGENT
    if [ "${LOOPGATE_FULL_MATRIX-}" = 1 ]; then tests_of agents; else every_version agents; fi |
        grep -e "^$1::" -e "^$1_" || true
}

if [ "$plan" = yes ]; then
    echo "== all tests against Claude Code $first and the first listed Codex CLI and Gemini CLI" >&2
    for version in $(printf '%s\n' "$versions" | tail -n +2); do
        echo "== against Claude Code $version, $matrix:" >&2
        printf '  e2e  %s\n' $e2e_names >&2
        printf '  dist %s\n' $dist_names >&2
    done
    for agent in codex gemini; do
        for version in $(listed tests/e2e/$agent-versions.txt | tail -n +2); do
            echo "== agent suite against $agent $version, $matrix:" >&2
            printf '  agents %s\n' $(agent_names "$agent") >&2
        done
    done
    exit 0
fi

# Two lanes. The adversarial suite (tests/gaming.rs) is the longest by far (about 60 % of the passes) and keeps
# about 1.5 of 2 cores busy; the other suites mostly wait on the client CLIs' start-up (an end-to-end batch uses
# about 0.9 of 2 cores). So, where the caller named no targets, the gaming suite runs in the background, its output
# kept in a log printed when it ends, while every other suite and the other versions' passes run in the
# foreground; the one build serves both (cargo's build lock is released once the tests are built). The gaming
# suite is cut into chunks of GAMING_CHUNK tests, files in a queue directory; a lane claims a chunk by renaming
# its file (atomic: a chunk runs once), so once the foreground's own passes are done it takes chunks too, and
# the two lanes end together instead of the foreground idling while the gaming suite runs on alone. Every pass
# runs even after one fails (and within a pass every suite, `--no-fail-fast`), and the script fails at the end if
# any did.
failed=
pass() { # WHAT COMMAND...: run COMMAND, time it, note its failure
    what=$1
    shift
    started=$(date +%s)
    "$@" || failed="$failed
  $what"
    took "$what" "$started"
}
# A lane's loop over the queue ($1, its chunks in $1/todo), run by `sh -c` with the libtest arguments in $2: each
# chunk it claims (moved to $1/taken) runs as one `cargo test --test gaming -- --exact NAME…`. Fails if one did.
# With LOOPGATE_GAMING_BINARY set, the cases play against that loopgate (`LOOPGATE_UNDER_TEST`) instead of this
# build's: CI names the release binary it has just built and packed, so the adversarial suite judges what ships,
# at a release build's speed (BENCHMARKS.md, "CI's time: the gaming suite against the shipped binary").
# shellcheck disable=SC2016 # expanded by the lane's own shell
gaming_lane='status=0
# One proof in eight, an eighth chosen by the commit (tests/gaming.rs, `proof_sampled`); a value the caller set stays.
if [ -z "${LOOPGATE_GAMING_PROOF_SAMPLE+set}" ]; then
    LOOPGATE_GAMING_PROOF_SAMPLE=8:$(git rev-parse HEAD 2>/dev/null || echo none)
    export LOOPGATE_GAMING_PROOF_SAMPLE
fi
echo "== the gaming suite: LOOPGATE_GAMING_PROOF_SAMPLE=$LOOPGATE_GAMING_PROOF_SAMPLE (one proof in N, by a hash of the seed and the case)" >&2
if [ -n "${LOOPGATE_GAMING_BINARY-}" ]; then
    LOOPGATE_UNDER_TEST=$LOOPGATE_GAMING_BINARY
    export LOOPGATE_UNDER_TEST
fi
for chunk in "$1"/todo/*; do
    mv "$chunk" "$1/taken/" 2>/dev/null || continue
    eval "cargo test --locked --test gaming -- $2 --exact $(tr "\n" " " <"$1/taken/${chunk##*/}")" || status=1
done
exit $status'
lane_pid= lane_log= lane_group= queue=
# The lane runs in a session of its own (`setsid`), so that an early exit or Ctrl-C stops it and everything it
# started (a background job of a script ignores SIGINT, and killing cargo would orphan the tests it runs).
stop_lane() {
    if [ -s "$lane_group" ]; then kill -TERM "-$(cat "$lane_group")" 2>/dev/null || true; fi
    rm -rf "$install_log" "$lane_log" "$lane_group" "$queue"
}
if [ -z "$cargo_args" ] && command -v setsid >/dev/null 2>&1; then
    lane_log=$(mktemp) lane_group=$(mktemp) queue=$(mktemp -d)
    trap stop_lane EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir "$queue/todo" "$queue/taken"
    # In libtest's order, so a chunk holds one family's cases (the same fixtures, warm in the caches).
    tests_of gaming | split -l "${GAMING_CHUNK:-20}" -a 3 - "$queue/todo/chunk."
    echo "== the gaming suite, in the background (its output follows the other passes)" >&2
    # shellcheck disable=SC2016 # $$ is the lane's shell's, the leader of its session and process group
    LOOPGATE_CLAUDE_VERSION=$first setsid -w sh -c '
        echo $$ >"$1"
        started=$(date +%s) status=0
        sh -c "$2" lane "$3" "$4" || status=$?
        echo "== the gaming suite, the background lane: $(($(date +%s) - started)) s" >&2
        exit $status' lane "$lane_group" "$gaming_lane" "$queue" "$test_args" >"$lane_log" 2>&1 </dev/null &
    lane_pid=$!
    # Every target `--all-targets` names but the gaming suite: cargo makes a test target of each tests/*.rs.
    targets="--lib --bins --benches --examples"
    for suite in tests/*.rs; do
        suite=$(basename "$suite" .rs)
        [ "$suite" = gaming ] || targets="$targets --test $suite"
    done
    all_but="all tests but the gaming suite"
else
    targets=--all-targets
    all_but="all tests"
fi
echo "== $all_but (end-to-end against Claude Code $first)" >&2
pass "$all_but against Claude Code $first" eval "LOOPGATE_CLAUDE_VERSION=$first cargo test --locked --no-fail-fast $targets $cargo_args -- $test_args"
for version in $(printf '%s\n' "$versions" | tail -n +2); do
    echo "== end-to-end and install suites against Claude Code $version: $matrix" >&2
    pass "end-to-end and install suites against Claude Code $version" \
        run_exact "LOOPGATE_CLAUDE_VERSION=$version" "$e2e_names $dist_names" --test e2e --test dist
done
for agent in codex gemini; do
    for version in $(listed tests/e2e/$agent-versions.txt | tail -n +2); do
        echo "== agent suite against $agent $version: $matrix" >&2
        pass "agent suite against $agent $version" \
            run_exact "LOOPGATE_$(echo $agent | tr a-z A-Z)_VERSION=$version" "$(agent_names "$agent")" --test agents
    done
done
if [ -n "$lane_pid" ]; then
    echo "== the gaming suite's chunks the background lane has not taken, in the foreground" >&2
    pass "the gaming suite's chunks in the foreground" \
        env "LOOPGATE_CLAUDE_VERSION=$first" sh -c "$gaming_lane" lane "$queue" "$test_args"
    echo "== the gaming suite (run in the background; waiting for it)" >&2
    lane_status=0
    wait "$lane_pid" || lane_status=$?
    : >"$lane_group" # it has ended: nothing for stop_lane to stop
    cat "$lane_log"
    [ "$lane_status" -eq 0 ] || failed="$failed
  the gaming suite"
fi
took "scripts/test.sh" "$passes_started"
if [ -n "$failed" ]; then
    echo "test: these passes failed (their output is above):$failed" >&2
    exit 1
fi
