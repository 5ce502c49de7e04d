//! loopgate keeps a coding agent working on a task until an independent oracle — a verify command sealed
//! outside the agent's reach — says the work is done. See `README.md` for the user's view and `ARCHITECTURE.md`
//! for the contract the code follows, the layers and one Stop-hook call traced file by file.
//!
//! Layout: `cli` (clap structs) → `commands::*` (terminal commands) and `hook::*` (Claude Code hooks), built on the
//! concepts `schema` (the persisted vocabulary every layer shares), `state` (the mirror file), `seal` (the
//! authoritative oracle), `history` (append-only JSONL), `lifecycle` (find / reconcile / end a loop), `oracle` (judge a
//! claim), `process` (the supervisor of child processes), `verify` (the verify runner), `readout` (failure synthesis
//! and test counts), `testjudge::ratchet` (the best test counts a loop has seen), `block_reason` + `messages` (what the model and
//! user read), `tags` (the promise / pause / abort tags in the agent's message), `guard` (PreToolUse decisions), `args`
//! (splitting /pua-loop text), `closure` (the files that define what the verify command runs), `testsig` (what in a
//! test file decides which tests run, and which edits weaken them) and `testseal` (every existing test's signature,
//! checked at a promise).

pub mod args;
pub mod aware;
pub(crate) mod block_reason;
pub mod checkpoint;
pub mod cli;
pub mod closure;
pub mod commands;
pub mod confine;
pub(crate) mod control;
pub(crate) mod cost;
pub(crate) mod detect;
pub(crate) mod duration;
pub(crate) mod error;
pub(crate) mod exit_codes;
pub(crate) mod fsutil;
pub mod giveup;
pub mod guard;
pub mod history;
pub(crate) mod holdout;
pub mod hook;
pub(crate) mod inputs;
pub(crate) mod interrupt;
pub(crate) mod lifecycle;
pub mod messages;
pub(crate) mod oracle;
pub mod plane;
pub(crate) mod printable;
pub(crate) mod process;
pub mod project;
pub mod readout;
pub(crate) mod recipes;
pub(crate) mod report;
pub mod review;
pub(crate) mod room;
pub(crate) mod runner;
pub mod schema;
pub(crate) mod score;
pub mod seal;
pub mod state;
pub mod stop;
pub mod tags;
pub mod testjudge;
pub mod testseal;
pub mod testsig;
pub mod testswap;
pub(crate) mod tokens;
pub(crate) mod trace;
pub(crate) mod trajectory;
pub(crate) mod transcript;
pub mod treeprobe;
pub mod verify;
pub(crate) mod verify_lock;
pub(crate) mod walk;

use std::io::Write;

use cli::{Cli, Command};
use error::Error;

/// Runs a parsed command line and returns the process exit code. Errors are printed here, once, as one line.
pub fn run(cli: Cli) -> u8 {
    // The commands that run the verify command or change the working tree tidy up before they die of a signal
    // (`interrupt`); `loopgate run` installs its own handlers, which also cancel its loop, and the Stop hook
    // installs them before it runs the verify. Without handlers, `requested` stays `None`.
    if matches!(
        cli.command,
        Command::Verify { .. } | Command::Rollback { .. } | Command::Setup(_) | Command::Check(_)
    ) {
        let _ = interrupt::install_quiet();
    }
    // The commands that run the oracle may start a warden, which outlives them if they are killed outright
    // (`process::tether`): this binary, with the hidden subcommand. Unit tests never come here, so they start none.
    if matches!(
        cli.command,
        Command::Verify { .. } | Command::Hook { .. } | Command::Run(_) | Command::Check(_)
    ) && let Ok(exe) = std::env::current_exe()
    {
        process::tether::enable(exe.into_os_string(), vec![cli::WARDEN.into()]);
    }
    let result = match project_dir_problem(&cli.command) {
        Some(err) => Err(err),
        None => dispatch(cli),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("loopgate: {err}");
            err.exit_code()
        }
    };
    match interrupt::requested() {
        Some(signal) => {
            eprintln!(
                "loopgate: interrupted ({}): stopped cleanly (no verify command left running, no test file left aside)",
                interrupt::name(signal)
            );
            interrupt::reraise(signal)
        }
        None => code,
    }
}

/// A project directory (`--project-dir`, or `$CLAUDE_PROJECT_DIR`, which `main` sets from it) that does not
/// exist: a terminal command would otherwise create it and start a loop there. Hooks keep failing open.
fn project_dir_problem(command: &Command) -> Option<Error> {
    if matches!(
        command,
        Command::Hook { .. }
            | Command::Confine(_)
            | Command::Install(_)
            | Command::Uninstall(_)
            | Command::Completions { .. }
            | Command::Warden { .. }
    ) {
        return None;
    }
    let dir = std::env::var_os("CLAUDE_PROJECT_DIR").filter(|d| !d.is_empty())?;
    let dir = std::path::Path::new(&dir);
    (!dir.is_dir()).then(|| {
        Error::Usage(format!(
            "project directory `{}` is not a directory: pass an existing project root with `--project-dir` (or fix `$CLAUDE_PROJECT_DIR`)",
            dir.display()
        ))
    })
}

fn dispatch(cli: Cli) -> Result<u8, Error> {
    match cli.command {
        Command::Setup(args) => commands::setup::run(*args),
        Command::Hook { agent, event } => Ok(hook::run(agent, &event)),
        Command::Status { json } => commands::status::run(json),
        Command::History { json, loop_id } => commands::history::run(json, loop_id.as_deref()),
        Command::Verify { json } => commands::verify::run(json),
        Command::Run(args) => commands::run::run(*args),
        Command::Check(args) => commands::check::run(*args),
        Command::Checkpoints { json, loop_id } => commands::checkpoints::run(json, loop_id.as_deref()),
        Command::Diff {
            from,
            to,
            stat,
            json,
            loop_id,
        } => commands::diff::run(&from, to.as_deref(), stat, json, loop_id.as_deref()),
        Command::Rollback { to, loop_id } => commands::rollback::run(&to, loop_id.as_deref()),
        Command::Cancel => commands::cancel::run(),
        Command::Accept { id } => commands::accept::run(id.as_deref()),
        Command::Tournament(command) => commands::tournament::run(command),
        Command::Report {
            html,
            loop_id,
            tournament,
        } => commands::report::run(html, loop_id.as_deref(), tournament.as_deref()),
        Command::Confine(args) => Ok(commands::confine::run(args)),
        Command::Allow {
            paths,
            counts,
            all,
            tests,
        } => commands::allow::run(&paths, counts, all, &tests),
        Command::Resume { session_id, force } => commands::resume::run(session_id, force),
        Command::Install(args) => commands::install::install(&args),
        Command::Uninstall(args) => commands::install::uninstall(&args),
        Command::Completions { shell } => commands::completions::run(shell),
        Command::Warden { root } => Ok(commands::warden::run(root)),
    }
}

/// Writes one line; a closed pipe (`loopgate history | head`) is reported as an error so callers stop quietly.
pub fn write_line(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{line}")
}

/// Prints a line to stdout. A reader that went away (`loopgate status | head -1`) is not worth a panic: the
/// output is simply dropped (Rust ignores SIGPIPE, so the write fails with `BrokenPipe` instead of killing us).
pub fn say(text: impl std::fmt::Display) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}
