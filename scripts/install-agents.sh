#!/bin/sh
# Installs the other agent CLIs the agent suite (tests/agents.rs) drives — Codex CLI, Gemini CLI and GitHub
# Copilot CLI, at the versions listed in tests/e2e/AGENT-versions.txt — into
# ${LOOPGATE_TOOLS:-.tools}/AGENT-VERSION/ and prints the path of each binary, one per line. Idempotent: a
# version already there is left alone. Needs npm.
#
#   scripts/install-agents.sh            # every listed version of each
#   scripts/install-agents.sh codex      # only Codex CLI's
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
tools=${LOOPGATE_TOOLS:-$repo/.tools}
[ "$#" -gt 0 ] || set -- codex gemini copilot

for agent in "$@"; do
    case $agent in
        codex) package=@openai/codex ;;
        gemini) package=@google/gemini-cli ;;
        copilot) package=@github/copilot ;;
        *) echo "install-agents: unknown agent $agent (codex, gemini or copilot)" >&2; exit 2 ;;
    esac
    list="$repo/tests/e2e/$agent-versions.txt"
    for version in $(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$'); do
        prefix="$tools/$agent-$version"
        bin="$prefix/node_modules/.bin/$agent"
        if ! { [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "$version"; }; then
            command -v npm >/dev/null 2>&1 || { echo "install-agents: npm is needed to install $package@$version" >&2; exit 1; }
            mkdir -p "$prefix"
            echo "install-agents: installing $package@$version into $prefix" >&2
            npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "$package@$version" >&2
            "$bin" --version 2>/dev/null | grep -q "$version" || { echo "install-agents: $bin is not a working $package $version" >&2; exit 1; }
        fi
        echo "$bin"
    done
done
