//! Command-line integration tests: the real `loopgate` binary driven the way Claude Code and a user drive it —
//! hook JSON on stdin, `setup` text from the slash command, terminal commands — in a temporary project with its
//! own `HOME` and seal store (see `cli/project.rs`). Each area of the contract (`ARCHITECTURE.md`) has its own module.
//!
//! `cargo test --test cli -- --nocapture full_loop_transcript` prints one whole loop as a transcript.

#[path = "support/common.rs"]
mod common;
#[path = "cli/project.rs"]
mod project;
#[path = "cli/snapshot.rs"]
mod snapshot;

#[path = "cli/action.rs"]
mod action;
#[path = "cli/agent_trust.rs"]
mod agent_trust;
#[path = "cli/bad_input.rs"]
mod bad_input;
#[path = "cli/baseline.rs"]
mod baseline;
#[path = "cli/block_cap.rs"]
mod block_cap;
#[path = "cli/check.rs"]
mod check;
#[path = "cli/checkpoints.rs"]
mod checkpoints;
#[path = "cli/closure.rs"]
mod closure;
#[path = "cli/confine.rs"]
mod confine;
#[path = "cli/control.rs"]
mod control;
#[path = "cli/docs.rs"]
mod docs;
#[path = "cli/documented_agents.rs"]
mod documented_agents;
#[path = "cli/faults.rs"]
mod faults;
#[path = "cli/file_tools.rs"]
mod file_tools;
#[path = "cli/full_loop.rs"]
mod full_loop;
#[path = "cli/give_up.rs"]
mod give_up;
#[path = "cli/guard_seal.rs"]
mod guard_seal;
#[path = "cli/holdout.rs"]
mod holdout;
#[path = "cli/install.rs"]
mod install;
#[path = "cli/interrupt.rs"]
mod interrupt;
#[path = "cli/links.rs"]
mod links;
#[path = "cli/observed.rs"]
mod observed;
#[path = "cli/plugin_script.rs"]
mod plugin_script;
#[path = "cli/report_flag.rs"]
mod report_flag;
#[path = "cli/review.rs"]
mod review;
#[path = "cli/room_tells.rs"]
mod room_tells;
#[path = "cli/scratch.rs"]
mod scratch;
#[path = "cli/seal_store.rs"]
mod seal_store;
#[path = "cli/session_start.rs"]
mod session_start;
#[path = "cli/setup.rs"]
mod setup;
#[path = "cli/shared_hold.rs"]
mod shared_hold;
#[path = "cli/stall_and_budgets.rs"]
mod stall_and_budgets;
#[path = "cli/stop_decisions.rs"]
mod stop_decisions;
#[path = "cli/tampering.rs"]
mod tampering;
#[path = "cli/terminal.rs"]
mod terminal;
#[path = "cli/tournament.rs"]
mod tournament;
#[path = "cli/user_text.rs"]
mod user_text;
#[path = "cli/verify_auto.rs"]
mod verify_auto;
#[path = "cli/verify_window.rs"]
mod verify_window;
