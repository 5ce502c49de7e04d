//! The one test sandbox, shared by every test binary that runs the real `loopgate` (`tests/cli.rs`,
//! `tests/run.rs`, `tests/e2e.rs`, `tests/robustness.rs`): a temporary directory holding a project, a `HOME`
//! and a `LOOPGATE_HOME` (the seal store), commands isolated from the developer's shell and from a surrounding
//! Claude Code session, and the process checks the suites share — all portable (no `/proc`). Each binary's own
//! harness (`cli/project.rs`, `run/support.rs`, `e2e/harness.rs`) builds its fluent API on top of it.
//!
//! Each test binary uses a different part of this file, hence `dead_code` is allowed here.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The binary under test.
pub const LOOPGATE: &str = env!("CARGO_BIN_EXE_loopgate");

/// A verify script: passes once `src.txt` holds `fixed`, otherwise fails with a recognizable line.
pub const CHECK_SH: &str = r#"#!/bin/sh
if [ "$(cat src.txt 2>/dev/null)" = fixed ]; then
    echo "check: 3 passed"
    exit 0
fi
echo "test parser::roundtrip ... FAILED"
echo "VERIFY-MARK-7: expected 'fixed' in src.txt, found '$(cat src.txt 2>/dev/null)'"
exit 1
"#;

/// The task most scenarios give.
pub const TASK: &str = "make src.txt say fixed";

/// A temporary directory (canonical, so paths compare equal to what loopgate prints) with `project/` and
/// `home/`, and the path `loopgate-home/`, which loopgate itself creates (0700) when it first seals a loop;
/// removed when dropped, unless it is a directory the caller keeps ([`Sandbox::at`]).
pub struct Sandbox {
    _temp: Option<tempfile::TempDir>,
    /// The temporary directory itself, for anything else a suite keeps there.
    pub base: PathBuf,
    pub project: PathBuf,
    pub home: PathBuf,
    pub loopgate_home: PathBuf,
}

impl Sandbox {
    /// A fresh sandbox; `prefix` names its directory (`loopgate-cli-…`), to tell the suites' leftovers apart.
    pub fn new(prefix: &str) -> Self {
        let temp = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir()
            .expect("create a temp dir");
        let mut sandbox = Self::at(temp.path());
        sandbox._temp = Some(temp);
        sandbox
    }

    /// A sandbox in `dir`, which the caller made and keeps (not removed when dropped): the gaming suite's shared
    /// setups restore a loop into the same directory for each case that starts alike (`tests/gaming/shared_setup.rs`).
    pub fn at(dir: &Path) -> Self {
        let base = dir.canonicalize().expect("canonicalize the sandbox dir");
        let (project, home, loopgate_home) = (base.join("project"), base.join("home"), base.join("loopgate-home"));
        for dir in [&project, &home] {
            fs::create_dir_all(dir).expect("create a sandbox dir");
        }
        Sandbox {
            _temp: None,
            base,
            project,
            home,
            loopgate_home,
        }
    }

    /// `program` isolated in this sandbox (see [`Sandbox::isolate`]), in the project directory.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        self.isolate(&mut cmd);
        cmd.current_dir(&self.project);
        cmd
    }

    /// Removes what would reach in from outside — Claude Code's and loopgate's variables, API keys, proxies, git
    /// locations, the XDG directories (`loopgate install` writes to the data directory), `NO_COLOR` — and points
    /// `HOME` and `LOOPGATE_HOME` into the sandbox.
    pub fn isolate(&self, cmd: &mut Command) {
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            let outside = ["CLAUDE", "LOOPGATE", "ANTHROPIC", "GIT_"]
                .iter()
                .any(|prefix| key.starts_with(prefix))
                || key.eq_ignore_ascii_case("http_proxy")
                || key.eq_ignore_ascii_case("https_proxy")
                || key.eq_ignore_ascii_case("all_proxy")
                || ["XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"].contains(&&*key)
                || key == "NO_COLOR";
            if outside {
                cmd.env_remove(&*key);
            }
        }
        cmd.env("HOME", &self.home).env("LOOPGATE_HOME", &self.loopgate_home);
        // One directory of seeds for every sandbox's store (`room::caches::Seeding`), as a machine has one for all
        // its loops: the standard library's Go build and Python's bytecode of what lies outside the projects are
        // compiled once for the suites, not once more at each sandbox's first setup.
        cmd.env("LOOPGATE_SEEDS", Path::new(env!("CARGO_TARGET_TMPDIR")).join("seeds"));
        // The sandbox's own temporary directory: loopgate's store lies in the system's (`/tmp/…/loopgate-home`),
        // and confinement closes every directory above the store to new entries — `/tmp` itself here, which a
        // user's store in `~/.local/state` never makes one (rustdoc, for one, makes its directory in `$TMPDIR`).
        let tmp = self.base.join("tmp");
        let _ = std::fs::create_dir_all(&tmp);
        cmd.env("TMPDIR", tmp);
    }

    /// A path in the project.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.project.join(rel)
    }

    /// A folder (made here, one per sandbox) where the oracle's run writes what a test must read: outside the
    /// project (the run stands in the room's copy of it), `HOME`, `/tmp` and `/var/tmp` (the run writes those into
    /// a scratch of its own, thrown away after it) — `/dev/shm` where it exists, since cargo's directory for tests'
    /// files lies under `/tmp` when the checkout does (a CI clone).
    pub fn signals(&self) -> PathBuf {
        let name = self.base.file_name().expect("the sandbox's name");
        let dir = signals_base().join(name);
        fs::create_dir_all(&dir).expect("signals dir");
        dir
    }
}

/// Where [`Sandbox::signals`] makes its folders: `/dev/shm` where it exists, since cargo's directory for tests'
/// files lies under `/tmp` when the checkout does (a CI clone), and the oracle's run writes `/tmp` into a scratch.
pub fn signals_base() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.join("loopgate-test-signals")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("signals")
    }
}

/// Writes a file, creating its parent directories; executable when it starts with `#!`.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).expect("create parent dir");
    }
    let contents = contents.as_ref();
    fs::write(path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    if contents.starts_with(b"#!") {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// Polls `check` until it holds or `within` passes.
pub fn eventually(within: Duration, mut check: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if check() {
            return true;
        }
        if start.elapsed() > within {
            return false;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// The state letter (`R`, `S`, `Z`…) of each of `pids` that exists, from one `ps` (POSIX, on Linux and macOS).
pub fn process_states(pids: impl IntoIterator<Item = i64>) -> BTreeMap<i64, char> {
    let list: Vec<String> = pids.into_iter().map(|p| p.to_string()).collect();
    if list.is_empty() {
        return BTreeMap::new();
    }
    let out = Command::new("ps")
        .args(["-o", "pid=,stat=", "-p", &list.join(",")])
        .output()
        .expect("run ps");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let pid = fields.next()?.parse().ok()?;
            Some((pid, fields.next()?.chars().next()?))
        })
        .collect()
}

/// Whether `pid` runs: it exists and is not a zombie.
pub fn alive(pid: impl Into<i64>) -> bool {
    let pid = pid.into();
    process_states([pid]).get(&pid).is_some_and(|&state| state != 'Z')
}

/// Whether the tests run as root (file modes do not stop root's writes).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Reads the child's stdout and stderr to their ends on threads of their own (so a full pipe never stalls it);
/// join the handles for the text.
pub fn drain_output(child: &mut Child) -> (JoinHandle<String>, JoinHandle<String>) {
    fn drain(pipe: Option<Box<dyn Read + Send>>) -> JoinHandle<String> {
        thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    }
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    (stdout, stderr)
}

/// Whether strace can trace here, as loopgate's traced baseline needs (CI installs it; a container may refuse
/// ptrace). A test of the observed closure skips, saying so, where it cannot.
pub fn strace_can_trace() -> bool {
    let ok = Command::new("strace")
        .args(["-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "--", "true"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("strace cannot trace on this machine: this observed-closure test is skipped");
    }
    ok
}
