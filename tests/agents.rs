//! End-to-end against other agent CLIs: the real Codex CLI (versions in `tests/e2e/codex-versions.txt`) with
//! loopgate's hooks installed by `loopgate install --agent codex`, a scripted model behind a mock Responses
//! API on 127.0.0.1 (`tests/e2e/mock_api.rs`, shared with the Claude Code suite), and the test build of loopgate.
//!
//! Per agent: a loop rejected once and then completed; a gaming move caught; cancel; a session that is not the
//! loop's own left alone; loopgate's own block cap. Every scenario also fails on any request that left
//! 127.0.0.1 (the mock is the client's proxy and refuses and records every `CONNECT`).
//!
//! Needs the CLI: `scripts/install-agents.sh` (or `LOOPGATE_CODEX_BIN`). Without it every scenario fails with
//! that instruction; nothing is skipped.

#[path = "support/common.rs"]
mod common;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "e2e/mock_api.rs"]
mod mock_api;

#[path = "agents/client.rs"]
mod client;
#[path = "agents/codex.rs"]
mod codex;
