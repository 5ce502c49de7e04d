#!/bin/sh
# The project's test command (README: "Run the tests"). Installs the Claude Code CLI version the end-to-end suite
# is pinned to into .tools/ (once; needs npm), then runs every test: unit, command-line integration, and the
# end-to-end suite that drives the real CLI against a scripted local model API. Extra arguments go to cargo test.
set -eu
cd "$(dirname "$0")/.."
scripts/install-claude.sh >/dev/null
exec cargo test --locked --all-targets "$@"
