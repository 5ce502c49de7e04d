//! End-to-end against other agent CLIs: the real Codex CLI and Gemini CLI (versions in
//! `tests/e2e/codex-versions.txt` and `gemini-versions.txt`) with loopgate's hooks installed by `loopgate
//! install --agent`, a scripted model behind a mock API on 127.0.0.1 (`tests/e2e/mock_api.rs`, shared with the
//! Claude Code suite: the Responses API for Codex, the Gemini API for Gemini), and the test build of loopgate.
//!
//! Per agent: a loop rejected once and then completed; a gaming move caught; cancel; the agent's shell command
//! confined; a session that is not the loop's own left alone; loopgate's own block cap. Every scenario also fails on any request that left
//! 127.0.0.1 (the mock is the client's proxy and refuses and records every `CONNECT`).
//!
//! opencode runs as its server (`opencode serve`, `agents/opencode.rs`), the prompt sent by `opencode run --attach`,
//! against the mock's Responses API; its plugin is also run by node with a stand-in for opencode's client
//! (`agents/opencode_driver.mjs`).
//!
//! Needs the CLIs: `scripts/install-agents.sh` (or `LOOPGATE_CODEX_BIN`, `LOOPGATE_GEMINI_BIN`, `LOOPGATE_OPENCODE_BIN`, …). Without it every scenario fails with
//! that instruction; nothing is skipped.

#[path = "support/common.rs"]
mod common;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "e2e/mock_api.rs"]
mod mock_api;

#[path = "support/tmux.rs"]
mod tmux;

#[path = "agents/client.rs"]
mod client;
#[path = "agents/opencode.rs"]
mod opencode;
#[path = "agents/scenarios.rs"]
mod scenarios;
#[path = "agents/tui.rs"]
mod tui;

/// A loop started in the agent's interactive UI the documented way, rejected once, completed, then another
/// paused and cancelled, on the first listed version of the agent (the pinned one) and on the last (the newest).
mod interactive {
    use crate::client::Agent;

    fn on(agent: Agent, newest: bool) {
        let versions = agent.versions();
        let version = if newest { versions.last() } else { versions.first() };
        crate::tui::loop_started_in_the_interactive_ui(agent, version.expect("a listed version"));
    }

    #[test]
    fn codex_pinned() {
        on(Agent::Codex, false);
    }

    #[test]
    fn codex_newest() {
        on(Agent::Codex, true);
    }

    /// Gemini CLI's pinned version is the newest on npm (0.61.0, checked 2026-11-29): one run.
    #[test]
    fn gemini() {
        on(Agent::Gemini, false);
    }

    /// Codex's UI with an edited (so untrusted) Stop hook: `$pua-loop` says at once that no loop started.
    #[test]
    fn codex_untrusted_stop_hook_said_at_the_start() {
        let version = Agent::Codex.versions().last().cloned().expect("a listed version");
        crate::tui::untrusted_stop_hook_said_at_the_start(Agent::Codex, &version);
    }

    /// Gemini CLI's UI in a folder the user marked untrusted: `/pua-loop` starts nothing and the model is told.
    #[test]
    fn gemini_untrusted_folder_said_at_the_start() {
        let version = Agent::Gemini.versions().last().cloned().expect("a listed version");
        crate::tui::untrusted_folder_said_at_the_start(Agent::Gemini, &version);
    }

    /// Copilot CLI 1.0.102, offline against the mock (the newest on npm, checked 2026-11-29).
    #[test]
    fn copilot() {
        on(Agent::Copilot, false);
    }
}

/// Every scenario, as one test per agent (`codex::…`, `gemini::…`); `reviewer` adds the one where the agent's
/// CLI reviews its own loop (`--review codex`), for the CLIs loopgate can run as a reviewer (`review::clis`:
/// Claude Code, Codex, Gemini — not Copilot CLI or opencode).
macro_rules! agent_suite {
    ($module:ident, $agent:expr, reviewer) => {
        agent_suite!($module, $agent, {
            #[test]
            fn reviewed_by_its_own_cli() {
                scenarios::reviewed_by_its_own_cli($agent);
            }
        });
    };
    ($module:ident, $agent:expr) => {
        agent_suite!($module, $agent, {});
    };
    ($module:ident, $agent:expr, { $($extra:item)* }) => {
        mod $module {
            use crate::scenarios;

            $($extra)*

            #[test]
            fn loop_rejected_once_then_completed() {
                scenarios::rejected_once_then_completed($agent);
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

agent_suite!(codex, crate::client::Agent::Codex, reviewer);

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

/// opencode's plugin (issue 34, item 4), run by node as opencode runs a plugin,
/// with a stand-in for opencode's client: a loop rejected then completed, a write to the sealed verify script
/// refused, another session left alone, cancel.
#[test]
fn opencode_plugin_on_a_stand_in_client() {
    scenarios::opencode_plugin_on_a_stand_in_client();
}
agent_suite!(gemini, crate::client::Agent::Gemini, reviewer);
agent_suite!(copilot, crate::client::Agent::Copilot);

// opencode 1.18.33 in its server (`opencode serve`, the prompt sent by `opencode run --attach`), with the plugin
// `loopgate install --agent opencode` writes.
agent_suite!(opencode_real, crate::client::Agent::Opencode);

/// opencode only: `opencode run '/pua-loop …'` alone, the way a shell user types it.
#[test]
fn opencode_run_alone_starts_the_loop_from_its_quoted_message() {
    scenarios::opencode_run_alone_starts_the_loop();
}

/// Gemini only: a folder the user marked untrusted is said by `status` (Gemini itself refuses `gemini -p` there).
#[test]
fn gemini_untrusted_folder_is_said() {
    scenarios::untrusted_folder_is_said(crate::client::Agent::Gemini);
}
