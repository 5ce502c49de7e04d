//! Watching what the baseline run touches: the sealed verify command run once under `strace`, so the oracle's
//! inputs are **observed, not enumerated** (SPEC.md's second oracle principle; `closure::observed` turns what
//! is seen here into seals).
//!
//! Why strace: it is in every Linux distribution's packages (`.ci/run` installs Debian's), it follows every
//! child process (`-f`), and with `--seccomp-bpf` the kernel stops only on the syscalls asked for, so a test
//! suite that mostly computes runs at nearly full speed (figures in BENCHMARKS.md). A ptrace crate would mean
//! writing the syscall decoding that strace already does well.
//!
//! What is asked for: every syscall that names a file (`%file`: open, stat, access, execve, readlink, mkdir,
//! rename, …), `getdents64` (a directory listed) and the process calls (`%process`, for `-f`'s bookkeeping);
//! `-y` prints every file descriptor with its path (the working directory of `AT_FDCWD` too), so relative
//! paths resolve without tracking `chdir`. Signals and attach messages are not printed (`-qq`,
//! `-e signal=none`).
//!
//! A traced run must not change the verdict of the run it traces: with `-D` strace runs as a detached
//! grandchild and the verify shell stays loopgate's own child, so its exit status, a signal that killed it, its
//! process group and the supervisor's handling of processes it leaves behind are exactly as without tracing
//! (strace as the parent would wait for every background process the command left). strace writes each line
//! as the syscall happens, so the trace is whole when the shell has exited; its output goes to a file, never to
//! the command's output. Where it is unavailable — not Linux, not installed, or ptrace refused (a container without the
//! capability) — [`Tracer::find`] says why and the loop keeps the derived closure alone, which `loopgate
//! status` shows.

pub(crate) mod parse;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) use parse::{Access, Event, Processes};

/// Set to `0` to run the baseline untraced (the derived closure alone), e.g. where tracing is too slow.
pub(crate) const TRACE_ENV: &str = "LOOPGATE_TRACE";

/// A working strace.
#[derive(Clone, Debug)]
pub(crate) struct Tracer {
    strace: PathBuf,
    /// Only what the run opened and ran (see [`Tracer::loads_only`]).
    loads_only: bool,
    /// What each process did, whole (see [`Tracer::steps`]).
    steps: bool,
}

impl Tracer {
    /// The strace on `PATH`, if it can trace here; otherwise why not, in words for `loopgate status`.
    ///
    /// Asked once per process: a promise asks several times (steps set aside, the resolution check, the whole
    /// trace), and each probe is a run of strace.
    pub(crate) fn find() -> Result<Tracer, String> {
        static FOUND: std::sync::OnceLock<Result<Tracer, String>> = std::sync::OnceLock::new();
        FOUND.get_or_init(Tracer::probe).clone()
    }

    fn probe() -> Result<Tracer, String> {
        if !cfg!(target_os = "linux") {
            return Err("process tracing is built for Linux only".to_string());
        }
        if std::env::var_os(TRACE_ENV).is_some_and(|v| v == "0") {
            return Err(format!("{TRACE_ENV}=0"));
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let Some(strace) = std::env::split_paths(&path)
            .map(|dir| dir.join("strace"))
            .find(|candidate| candidate.is_file())
        else {
            return Err("strace is not installed (Debian/Ubuntu: apt install strace)".to_string());
        };
        let tracer = Tracer {
            strace,
            loads_only: false,
            steps: false,
        };
        // A run of `true` under the same options proves ptrace and seccomp filters are allowed here.
        let probe = Command::new(&tracer.strace)
            .args(tracer.options(Path::new("/dev/null")))
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match probe {
            Ok(status) if status.success() => Ok(tracer),
            Ok(_) => Err("strace cannot trace here (ptrace is not permitted, e.g. in a container)".to_string()),
            Err(err) => Err(format!("strace could not start: {err}")),
        }
    }

    /// This tracer, seeing only the files a run opened, the programs it ran and its processes and working
    /// directories — what a promise's resolution check reads (`closure::resolved::redirects`: where each module
    /// was loaded from). The baseline's closure needs every file call besides (probes, listings, paths looked for
    /// and missing), and Python's imports make ten of those for each file they open: on click's 589 tests the
    /// whole set cost 0.35 s of CPU on a 1.8 s run, the opens alone nothing measurable (strace's seccomp filter
    /// stops the process only at the calls asked for).
    pub(crate) fn loads_only(self) -> Tracer {
        Tracer {
            loads_only: true,
            ..self
        }
    }

    /// This tracer, seeing what each process of the run did, whole: every file call (the baseline's set), when
    /// each process ended (`+++ exited`, which `-qq` leaves out), argument vectors not cut short (`-s`), and a
    /// write into another process's memory — what `oracle::steps` needs to tell a step of the run from the rest
    /// and see whether it fed the rest anything. A promise asks for it only when a step is to be judged.
    pub(crate) fn steps(self) -> Tracer {
        Tracer {
            loads_only: false,
            steps: true,
            ..self
        }
    }

    /// The words that run a command under this tracer, writing the trace to `out`; the command's own argv
    /// follows.
    pub(crate) fn prefix(&self, out: &Path) -> Vec<OsString> {
        let mut argv = vec![self.strace.clone().into_os_string()];
        argv.extend(self.options(out));
        argv
    }

    fn options(&self, out: &Path) -> Vec<OsString> {
        let mut options: Vec<OsString> = [
            "-D",
            "-f",
            if self.steps { "-q" } else { "-qq" },
            "-y",
            "--seccomp-bpf",
            "-e",
            if self.loads_only {
                "trace=/^(open|openat2?|creat|f?chdir)$,%process"
            } else if self.steps {
                "trace=%file,%process,getdents64,process_vm_writev"
            } else {
                "trace=%file,%process,getdents64"
            },
            "-e",
            "signal=none",
            "-o",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        options.push(out.as_os_str().to_owned());
        if self.steps {
            options.extend(["-s".into(), "65536".into()]);
        }
        options.push("--".into());
        options
    }
}

/// Reads a trace file of a command started in `cwd` into its processes (see [`Processes`]), with the paths of a
/// copy at its own path (`moved`) read as the project's, as [`read_moved`] does; a missing trace reads as one
/// that could not be read.
pub(crate) fn processes_moved(path: &Path, cwd: &Path, moved: Option<&Path>) -> Processes {
    let Ok(bytes) = std::fs::read(path) else {
        return Processes {
            unreadable: Some(format!("no trace at `{}`", path.display())),
            ..Processes::default()
        };
    };
    let text = String::from_utf8_lossy(&bytes);
    match moved {
        Some(copy) => parse::processes(&text.replace(&*copy.to_string_lossy(), &cwd.to_string_lossy()), cwd),
        None => parse::processes(&text, cwd),
    }
}

/// Reads a trace file of a command started in `cwd` into events; a missing or unreadable trace reads as none
/// (the run is not judged on it).
/// `moved`: where the command was started in a copy of the project at `cwd` at the copy's own path (the room's
/// tree, `TreeState::Copied`); the copy's paths then read as the project's, so what the run loaded compares with the
/// project's files as a run in the project (or in the mounted copy) would. `skip`: processes whose events are left
/// out; `by_output`: the programs judged by their output (see [`parse::events`]).
pub(crate) fn read_moved(
    path: &Path,
    cwd: &Path,
    moved: Option<&Path>,
    skip: &std::collections::HashSet<u32>,
    by_output: fn(&Path) -> bool,
) -> Vec<Event> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    match moved {
        Some(copy) => parse::events(
            &text.replace(&*copy.to_string_lossy(), &cwd.to_string_lossy()),
            cwd,
            skip,
            by_output,
        ),
        None => parse::events(&text, cwd, skip, by_output),
    }
}
