//! The start hooks' record that only the hooks can write (issue 39, "every way a result can be faked"): node's and
//! Python's hooks (`ecosystem/js/report.cjs`, `ecosystem/python/sitecustomize.py`) report to loopgate over a Unix
//! socket of the room ([`SOCKET`]), which loopgate listens on for the length of the run, instead of appending to a
//! file that any process of the run can append to, truncate or rewrite.
//!
//! Why this holds where a file did not: what a process sent is in loopgate's memory, never on disk, so code under
//! test can add to the record but not take anything out of it; and each hook connects **as its process loads**,
//! before any code under test runs there, and sends a key of its own first (the socket carries nothing back, so no
//! process can read it), then signs each line it sends with that key and a count ([`verified`]). So:
//! - a line the code under test writes into the hook's connection (found among its open files) carries no
//!   signature the key gives, and voids the record ([`FORGED`]); a line it keeps the hook from sending leaves a gap
//!   in the count or a run without its end;
//! - a second connection from a process that already has one (the code under test connecting for itself, where
//!   the hook already did) is forged too: the kernel, not the line, says which process connected;
//! - a hook that knows, as it loads, that its process runs a test runner (node's, started as mocha, Jest or
//!   Vitest; Python's, as `-m unittest` or `manage.py test`) says so, and a runner's process whose record holds no
//!   run is a runner that wrote no report — code under test that exits before the runner started, having had a
//!   process of its own send a passing run, is no pass. A process whose command line is that of a process that
//!   ran the baseline's run owes one too, whatever it said ([`RAN`], [`IDLE`]).
//!
//! What still gets through is code that patches the runtime or the hook inside the runner's own process (it can
//! read the key from the hook's memory, or change what the runner reports): that is the reviewer's
//! (docs/threat-model.md). The other hooks (Ruby's, Go's and cargo's shims) still append to the events file; only
//! their runners' lines are read from it (`room::report`), so a line for a runner recorded here is not taken from
//! there.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// Where the hooks connect, in the room; each finds it from where it stands (`hook/<kind>/FILE`, two directories
/// below the room), as it found the events file.
pub(crate) const SOCKET: &str = "report/hook.sock";

/// What loopgate writes of the record once the run is over, beside the events file, in its format: the
/// verified lines, one JSON event each (see `room::report::Report::read_events`).
pub(crate) const PLACE: &str = "report/record.jsonl";

/// Where no socket could be made for a run (see [`listen`]), a file saying so: the hooks then append their events
/// to the events file, as the shims do, and every runner's lines are read from it. Never the case for the
/// oracle's own runs, where loopgate makes the socket in its room before the run starts.
pub(crate) const OFF: &str = "report/record.off";

/// The event that voids a record: a line its hook did not sign, or a process that connected twice.
pub(crate) const FORGED: &str = "forged";

/// The event of a runner's process whose record holds no run: the runner wrote no report, whatever other
/// processes sent.
pub(crate) const UNRUN: &str = "unrun";

/// The events that say, for each connection, whether its process ran a run ([`RAN`]) or ran none without
/// having said it would ([`IDLE`]), named by the process's command line: a command line whose process ran the
/// baseline's run owes one at every promise (`room::Recorded::hook_runs`), whatever it said as it loaded.
pub(crate) const RAN: &str = "ran";
pub(crate) const IDLE: &str = "idle";

/// How long after the run loopgate still reads what the run's processes sent (a process exiting as the run ends).
const GRACE: Duration = Duration::from_millis(300);

/// A record being taken: the socket listened on, and what each connection sent.
struct Listening {
    room: PathBuf,
    stop: Arc<AtomicBool>,
    accepting: Option<JoinHandle<()>>,
    taken: Arc<Mutex<Vec<Connection>>>,
}

/// One connection, in the order accepted: which process made it, and what it sent.
struct Connection {
    pid: Option<u32>,
    reading: Option<JoinHandle<Vec<u8>>>,
}

/// The records being taken in this process: the one of each room prepared for a run.
static LISTENING: Mutex<Vec<Listening>> = Mutex::new(Vec::new());

/// Starts taking the record of the next run in the room at `room`: listens on its socket (a record this
/// process was taking there is dropped). Where the socket cannot be made, says so ([`OFF`]).
pub(crate) fn listen(room: &Path) -> io::Result<()> {
    let mut listening = LISTENING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(at) = listening.iter().position(|l| l.room == room) {
        listening.swap_remove(at).stop();
    }
    let socket = room.join(SOCKET);
    crate::room::remove_stale(&socket)?;
    crate::room::remove_stale(&room.join(PLACE))?;
    crate::room::remove_stale(&room.join(OFF))?;
    let Ok(listener) = UnixListener::bind(&socket) else {
        // No socket here (Claude Code's sandbox refuses Unix sockets to the agent's commands, where the agent's
        // own `loopgate verify` runs): the hooks fall back to the events file, read whole.
        return std::fs::write(room.join(OFF), b"");
    };
    let stop = Arc::new(AtomicBool::new(false));
    let taken: Arc<Mutex<Vec<Connection>>> = Arc::default();
    let accepting = {
        let (stop, taken) = (Arc::clone(&stop), Arc::clone(&taken));
        std::thread::Builder::new()
            .name("hook record".into())
            .spawn(move || accept(&listener, &stop, &taken))?
    };
    listening.push(Listening {
        room: room.to_path_buf(),
        stop,
        accepting: Some(accepting),
        taken,
    });
    Ok(())
}

/// Ends the records being taken for a run with the environment `env` (the run is over): those of the rooms
/// whose hooks its variables load. Reads what the connections still send for a moment, then writes each room's
/// verified record ([`PLACE`]) and removes its socket.
pub(crate) fn finish(env: Option<&[(OsString, OsString)]>) {
    let loads = |room: &Path| {
        let hooks = room.join("hook").into_os_string();
        let hooks = hooks.as_encoded_bytes();
        env.into_iter()
            .flatten()
            .any(|(_, value)| value.as_encoded_bytes().windows(hooks.len()).any(|w| w == hooks))
    };
    let taken: Vec<Listening> = {
        let mut listening = LISTENING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (ours, others) = std::mem::take(&mut *listening)
            .into_iter()
            .partition(|l| loads(&l.room));
        *listening = others;
        ours
    };
    for listening in taken {
        let room = listening.room.clone();
        let connections = listening.stop();
        let _ = std::fs::remove_file(room.join(SOCKET));
        let text: String = verified(&connections).concat();
        if !text.is_empty() {
            let _ = std::fs::write(room.join(PLACE), text);
        }
    }
}

impl Listening {
    /// Stops accepting and collects what each connection sent, waiting at most [`GRACE`] for the last bytes.
    fn stop(mut self) -> Vec<(Option<u32>, Vec<u8>)> {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
        let mut taken = std::mem::take(&mut *self.taken.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        taken
            .iter_mut()
            .map(|c| (c.pid, c.reading.take().and_then(|r| r.join().ok()).unwrap_or_default()))
            .collect()
    }
}

/// Accepts connections until `stop`, each read to its end by a thread of its own, then those already waiting
/// (a process that connected as the run ended). The socket is polled, never waited on for good: a run that
/// removed its file can still be stopped.
fn accept(listener: &UnixListener, stop: &Arc<AtomicBool>, taken: &Mutex<Vec<Connection>>) {
    use std::os::fd::AsRawFd;
    let take = |stream: UnixStream| {
        let _ = stream.set_nonblocking(false);
        let pid = peer_pid(&stream);
        let stop = Arc::clone(stop);
        let reading = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || read_all(stream, &stop))
            .ok();
        taken
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(Connection { pid, reading });
    };
    if listener.set_nonblocking(true).is_err() {
        return;
    }
    loop {
        let stopping = stop.load(Ordering::SeqCst);
        while let Ok((stream, _)) = listener.accept() {
            take(stream);
        }
        if stopping {
            return;
        }
        let mut ready = libc::pollfd {
            fd: listener.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the length of the call.
        unsafe { libc::poll(&raw mut ready, 1, 50) };
    }
}

/// Everything a connection sends until it closes, or until [`GRACE`] after the run is over.
fn read_all(mut stream: UnixStream, stop: &AtomicBool) -> Vec<u8> {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(50)));
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    let mut stopped: Option<Instant> = None;
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return bytes,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return bytes,
        }
        if stop.load(Ordering::SeqCst) && stopped.get_or_insert_with(Instant::now).elapsed() > GRACE {
            return bytes;
        }
    }
}

/// The process at the other end of `stream`, as the kernel says.
#[cfg(target_os = "linux")]
fn peer_pid(stream: &UnixStream) -> Option<u32> {
    use std::os::fd::AsRawFd;
    let mut cred = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are valid for the call and sized as SO_PEERCRED writes.
    let ok = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&raw mut cred).cast(),
            &raw mut len,
        )
    } == 0;
    ok.then(|| u32::try_from(cred.pid).ok()).flatten()
}

/// The process at the other end of `stream`, as the kernel says.
#[cfg(target_os = "macos")]
fn peer_pid(stream: &UnixStream) -> Option<u32> {
    use std::os::fd::AsRawFd;
    let mut pid: libc::pid_t = 0;
    let mut len = std::mem::size_of::<libc::pid_t>() as libc::socklen_t;
    // SAFETY: `pid` and `len` are valid for the call and sized as LOCAL_PEERPID writes.
    let ok = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_LOCAL,
            libc::LOCAL_PEERPID,
            (&raw mut pid).cast(),
            &raw mut len,
        )
    } == 0;
    ok.then(|| u32::try_from(pid).ok()).flatten()
}

/// Elsewhere no process is known: a second connection from one process is not told apart.
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn peer_pid(_stream: &UnixStream) -> Option<u32> {
    None
}

/// The first line a hook sends: its runner's name where its process runs one, and its key.
#[derive(serde::Deserialize)]
struct Hello {
    hello: String,
    key: String,
    #[serde(default)]
    runner: bool,
    /// The process's command line, as it loaded.
    #[serde(default)]
    argv: Vec<String>,
}

/// The signed part of a line: who sent it, its count in that process, and what it says.
#[derive(serde::Deserialize)]
struct Signed {
    pid: u64,
    seq: u64,
    event: String,
}

/// The signature of `json`, the `seq`th line a process sent under `key`: SHA-256 of the key, the count and the
/// line, each on a line of its own, in hex (what the hooks compute).
pub(crate) fn signature(key: &str, seq: u64, json: &str) -> String {
    let digest = Sha256::digest(format!("{key}\n{seq}\n{json}"));
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The record's lines, from what each connection (by its process) sent: each signed line's event as sent, then
/// whether the process ran a run ([`RAN`]), or began none, having said as it loaded that it runs the tests
/// ([`UNRUN`]: one that began and did not end shows by itself, a run cut short) or not ([`IDLE`]); and a [`FORGED`]
/// event for a line no hook signed, a gap in a process's count, or a second connection from one process.
fn verified(connections: &[(Option<u32>, Vec<u8>)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for (at, (pid, bytes)) in connections.iter().enumerate() {
        if bytes.is_empty() {
            // loopgate's own wake-up, or a process that connected and sent nothing.
            continue;
        }
        if let Some(pid) = pid
            && seen.insert(*pid, at).is_some()
        {
            out.push(forged(&format!("a second connection from process {pid}")));
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        let mut lines = text.split_inclusive('\n');
        let Some(hello) = lines
            .next()
            .and_then(|line| serde_json::from_str::<Hello>(line.trim_end()).ok())
        else {
            out.push(forged("a connection that did not open as a hook does"));
            continue;
        };
        let mut counts: BTreeMap<u64, u64> = BTreeMap::new();
        let mut begun = false;
        for line in lines {
            let Some(json) = line.strip_suffix('\n') else {
                // The process ended mid-line: what it sent stops there, as a run cut short.
                break;
            };
            let checked = json.split_once(' ').and_then(|(signature_hex, json)| {
                let signed: Signed = serde_json::from_str(json).ok()?;
                let next = counts.entry(signed.pid).or_insert(signed.seq);
                let ok = *next == signed.seq && signature(&hello.key, signed.seq, json) == signature_hex;
                *next += 1;
                ok.then_some((json, signed.event == "begin"))
            });
            let Some((json, begins)) = checked else {
                out.push(forged(&format!("a line its {} hook did not sign", hello.hello)));
                break;
            };
            begun |= begins;
            out.push(format!("{json}\n"));
        }
        let event = match (begun, hello.runner) {
            (true, _) => RAN,
            (false, true) => UNRUN,
            (false, false) => IDLE,
        };
        out.push(format!(
            "{{\"runner\":{},\"pid\":{},\"event\":\"{event}\",\"name\":{}}}\n",
            serde_json::Value::from(hello.hello.as_str()),
            pid.unwrap_or(0),
            serde_json::Value::from(hello.argv.join(" "))
        ));
    }
    out
}

/// The line that voids a record, saying why.
fn forged(why: &str) -> String {
    format!(
        "{{\"runner\":\"loopgate\",\"pid\":0,\"event\":\"{FORGED}\",\"name\":{}}}\n",
        serde_json::Value::from(why)
    )
}

#[cfg(test)]
mod tests;
