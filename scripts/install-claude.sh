#!/bin/sh
# Installs the Claude Code CLI versions the end-to-end suite runs against (tests/e2e/claude-versions.txt, the
# one list) into .tools/VERSION/ of this repository (gitignored) and prints the path of each `claude` binary,
# one per line, in the list's order. Idempotent: a version already there is left alone. The e2e harness finds
# VERSION's binary at .tools/VERSION/node_modules/.bin/claude (or at $LOOPGATE_CLAUDE_BIN).
#
#   scripts/install-claude.sh                   # every listed version
#   scripts/install-claude.sh 2.1.330           # only these (each must be in the list)
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
list="$repo/tests/e2e/claude-versions.txt"
listed=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
[ "$#" -gt 0 ] || set -- $listed

installed() { # VERSION BIN
    [ -x "$2" ] && DISABLE_AUTOUPDATER=1 "$2" --version 2>/dev/null | grep -q "^$1 "
}

for version in "$@"; do
    if ! printf '%s\n' "$listed" | grep -qx "$version"; then
        echo "install-claude: $version is not in $list; add it there first" >&2
        exit 2
    fi
    prefix="$repo/.tools/$version"
    bin="$prefix/node_modules/.bin/claude"
    if ! installed "$version" "$bin"; then
        if ! command -v npm >/dev/null 2>&1; then
            echo "install-claude: npm is needed to install @anthropic-ai/claude-code@$version (install Node.js 18+ and npm)" >&2
            exit 1
        fi
        mkdir -p "$prefix"
        echo "install-claude: installing @anthropic-ai/claude-code@$version into $prefix" >&2
        npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
            "@anthropic-ai/claude-code@$version" >&2
        if ! installed "$version" "$bin"; then
            echo "install-claude: $bin is not a working Claude Code $version after npm install" >&2
            exit 1
        fi
    fi
    echo "$bin"
done
