//! The verify runner: runs the sealed verify command, the loop's oracle, and records what it did.
//!
//! `/bin/sh -c CMD` runs in the project root with stdin from `/dev/null`, under the process supervisor
//! ([`crate::process`]): its own process group, stdout and stderr in one pipe (their interleaving kept), on
//! timeout SIGTERM to the whole group, [`KILL_GRACE`], SIGKILL; never a wait forever on a pipe a grandchild
//! holds. Here the output goes into a bounded [`capture`]: invariants:
//!
//! - **Bounded memory**: whatever the command prints (1 GiB of `yes`), only a small head, a tail ring, a 64 KiB
//!   read buffer and at most one line of `capture::MAX_LINE` bytes are held; the log file is bounded too.
//! - **A line seam**: [`run_with_lines`] hands every complete line of the output to a callback as it arrives (for
//!   scanners that read the stream, e.g. test counts), without keeping more of it.
//! - **Interrupts** (`crate::interrupt`): a verify is not started once loopgate was interrupted, and a run that
//!   was stopped by one returns [`VerifyError::Interrupted`]. A run's log is written to a file of its own
//!   beside `LOG` and renamed over it only when the run completes (a stopped run's file is removed), so an
//!   interrupted run never empties the last complete run's log, and runs at once never share a file.
//! - A command that does not exist is a failed verify (the shell prints why and exits 127), not an
//!   error; errors are only for what keeps the oracle from running or being recorded.

mod capture;
mod error;
mod liveline;
pub(crate) mod reporting;
#[cfg(test)]
mod tests;

pub(crate) use crate::process::KILL_GRACE;
pub(crate) use error::VerifyError;
pub(crate) use liveline::LiveLine;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::process::{self, Ended, Failure, Watch};
use capture::{Capture, Limits, Lines};

/// What to run and where to log it.
#[derive(Debug, Clone)]
pub struct VerifyRequest<'a> {
    /// The shell command, run as `/bin/sh -c COMMAND`.
    pub command: &'a str,
    /// Working directory (the project root).
    pub cwd: &'a Path,
    /// Wall-clock limit, after which the whole process group is terminated.
    pub timeout: Duration,
    /// The bounded log of the full output; parent directories are created.
    pub log_path: &'a Path,
    /// Words run before `/bin/sh -c COMMAND` (the tracer of the baseline run, see `crate::trace`); usually
    /// none.
    pub prefix: &'a [OsString],
    /// The whole environment of the run (the oracle's room, see `crate::room`); `None` runs it with loopgate's
    /// own environment and the reporting options (a loop set up before the room existed).
    pub env: Option<&'a [(OsString, OsString)]>,
    /// What the run may not write (see `plane`); `None`: loopgate's whole control plane. An oracle run in a room
    /// passes the plane with its room carved out; the held-out run, one that writes nothing but its own places.
    pub plane: Option<&'a crate::plane::Plane>,
    /// The room's tree mounted at the project's path for the run (see `confine::mount`); `None`: the project's own
    /// tree.
    pub mount: Option<&'a crate::confine::mount::Mount>,
}

impl<'a> VerifyRequest<'a> {
    /// `command` in `cwd` with loopgate's own environment and confinement, a minute's limit, logging to
    /// `log_path`: a run outside any room (a benchmark's, a test's).
    pub fn plain(command: &'a str, cwd: &'a Path, log_path: &'a Path) -> Self {
        VerifyRequest {
            command,
            cwd,
            timeout: Duration::from_secs(60),
            log_path,
            prefix: &[],
            env: None,
            plane: None,
            mount: None,
        }
    }
}

/// What the verify command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyOutcome {
    /// The shell's exit code; `None` when it was killed by a signal or timed out.
    pub(crate) exit_code: Option<i32>,
    /// The signal that killed the shell, if one did (on timeout: SIGTERM or SIGKILL, usually).
    pub(crate) signal: Option<i32>,
    /// True when the timeout elapsed and the group was terminated.
    pub(crate) timed_out: bool,
    /// From spawn to the shell's exit (including the kill grace on timeout).
    pub(crate) duration: Duration,
    /// Bytes the command printed, stdout and stderr together.
    pub(crate) total_bytes: u64,
    /// The first 8 KiB of output.
    pub(crate) head: Vec<u8>,
    /// The last 32 KiB of output (overlaps `head` when the output is short).
    pub(crate) tail: Vec<u8>,
    /// The bounded log of the full output.
    pub(crate) log_path: PathBuf,
}

impl VerifyOutcome {
    /// True only for exit code 0 within the timeout.
    pub fn passed(&self) -> bool {
        !self.timed_out && self.exit_code == Some(0)
    }

    /// The status a shell would report: the exit code, 128+N for death by signal N, and 124 for a
    /// timeout (as coreutils `timeout` does).
    #[cfg(test)]
    pub(crate) fn exit_status_for_shell(&self) -> i32 {
        match (self.timed_out, self.exit_code, self.signal) {
            (true, _, _) => 124,
            (false, Some(code), _) => code,
            (false, None, Some(signal)) => 128 + signal,
            (false, None, None) => 1,
        }
    }

    /// The shell's own line when the command could not start at all: exit 126 or 127 with a line such as
    /// `sh: 1: NAME: not found` or `sh: line 1: ./NAME: Permission denied`, where NAME is a word of `command`
    /// itself. A program the command runs further down that is missing (`npm test` whose `jest` is not
    /// installed) names a word that is not in `command`: that command started, and may be fixed by the agent.
    pub(crate) fn could_not_start(&self, command: &str) -> Option<String> {
        if !matches!(self.exit_code, Some(126 | 127)) {
            return None;
        }
        const SAID: [&str; 4] = [
            ": not found",
            ": command not found",
            ": Permission denied",
            ": cannot execute",
        ];
        let words: Vec<&str> = command
            .split(|c: char| c.is_whitespace() || ";&|()".contains(c))
            .collect();
        let text = String::from_utf8_lossy(&self.tail);
        text.lines()
            .find(|line| {
                SAID.iter().any(|said| {
                    let Some(at) = line.find(said) else { return false };
                    let name = line[..at].rsplit(": ").next().unwrap_or_default();
                    !name.is_empty() && words.contains(&name)
                })
            })
            .map(|line| line.trim().to_string())
    }

    /// The last `max_lines` lines of the output, as lossy UTF-8 without a trailing newline.
    pub(crate) fn tail_text(&self, max_lines: usize) -> String {
        let text = String::from_utf8_lossy(&self.tail);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if max_lines == 0 {
            return String::new();
        }
        let start = text.rmatch_indices('\n').nth(max_lines - 1).map_or(0, |(at, _)| at + 1);
        text[start..].to_owned()
    }

    /// The captured output as lossy UTF-8: all of it when head and tail cover it, else the head,
    /// a `…` line and the tail. This is what failure summaries and fingerprints read.
    pub(crate) fn output_text(&self) -> String {
        let total = usize::try_from(self.total_bytes).unwrap_or(usize::MAX);
        if total <= self.tail.len() {
            return String::from_utf8_lossy(&self.tail).into_owned();
        }
        if total <= self.head.len() + self.tail.len() {
            let mut whole = self.head.clone();
            whole.extend_from_slice(&self.tail[self.head.len() + self.tail.len() - total..]);
            return String::from_utf8_lossy(&whole).into_owned();
        }
        format!(
            "{}\n…\n{}",
            String::from_utf8_lossy(&self.head),
            String::from_utf8_lossy(&self.tail)
        )
    }
}

/// Runs the verify command to completion or timeout; see the module docs for the guarantees.
pub fn run(req: &VerifyRequest) -> Result<VerifyOutcome, VerifyError> {
    run_with(req, Limits::DEFAULT, KILL_GRACE, &mut |_| {})
}

/// A line for a command's output that nothing the command runs can know in advance (`#loopgate-WHAT-PID-NANOS`):
/// loopgate's own commands run beside the verify (make's dry run, a runner's configuration reading) mark what
/// they print with it, so the project's code they load cannot fake where their answer is.
pub(crate) fn unforeseeable_mark(what: &str) -> String {
    format!(
        "#loopgate-{what}-{:x}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    )
}

/// [`run`], also handing each complete line of the output (without its `\n`; a line longer than
/// `capture::MAX_LINE` cut to its first `MAX_LINE` bytes; a last line without `\n` at the end) to `on_line`, in order, as the
/// command prints it. `on_line` runs on the reader thread.
pub(crate) fn run_with_lines(
    req: &VerifyRequest,
    on_line: &mut (dyn FnMut(&[u8]) + Send),
) -> Result<VerifyOutcome, VerifyError> {
    run_with(req, Limits::DEFAULT, KILL_GRACE, on_line)
}

/// Runs one of loopgate's own commands beside the verify command: where and as `request` runs it (its tree, room,
/// environment, mount and plane), untraced, within `limit`, each line of its output to `on_line`; its log
/// (beside the verify's, extension `what.log`) is removed once read. Make's dry run, a runner's configuration
/// reading and a bytecode check all ask the run's world this way, so what they read is what the run read.
pub(crate) fn run_beside(
    request: &VerifyRequest,
    command: &str,
    what: &str,
    limit: Duration,
    on_line: &mut (dyn FnMut(&[u8]) + Send),
) -> Result<VerifyOutcome, VerifyError> {
    let log_path = request.log_path.with_extension(format!("{what}.log"));
    let beside = VerifyRequest {
        command,
        timeout: request.timeout.min(limit),
        log_path: &log_path,
        prefix: &[],
        ..request.clone()
    };
    let outcome = run_with_lines(&beside, on_line);
    let _ = std::fs::remove_file(&log_path);
    outcome
}

/// `word` quoted for `sh` (loopgate's own commands run beside the verify: make's dry run, the bytecode check).
pub(crate) fn sh_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// Where a run's log is written until the run completes: `LOG.PID-N.partial`, one per run, so runs of the same
/// iteration at once (two stops, many self-checks) never write or rename each other's file.
fn partial_path(log_path: &Path) -> PathBuf {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut path = log_path.as_os_str().to_owned();
    path.push(format!(".{}-{n}.partial", std::process::id()));
    PathBuf::from(path)
}

fn run_with(
    req: &VerifyRequest,
    limits: Limits,
    kill_grace: Duration,
    on_line: &mut (dyn FnMut(&[u8]) + Send),
) -> Result<VerifyOutcome, VerifyError> {
    let log_err = |source| VerifyError::Log {
        path: req.log_path.to_owned(),
        source,
    };
    let interrupted = |signal| VerifyError::Interrupted {
        command: req.command.to_owned(),
        signal,
    };
    crate::interrupt::check().map_err(interrupted)?;
    // Written beside the log and renamed over it only when the run was not interrupted: an interrupted run never
    // empties the log of the last complete one (which the seal may have marked, see `ActiveLoop::mark_log`).
    let partial = partial_path(req.log_path);
    let mut capture = Capture::create(&partial, limits).map_err(log_err)?;
    let mut lines = Lines::default();
    // The oracle's run executes code the agent wrote: it runs confined, off the control plane (`confine`), but
    // for its own places under loopgate's home (its room, a private copy of the tree).
    let plane = req.plane.cloned().unwrap_or_else(crate::plane::Plane::for_home);
    let shell: [OsString; 3] = ["/bin/sh".into(), "-c".into(), req.command.into()];
    let argv: Vec<&OsString> = req.prefix.iter().chain(&shell).collect();
    let first = req
        .mount
        .cloned()
        .map(|mount| -> crate::confine::First { Box::new(move || mount.enter()) });
    let (mut command, _) = crate::confine::command_after(&plane, first, argv[0], &argv[1..]);
    command.current_dir(req.cwd);
    match req.env {
        // The room's run gets the baseline's environment and nothing of loopgate's own: not even the marker a
        // confined command carries (`LOOPGATE_CONFINED`), which would tell the code under test where it runs
        // (issue 39, item 7). Its confinement does not rest on the marker.
        Some(env) => {
            command.env_clear().envs(env.iter().map(|(name, value)| (name, value)));
        }
        None => {
            command.envs(reporting::env(|name| std::env::var_os(name)));
        }
    }
    let watch = Watch {
        timeout: Some(req.timeout),
        kill_grace,
        keep_going: None,
    };
    let exit = process::run(command, None, watch, &mut |chunk| {
        capture.push(chunk);
        lines.push(chunk, on_line);
    })
    .map_err(|failure| match failure {
        Failure::Spawn(source) => VerifyError::Spawn {
            command: req.command.to_owned(),
            cwd: req.cwd.to_owned(),
            source,
        },
        Failure::Wait(source) => VerifyError::Wait {
            command: req.command.to_owned(),
            source,
        },
        Failure::Read(source) => VerifyError::Read {
            command: req.command.to_owned(),
            source,
        },
    })?;
    lines.finish(on_line);
    let captured = capture.finish().map_err(log_err);
    if let Err(signal) = crate::interrupt::check() {
        // A stopped run's output is no verdict: its file goes, the last complete run's log stays.
        let _ = crate::fsutil::remove_file(&partial);
        return Err(interrupted(signal));
    }
    let captured = captured?;
    // `renameat` in the log's directory: a link planted at the log's name is replaced, never written through.
    crate::fsutil::rename_beside(&partial, req.log_path).map_err(log_err)?;
    Ok(VerifyOutcome {
        exit_code: exit.code(),
        signal: exit.signal(),
        timed_out: exit.ended == Ended::TimedOut,
        duration: exit.duration,
        total_bytes: captured.total,
        head: captured.head,
        tail: captured.tail,
        log_path: req.log_path.to_owned(),
    })
}
