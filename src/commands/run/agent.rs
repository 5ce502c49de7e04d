//! Running the agent command once, under the process supervisor ([`crate::process`]): its own process group (so
//! Ctrl-C at the terminal reaches only loopgate, which then stops the whole group), the project root as its
//! directory, stdin from `/dev/null` unless the prompt goes there, stdout and stderr in one stream. Every chunk
//! goes to a sink (the terminal) as it arrives, and a bounded tail is kept: loopgate reads the agent's signals
//! from it.
//!
//! - **Bounded memory**: only the last [`TAIL_BYTES`] of output are kept, whatever the agent prints.
//! - **Deadline**: on `--agent-timeout` (or the loop's `--max-duration`), or when the loop stops being ours
//!   (asked every [`OWNERSHIP_CHECK`]), the supervisor stops the group: SIGTERM, then SIGKILL after
//!   [`crate::process::KILL_GRACE`]. The waits, the draining and the Ctrl-C registry are the supervisor's.

use std::io;
use std::path::Path;
use std::time::Duration;

use crate::process::{self, Ended, Failure, Watch};

/// Bytes of the agent's output kept: its final message is at the end.
pub(crate) const TAIL_BYTES: usize = 64 * 1024;
/// How often `keep_going` (a read of the seal) is asked.
const OWNERSHIP_CHECK: Duration = Duration::from_secs(1);

/// One run of the agent.
pub(crate) struct Spec<'a> {
    /// Program and arguments, the prompt already in place (see `prompt::argv`).
    pub(crate) argv: &'a [String],
    /// The prompt, when it goes on stdin.
    pub(crate) stdin: Option<&'a str>,
    pub(crate) cwd: &'a Path,
    /// The loop's sealed files outside the project, kept off like the rest of the control plane.
    pub(crate) protect: &'a [std::path::PathBuf],
    pub(crate) env: &'a [(&'static str, String)],
    pub(crate) timeout: Option<Duration>,
}

/// What the agent did.
#[derive(Debug, Clone, Default)]
pub(crate) struct AgentExit {
    /// Its exit code; `None` when a signal killed it.
    pub(crate) exit_code: Option<i32>,
    pub(crate) signal: Option<i32>,
    /// The deadline passed and the group was stopped.
    pub(crate) timed_out: bool,
    /// `keep_going` said no (the loop ended elsewhere) and the group was stopped.
    pub(crate) stopped: bool,
    pub(crate) duration: Duration,
    /// Bytes it printed, stdout and stderr together.
    pub(crate) total_bytes: u64,
    /// The last [`TAIL_BYTES`] of that.
    pub(crate) tail: Vec<u8>,
}

impl AgentExit {
    /// Exited 0 on its own.
    pub(crate) fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }

    /// `exit 0`, `exit 1`, `killed by signal 9`, `timed out`.
    pub(crate) fn result_text(&self) -> String {
        match (self.timed_out, self.exit_code, self.signal) {
            (true, ..) => "timed out".into(),
            (false, Some(code), _) => format!("exit {code}"),
            (false, None, Some(signal)) => format!("killed by signal {signal}"),
            (false, None, None) => "ended".into(),
        }
    }

    /// The kept output as text (lossy UTF-8).
    pub(crate) fn tail_text(&self) -> String {
        String::from_utf8_lossy(&self.tail).into_owned()
    }
}

/// Runs the agent to its exit or deadline. `sink` receives the output as it arrives; `keep_going` is asked about
/// once a second and stops the agent when it says no. An error means the agent could not be started (or waited
/// for).
pub(crate) fn run(
    spec: &Spec,
    sink: &mut (dyn FnMut(&[u8]) + Send),
    mut keep_going: impl FnMut() -> bool,
) -> io::Result<AgentExit> {
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty agent command"))?;
    // The agent is loopgate's child: it runs confined off the control plane (`plane::Plane::for_agent_cli`), and
    // everything it starts inherits that.
    let plane = crate::plane::Plane::for_agent_cli(&crate::project::loopgate_home(), spec.protect);
    if crate::confine::probe().is_protected() {
        make_first_run_dirs(spec.argv);
    }
    let (mut command, _) = crate::confine::command(&plane, program, args);
    command.current_dir(spec.cwd).envs(spec.env.iter().map(|(k, v)| (k, v)));
    let mut tail = Tail::default();
    let watch = Watch {
        timeout: spec.timeout,
        kill_grace: process::KILL_GRACE,
        keep_going: Some((OWNERSHIP_CHECK, &mut keep_going)),
    };
    let input = spec.stdin.map(|prompt| prompt.as_bytes().to_vec());
    let exit = process::run(command, input, watch, &mut |chunk| {
        tail.push(chunk);
        sink(chunk);
    })
    .map_err(|failure| match failure {
        Failure::Spawn(err) | Failure::Wait(err) | Failure::Read(err) => err,
    })?;
    Ok(AgentExit {
        exit_code: exit.code(),
        signal: exit.signal(),
        timed_out: exit.ended == Ended::TimedOut,
        stopped: exit.ended == Ended::Stopped,
        duration: exit.duration,
        total_bytes: tail.total,
        tail: tail.bytes,
    })
}

/// What an agent CLI makes on its first run in a directory that confinement closes to new entries (`$HOME`,
/// Claude Code's user directory: see `plane::Plane::for_agent_cli`), by the program's name: loopgate makes them
/// before the agent starts, so that a client that never ran here (a fresh container with an API key) works
/// confined. Measured: Claude Code 2.1.197's Bash tool fails without `session-env`; 2.1.330 needs none of them.
const FIRST_RUN_DIRS: &[(&str, &[&str])] = &[
    (
        "claude",
        &["projects", "session-env", "sessions", "shell-snapshots", "todos"],
    ),
    ("codex", &[]),
    ("gemini", &[]),
];

/// Makes the directories of [`FIRST_RUN_DIRS`] for the agent CLI `argv` names (it may come after `env VAR=…`).
/// Errors are ignored: the agent then reports what it could not create.
fn make_first_run_dirs(argv: &[String]) {
    let named = |word: &String| Path::new(word).file_name().and_then(|n| n.to_str()).map(str::to_owned);
    let Some((name, dirs)) = argv.iter().find_map(|word| {
        FIRST_RUN_DIRS
            .iter()
            .find(|(name, _)| named(word).as_deref() == Some(*name))
    }) else {
        return;
    };
    let base = match *name {
        "claude" => crate::project::claude_config_dir(),
        other => std::env::var_os("HOME").map(|home| Path::new(&home).join(format!(".{other}"))),
    };
    let Some(base) = base else { return };
    let _ = std::fs::create_dir_all(&base);
    for dir in *dirs {
        let _ = std::fs::create_dir_all(base.join(dir));
    }
}

/// The last [`TAIL_BYTES`] of the output and the total count.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    total: u64,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        self.bytes.extend_from_slice(chunk);
        // Trim in batches so each byte is moved a bounded number of times.
        if self.bytes.len() > 2 * TAIL_BYTES {
            let excess = self.bytes.len() - TAIL_BYTES;
            self.bytes.drain(..excess);
        }
    }
}
