//! Exit codes are an API: scripts branch on them. Every code loopgate uses is defined and documented here once,
//! and errors map to them in one exhaustive `match` (`Error::exit_code`).
//!
//! Hooks always exit 0 and put their decision in the JSON they print: Claude Code treats any other non-zero exit
//! as a non-blocking error the user may never see, which would silently disable a loop.

/// Success.
pub(crate) const OK: u8 = 0;
/// Something failed (I/O, a corrupt file); the message names the file.
pub(crate) const FAILURE: u8 = 1;
/// `loopgate check`: the head did not pass the base's oracle (a test by name, a moved input, the verify
/// command). The same number as [`FAILURE`], as CI expects of a failed check; the summary says which it was.
pub(crate) const CHECK_FAILED: u8 = 1;
/// The command line or the /pua-loop text was wrong (clap uses 2 as well).
pub(crate) const USAGE: u8 = 2;
/// The command needs a loop and this project has none (or, for `checkpoints`, `diff` and `rollback`, no
/// checkpoints: not a git repository, or no loop took any).
pub(crate) const NO_LOOP: u8 = 3;
/// `loopgate verify` ran the oracle and it did not pass.
pub(crate) const VERIFY_FAILED: u8 = 4;
/// `setup` refused: another session runs a loop here (use `--force`); or `rollback` refused: a verify command
/// is running.
pub(crate) const CONFLICT: u8 = 5;
/// `loopgate run`: the loop ended at `--max-iterations`, `--max-duration` or another budget without the oracle
/// passing.
pub(crate) const LIMIT_REACHED: u8 = 6;
/// `loopgate run`: the agent gave up with `<loop-abort>…</loop-abort>`.
pub(crate) const ABORTED: u8 = 7;
/// `loopgate run`: the loop is paused (`<loop-pause>…</loop-pause>`, or stalled) and waits for the user;
/// `loopgate run --resume -- AGENT…` continues it.
pub(crate) const PAUSED: u8 = 8;
/// `loopgate run`: the loop was ended from outside (`loopgate cancel`, or replaced with `--force`).
pub(crate) const CANCELLED: u8 = 9;
/// A command that changes what the oracle is or accepts (`allow`, `run`, `setup` without `/pua-loop`'s text)
/// was run from inside Claude Code — where the loop's agent runs — and refused: only a person may, from their
/// own terminal or through their own prompt.
pub(crate) const CONTROL_REFUSED: u8 = 10;
/// Interrupted (Ctrl-C, SIGTERM, SIGHUP; `crate::interrupt`): `run`, `verify`, `setup` and `rollback` stop the
/// verify command (and `run` the agent, recording `cancelled`), put back the test files a verify set aside, then
/// re-raise the signal, so a shell sees 128 + its number (130 for SIGINT). A second Ctrl-C exits at once with
/// 130.
pub(crate) const INTERRUPTED: u8 = 130;
