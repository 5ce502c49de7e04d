#!/bin/sh
# The project's test command (README: "Run the tests"). Installs the Claude Code CLI versions the end-to-end
# suite runs against (tests/e2e/claude-versions.txt), and the Codex CLI and Gemini CLI versions the agent suite
# (tests/agents.rs) runs against (tests/e2e/codex-versions.txt, gemini-versions.txt), into .tools/ (once; needs
# npm), runs every test — unit,
# command-line integration, the end-to-end suite and the install suite (tests/dist.rs) against the first listed
# version — then the end-to-end and install suites again against each other listed version, and the agent suite
# against each other listed Codex CLI and Gemini CLI version. Extra arguments go
# to every cargo test run. The install suite installs what `scripts/dist.sh` packed (CI runs it first; the suite
# runs it for this machine's platform when nothing is packed).
# With LOOPGATE_CLAUDE_BIN set, the end-to-end suite runs once, against that binary.
set -eu
cd "$(dirname "$0")/.."
scripts/install-claude.sh >/dev/null
scripts/install-agents.sh >/dev/null
versions=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' tests/e2e/claude-versions.txt | grep -v '^$')
first=$(printf '%s\n' "$versions" | head -n 1)
if [ -n "${LOOPGATE_CLAUDE_BIN-}" ]; then
    exec cargo test --locked --all-targets "$@"
fi
echo "== all tests (end-to-end against Claude Code $first)" >&2
LOOPGATE_CLAUDE_VERSION=$first cargo test --locked --all-targets "$@"
for version in $(printf '%s\n' "$versions" | tail -n +2); do
    echo "== end-to-end and install suites against Claude Code $version" >&2
    LOOPGATE_CLAUDE_VERSION=$version cargo test --locked --test e2e --test dist "$@"
done
for agent in codex gemini; do
    for version in $(sed -e 's/#.*//' -e 's/[[:space:]]//g' tests/e2e/$agent-versions.txt | grep -v '^$' | tail -n +2); do
        echo "== agent suite against $agent $version" >&2
        env "LOOPGATE_$(echo $agent | tr a-z A-Z)_VERSION=$version" cargo test --locked --test agents "$@" "$agent::"
    done
done
