#!/bin/sh
# Installs the Claude Code CLI version the end-to-end suite is pinned to into .tools/ of this repository
# (gitignored) and prints the path of the `claude` binary. Idempotent: does nothing when that version is
# already there. The e2e tests find it at .tools/node_modules/.bin/claude (or $LOOPGATE_CLAUDE_BIN).
#
#   scripts/install-claude.sh            # install if needed, print the path
#   CLAUDE_CODE_VERSION=x.y.z scripts/install-claude.sh   # another version (the suite checks for its pin)
set -eu

version=${CLAUDE_CODE_VERSION:-2.1.197}
repo=$(cd "$(dirname "$0")/.." && pwd)
tools="$repo/.tools"
bin="$tools/node_modules/.bin/claude"

installed() {
    [ -x "$bin" ] && DISABLE_AUTOUPDATER=1 "$bin" --version 2>/dev/null | grep -q "^$version "
}

if ! installed; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "install-claude: npm is needed to install @anthropic-ai/claude-code@$version (install Node.js 18+ and npm)" >&2
        exit 1
    fi
    mkdir -p "$tools"
    echo "install-claude: installing @anthropic-ai/claude-code@$version into $tools" >&2
    npm install --prefix "$tools" --no-audit --no-fund --no-save --loglevel=error \
        "@anthropic-ai/claude-code@$version" >&2
    if ! installed; then
        echo "install-claude: $bin is not a working Claude Code $version after npm install" >&2
        exit 1
    fi
fi

echo "$bin"
