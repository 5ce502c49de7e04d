#!/bin/sh
# The plugin's entry point to the loopgate binary, used by hooks/hooks.json and the slash commands.
#
#   loopgate.sh [--project-dir DIR] ARGS...
#
# Finds the binary and execs it with ARGS. In order: $LOOPGATE_BIN; the prebuilt binary npm put in this
# plugin's node_modules/ (a marketplace install: Claude Code runs `npm ci --ignore-scripts` in the plugin, and npm
# installs only this platform's @loopgate/* package); the binary that `loopgate install` recorded in
# hooks/loopgate.bin of the plugin copy it installed (so an npm-installed loopgate is run directly, not through
# its Node launcher); `loopgate` on PATH; ~/.cargo/bin/loopgate; a build in this plugin's own target/.
# `--project-dir DIR` (used by the slash commands, which get the directory substituted into their text but not
# in their environment) exports CLAUDE_PROJECT_DIR=DIR, so setup and cancel pick the same project root the hooks
# are given; an empty DIR is ignored.
#
# A missing binary must never leave a loop silently dead (a hook exiting 127 is invisible in Claude Code), so:
#   - `hook session-start` tells the user (systemMessage) at every session start;
#   - `hook stop` / `hook pre-tool-use` tell the user when a loop state file exists in the project, and
#     otherwise stay quiet; all hooks exit 0 and fail open (the agent is never trapped);
#   - anything else (setup, cancel, status from a slash command) prints the message and exits 127, which
#     aborts the slash command before the model runs and shows the message to the user.
# This runs before every tool call and at every stop: keep it to shell built-ins on the found path.

if [ "${1-}" = "--project-dir" ]; then
    if [ -n "${2-}" ]; then
        CLAUDE_PROJECT_DIR=$2
        export CLAUDE_PROJECT_DIR
    fi
    shift
    [ "$#" -gt 0 ] && shift
fi

# bin/loopgate (the agent's `loopgate`) runs this script with LOOPGATE_FROM_PLUGIN_BIN set: then `loopgate` on
# PATH may be that very file, so PATH is not searched (it would exec itself forever).
from_plugin_bin=${LOOPGATE_FROM_PLUGIN_BIN-}
unset LOOPGATE_FROM_PLUGIN_BIN
# This script's directory, with built-ins only (no `dirname` process on the hot path).
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac

if [ -n "${LOOPGATE_BIN-}" ]; then
    [ -x "$LOOPGATE_BIN" ] && exec "$LOOPGATE_BIN" "$@"
    why="LOOPGATE_BIN is set to \`$LOOPGATE_BIN\`, which is not an executable file"
else
    for candidate in "$here"/../node_modules/@loopgate/*/bin/loopgate; do
        [ -x "$candidate" ] && exec "$candidate" "$@"
    done
    if [ -r "$here/loopgate.bin" ] && IFS= read -r recorded <"$here/loopgate.bin" && [ -x "$recorded" ]; then
        exec "$recorded" "$@"
    fi
    if [ -z "$from_plugin_bin" ] && command -v loopgate >/dev/null 2>&1; then
        exec loopgate "$@"
    fi
    if [ -n "${HOME-}" ] && [ -x "$HOME/.cargo/bin/loopgate" ]; then
        exec "$HOME/.cargo/bin/loopgate" "$@"
    fi
    root=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)
    if [ -n "$root" ] && [ -x "$root/target/release/loopgate" ]; then
        exec "$root/target/release/loopgate" "$@"
    fi
    why="the \`loopgate\` binary was not found (looked at LOOPGATE_BIN, PATH and ~/.cargo/bin)"
fi

root=${CLAUDE_PLUGIN_ROOT:-$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)}
# Only a clone has a Cargo.toml to build from; the copy `loopgate install` registers has none.
if [ -f "$root/Cargo.toml" ]; then
    how="\`cargo install --locked --path $root\`"
else
    how="\`cargo install --locked --path CLONE\` from a clone of https://github.com/loopgate/loopgate"
fi
message="loopgate: $why, so loops are OFF (no verify, no guard). Install it with $how, or set LOOPGATE_BIN to the binary, then start a new session."

json_escape() {
    printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr -d '\n\r'
}

if [ "${1-}" = "hook" ]; then
    cat >/dev/null 2>&1
    case "${2-}" in
        session-start) ;;
        *) [ -f "${CLAUDE_PROJECT_DIR:-.}/.claude/pua-loop.local.md" ] || exit 0 ;;
    esac
    printf '{"systemMessage":"%s"}\n' "$(json_escape "$message")"
    exit 0
fi

printf '%s\n' "$message"
exit 127
