#!/bin/sh
# The plugin's entry point to the loopgate binary, used by hooks/hooks.json and the slash commands.
#
#   loopgate.sh [--project-dir DIR] ARGS...
#
# Finds the binary ($LOOPGATE_BIN, else `loopgate` on PATH, else ~/.cargo/bin/loopgate, else a build in this
# plugin's own target/) and execs it with ARGS. `--project-dir DIR` (used by the slash commands, which get the
# directory substituted into their text but not in their environment) exports CLAUDE_PROJECT_DIR=DIR, so setup
# and cancel pick the same project root the hooks are given; an empty DIR is ignored.
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

if [ -n "${LOOPGATE_BIN-}" ]; then
    [ -x "$LOOPGATE_BIN" ] && exec "$LOOPGATE_BIN" "$@"
    why="LOOPGATE_BIN is set to \`$LOOPGATE_BIN\`, which is not an executable file"
else
    if command -v loopgate >/dev/null 2>&1; then
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
