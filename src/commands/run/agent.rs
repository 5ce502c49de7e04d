//! Running the agent command once.
//!
//! The agent runs in a process group of its own (so Ctrl-C at the terminal reaches only loopgate, which then
//! stops the whole group), in the project root, with stdin from `/dev/null` unless the prompt goes there. Its
//! stdout and stderr share one pipe, so their interleaving is kept; one reader thread hands every chunk to a sink
//! (the terminal) and keeps a bounded tail, which is what loopgate reads the agent's signals from.
//!
//! Invariants, as in the verify runner (`crate::verify`):
//! - **Bounded memory**: only the last [`TAIL_BYTES`] of output are kept, whatever the agent prints.
//! - **The leader stays unreaped until its group is dealt with**: exit is observed with `waitid(WNOWAIT)`, the
//!   rest of the group (background processes the agent left) gets SIGKILL, and only then is the leader reaped,
//!   so the group id cannot have been reused by the time it is signalled. [`RUNNING_GROUP`] publishes it for
//!   that same window, for the Ctrl-C handler.
//! - **Never wait forever on the pipe**: a process that left the group (`setsid`) may hold it open; after a
//!   short deadline the reader is abandoned (it stops forwarding output) and the iteration goes on.
//! - **Deadline**: on `--agent-timeout` (or the loop's `--max-duration`), or when the loop stops being ours,
//!   SIGTERM goes to the group, then SIGKILL after [`crate::verify::KILL_GRACE`].

use crate::verify::unix::{exited_keep_zombie, signal_group};
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The agent's process group while its leader is unreaped, 0 otherwise (read by the Ctrl-C handler).
pub static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// Bytes of the agent's output kept: its final message is at the end.
pub const TAIL_BYTES: usize = 64 * 1024;
/// How often the exit, the deadline and `keep_going` are checked.
const POLL: Duration = Duration::from_millis(50);
/// How often `keep_going` (a read of the seal) is asked.
const OWNERSHIP_CHECK: Duration = Duration::from_secs(1);
/// After the agent exits, how long its background writers get before the rest of its group is killed.
const DRAIN_WINDOW: Duration = Duration::from_millis(200);
/// After that, how long the reader may still wait for end-of-file before it is abandoned.
const READER_DEADLINE: Duration = Duration::from_millis(500);

/// Where the agent's output goes as it arrives (the terminal).
pub type Sink = Arc<dyn Fn(&[u8]) + Send + Sync>;

/// One run of the agent.
pub struct Spec<'a> {
    /// Program and arguments, the prompt already in place (see `prompt::argv`).
    pub argv: &'a [String],
    /// The prompt, when it goes on stdin.
    pub stdin: Option<&'a str>,
    pub cwd: &'a Path,
    pub env: &'a [(&'static str, String)],
    pub timeout: Option<Duration>,
}

/// What the agent did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Its exit code; `None` when a signal killed it.
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// The deadline passed and the group was stopped.
    pub timed_out: bool,
    /// `keep_going` said no (the loop ended elsewhere) and the group was stopped.
    pub stopped: bool,
    pub duration: Duration,
    /// Bytes it printed, stdout and stderr together.
    pub total_bytes: u64,
    /// The last [`TAIL_BYTES`] of that.
    pub tail: Vec<u8>,
}

impl Outcome {
    /// Exited 0 on its own.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }

    /// `exit 0`, `exit 1`, `killed by signal 9`, `timed out`.
    pub fn result_text(&self) -> String {
        match (self.timed_out, self.exit_code, self.signal) {
            (true, ..) => "timed out".into(),
            (false, Some(code), _) => format!("exit {code}"),
            (false, None, Some(signal)) => format!("killed by signal {signal}"),
            (false, None, None) => "ended".into(),
        }
    }

    /// The kept output as text (lossy UTF-8).
    pub fn tail_text(&self) -> String {
        String::from_utf8_lossy(&self.tail).into_owned()
    }
}

/// Runs the agent to its exit or deadline. `sink` receives the output as it arrives; `keep_going` is asked about
/// once a second and stops the agent when it says no. An error means the agent could not be started.
pub fn run(spec: &Spec, sink: Sink, mut keep_going: impl FnMut() -> bool) -> io::Result<Outcome> {
    let (program, args) = spec
        .argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty agent command"))?;
    let (pipe, pipe_writer) = io::pipe()?;
    let start = Instant::now();
    let mut child = {
        // The Command holds the parent's copies of the write end; dropping it at the end of this block leaves
        // only the children's, so the reader sees end-of-file when they are gone.
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(spec.cwd)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(if spec.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(pipe_writer.try_clone()?)
            .stderr(pipe_writer)
            .process_group(0);
        command.spawn()?
    };
    // `Child::id` is the kernel's pid_t, widened to u32; the cast gives it back.
    #[allow(clippy::cast_possible_wrap)]
    let pid = child.id() as libc::pid_t;
    RUNNING_GROUP.store(pid, Ordering::SeqCst);

    if let (Some(prompt), Some(mut stdin)) = (spec.stdin, child.stdin.take()) {
        let prompt = prompt.to_owned();
        // An agent that exits without reading gives EPIPE (SIGPIPE is ignored during `loopgate run`): fine.
        thread::spawn(move || {
            let _ = stdin.write_all(prompt.as_bytes());
        });
    }

    let tail = Arc::new(Mutex::new(Tail::default()));
    let stop_forwarding = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = mpsc::channel();
    {
        let (tail, stop) = (Arc::clone(&tail), Arc::clone(&stop_forwarding));
        thread::Builder::new().name("agent-output".into()).spawn(move || {
            pump(pipe, &tail, &stop, sink.as_ref());
            let _ = done_tx.send(());
        })?;
    }

    let mut timed_out = false;
    let mut stopped = false;
    let mut term_sent: Option<Instant> = None;
    let mut kill_sent = false;
    let mut last_check = start;
    loop {
        if exited_keep_zombie(pid)? {
            break;
        }
        let now = Instant::now();
        match term_sent {
            None => {
                if spec.timeout.is_some_and(|limit| now - start >= limit) {
                    timed_out = true;
                } else if now - last_check >= OWNERSHIP_CHECK {
                    last_check = now;
                    stopped = !keep_going();
                }
                if timed_out || stopped {
                    signal_group(pid, libc::SIGTERM);
                    term_sent = Some(now);
                }
            }
            Some(sent) if !kill_sent && now - sent >= crate::verify::KILL_GRACE => {
                signal_group(pid, libc::SIGKILL);
                kill_sent = true;
            }
            Some(_) => {}
        }
        thread::sleep(POLL);
    }
    let duration = start.elapsed();

    // The leader is a zombie now: give background writers a moment, then kill what is left of its group.
    let drained = done_rx.recv_timeout(DRAIN_WINDOW).is_ok();
    signal_group(pid, libc::SIGKILL);
    let _ = RUNNING_GROUP.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
    let status = child.wait()?;
    if !drained && done_rx.recv_timeout(READER_DEADLINE).is_err() {
        // Only a process that left the group holds the pipe; stop echoing it and go on without its output.
        stop_forwarding.store(true, Ordering::SeqCst);
    }
    let tail = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok(Outcome {
        exit_code: if timed_out || stopped { None } else { status.code() },
        signal: status.signal(),
        timed_out,
        stopped,
        duration,
        total_bytes: tail.total,
        tail: tail.bytes.clone(),
    })
}

/// Reads the pipe to its end, forwarding each chunk until told to stop.
fn pump(mut pipe: io::PipeReader, tail: &Mutex<Tail>, stop: &AtomicBool, sink: &(dyn Fn(&[u8]) + Send + Sync)) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                tail.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(&buf[..n]);
                if !stop.load(Ordering::SeqCst) {
                    sink(&buf[..n]);
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
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
