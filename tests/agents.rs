//! End-to-end against other agent CLIs: the real Codex CLI and Gemini CLI (versions in
//! `tests/e2e/codex-versions.txt` and `gemini-versions.txt`) with loopgate's hooks installed by `loopgate
//! install --agent`, a scripted model behind a mock API on 127.0.0.1 (`tests/e2e/mock_api.rs`, shared with the
//! Claude Code suite: the Responses API for Codex, the Gemini API for Gemini), and the test build of loopgate.
//!
//! Per agent: a loop rejected once and then completed; a gaming move caught; cancel; the agent's shell command
//! confined; a session that is not the loop's own left alone; loopgate's own block cap. Every scenario also fails on any request that left
//! 127.0.0.1 (the mock is the client's proxy and refuses and records every `CONNECT`).
//!
//! opencode's plugin is run by node with a stand-in for opencode's client (`agents/opencode_driver.mjs`).
//!
//! Needs the CLIs: `scripts/install-agents.sh` (or `LOOPGATE_CODEX_BIN`, `LOOPGATE_GEMINI_BIN`). Without it every scenario fails with
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
#[path = "agents/scenarios.rs"]
mod scenarios;

/// Every scenario, as one test per agent (`codex::…`, `gemini::…`).
macro_rules! agent_suite {
    ($module:ident, $agent:expr) => {
        mod $module {
            use crate::scenarios;

            #[test]
            fn loop_rejected_once_then_completed() {
                scenarios::rejected_once_then_completed($agent);
            }

            #[test]
            fn reviewed_by_its_own_cli() {
                scenarios::reviewed_by_its_own_cli($agent);
            }

            #[test]
            fn gaming_move_caught() {
                scenarios::gaming_move_caught($agent);
            }

            #[test]
            fn cancel_ends_the_loop() {
                scenarios::cancel_ends_the_loop($agent);
            }

            #[test]
            fn shell_command_runs_confined() {
                scenarios::shell_command_runs_confined($agent);
            }

            #[test]
            fn runaway_stops_at_loopgates_cap_and_other_sessions_are_left_alone() {
                scenarios::runaway_stops_at_the_cap_and_other_sessions_are_left_alone($agent);
            }
        }
    };
}

agent_suite!(codex, crate::client::Agent::Codex);

/// Codex only: its `apply_patch` tool.
#[test]
fn codex_apply_patch_on_a_sealed_file_is_refused() {
    scenarios::apply_patch_on_a_sealed_file_is_refused(crate::client::Agent::Codex);
}

/// Codex only: an edited (so untrusted) Stop hook keeps the loop from starting, loudly, with the fix.
#[test]
fn codex_untrusted_stop_hook_refuses_the_start() {
    scenarios::untrusted_stop_hook_refuses_the_start(crate::client::Agent::Codex);
}

/// opencode's plugin (issue 34, item 4: not yet run inside opencode itself), run by node as opencode runs a plugin,
/// with a stand-in for opencode's client: a loop rejected then completed, a write to the sealed verify script
/// refused, another session left alone, cancel.
#[test]
fn opencode_plugin_on_a_stand_in_client() {
    scenarios::opencode_plugin_on_a_stand_in_client();
}
agent_suite!(gemini, crate::client::Agent::Gemini);

/// Gemini only: a folder the user marked untrusted is said by `status` (Gemini itself refuses `gemini -p` there).
#[test]
fn gemini_untrusted_folder_is_said() {
    scenarios::untrusted_folder_is_said(crate::client::Agent::Gemini);
}
