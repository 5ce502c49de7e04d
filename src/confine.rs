//! Confinement: runs a process so that neither it nor anything it starts can write the loop's control plane
//! (`plane::Plane`). It is how the control plane stays the user's in the default install: the agent's Bash
//! commands (rewritten by the PreToolUse hook to run under `loopgate confine`), the agent `loopgate run` starts,
//! and the oracle's own verify run (which runs code the agent wrote) all run confined.
//!
//! - **Linux**: a Landlock domain (`linux.rs`), unprivileged, inherited by every child, impossible to drop.
//!   Landlock can only allow, so the plane is protected by making each directory above a protected path closed to
//!   new entries: a new file directly in `$HOME`, `~/.claude` or `~/.local/state` cannot be created while
//!   confined (existing files there stay writable). The project root is never such a directory — the plane holds
//!   nothing inside the project — so builds, package installs, virtualenvs and git work as before.
//! - **macOS**: a Seatbelt profile (`macos.rs`) through `sandbox-exec`, which has deny rules.
//! - **Elsewhere**, or where the kernel refuses: the command runs unconfined, and [`probe`] says why, so setup,
//!   `loopgate status` and the report can say `control plane: unprotected (why)` instead of pretending.
//!
//! **The agent's world is one type for its three users**: a [`Plane`] (what may not be written, `plane::ROWS`)
//! entered through [`command`] or [`exec`]. The Bash rewrite (`rewrite`, run by `loopgate confine`) takes
//! `Plane::new`; the agent `loopgate run` starts (`commands::run::agent`) takes `Plane::for_agent_cli`, the same
//! plane but for the files the agent CLI writes itself; a tournament's candidates are `loopgate run`s whose
//! agent and whose agent's Bash take those two planes, narrowed where the tournament's variables name the
//! candidate (`plane::CANDIDATE_TREE_ENV`, read in `Plane::of` alone). None of them builds a world of its own.
//!
//! What stays outside: in-project files (the project's `.claude/settings*.json`, the state file, sealed tests)
//! are the guard's and the seal's job, and Claude Code's own file tools (Write, Edit) run in Claude Code's
//! process, which is not confined; the guard judges those.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "linux")]
pub(crate) mod mount;
#[cfg(not(target_os = "linux"))]
#[path = "confine/mount_other.rs"]
pub(crate) mod mount;
pub mod rewrite;
#[cfg(target_os = "linux")]
pub(crate) mod world;

/// How a place stands during a run: read-only as it is (a directory or a file; bound over itself), or, where
/// absent and the run's private scratch holds the place's parent, made there (with its missing parents) as an
/// empty read-only directory or file (`room::outside`). The places stand as the baseline left them when the run starts
/// (the covers); frozen, a step of the run (a make prerequisite, a build script) cannot write one for the
/// runner it starts next, and a test cannot write one for the processes it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frozen {
    Dir,
    File,
    MadeDir,
    MadeFile,
}

/// What a run's namespace lays over paths outside its tree so that the run reads them as they were (the room's
/// snapshot, `room::snapshot`, implements it): the mount code asks it, and never names the room. Only Linux's
/// mount namespace presents; elsewhere the snapshot is compared by content (`room::snapshot`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) trait Presenter {
    /// Where the layers live: a place that holds it cannot have a layer of its own (overlayfs refuses a layer
    /// inside another of the same mount).
    fn store(&self) -> &std::path::Path;
    /// The places to overlay for a project at `root`, none holding the project or any of `avoid`.
    fn places(&self, root: &std::path::Path, avoid: &[std::path::PathBuf]) -> Vec<std::path::PathBuf>;
    /// The layer to lay over `place` (with `deeper`, below it, overlaid on their own), and the paths it presents;
    /// `None` where it presents nothing or cannot be built.
    fn layer(
        &self,
        place: &std::path::Path,
        deeper: &[std::path::PathBuf],
    ) -> Option<(std::path::PathBuf, Vec<std::path::PathBuf>)>;
    /// `(source, path)`: a file to bind over each path no layer presents (`presented`), where one can be.
    fn file_binds(&self, presented: &[std::path::PathBuf]) -> Vec<(std::path::PathBuf, std::path::PathBuf)>;
}

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::process::Command;
use std::sync::OnceLock;

use crate::plane::Plane;

/// Set in a confined command's environment (`landlock` or `seatbelt`) once its confinement is in place: for
/// people and tests to see that it is; nothing trusts it.
pub const CONFINED_VAR: &str = "LOOPGATE_CONFINED";

/// The seal store's companion that names the loop (its `loop_id`) whose agent's commands ran unconfined because
/// Claude Code was in auto mode (see `hook::pre_tool_use::confined`): the notice is given once per loop, and
/// `loopgate status` shows the gap.
pub const UNCONFINED: &str = "unconfined";

/// Why the agent's commands are not confined in Claude Code's auto mode, after "control plane: unprotected (…)".
pub const AUTO_MODE: &str = "auto mode";

/// Whether this machine can confine a process, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protection {
    /// Linux: the agent's world, a mount namespace in which only the plane is read-only (`world`), with Landlock
    /// at this ABI version where the kernel has it (the oracle's runs are confined by Landlock, see
    /// [`command_after`]).
    Namespace { landlock: Option<u32> },
    /// Linux Landlock, at this ABI version.
    Landlock { abi: u32 },
    /// macOS Seatbelt (`sandbox-exec`).
    Seatbelt,
    /// No confinement: the commands run, and nothing at the OS level keeps them off the control plane.
    Unprotected { why: String },
}

impl Protection {
    pub fn is_protected(&self) -> bool {
        !matches!(self, Protection::Unprotected { .. })
    }
}

impl fmt::Display for Protection {
    /// `protected (Landlock ABI 6)` / `protected (Seatbelt)` / `unprotected (why)`, after "control plane: ".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Protection::Namespace { .. } => write!(f, "protected (mount namespace)"),
            Protection::Landlock { abi } => write!(f, "protected (Landlock ABI {abi})"),
            Protection::Seatbelt => write!(f, "protected (Seatbelt)"),
            Protection::Unprotected { why } => write!(f, "unprotected ({why})"),
        }
    }
}

/// This machine's confinement, probed once per process. `LOOPGATE_CONFINE=off` turns it off (reported as
/// unprotected, so it is never silent); `LOOPGATE_CONFINE=landlock` keeps Linux to Landlock alone, as before the
/// agent's world (for comparing the two, and as a way back should a kernel misbehave with namespaces).
pub fn probe() -> &'static Protection {
    static PROBED: OnceLock<Protection> = OnceLock::new();
    PROBED.get_or_init(|| {
        let switch = std::env::var_os("LOOPGATE_CONFINE");
        if switch.as_ref().is_some_and(|v| v == "off") {
            return Protection::Unprotected {
                why: "turned off by LOOPGATE_CONFINE=off".into(),
            };
        }
        #[cfg(target_os = "linux")]
        if switch.is_some_and(|v| v == "landlock") {
            return linux::probe();
        }
        platform_probe()
    })
}

/// On Linux, the agent's world where user namespaces work (`mount::probe`), else Landlock alone.
#[cfg(target_os = "linux")]
fn platform_probe() -> Protection {
    let landlock = linux::probe();
    match mount::probe() {
        Ok(()) => Protection::Namespace {
            landlock: match landlock {
                Protection::Landlock { abi } => Some(abi),
                _ => None,
            },
        },
        Err(_) => landlock,
    }
}

#[cfg(target_os = "macos")]
fn platform_probe() -> Protection {
    macos::probe()
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn platform_probe() -> Protection {
    Protection::Unprotected {
        why: "no confinement on this operating system".into(),
    }
}

/// `program args…` as a command that runs in the agent's world, kept off `plane`, and how it is protected.
/// Everything is prepared here, before any `fork`: on Linux the child only makes system calls. Where the world
/// cannot be built (no user namespaces, or a plane that must allow only some directories), the command is
/// confined as the oracle's runs are ([`command_after`]); where confinement is not available, or preparing it
/// fails, it is returned plain with the reason (never an error: confinement must not keep honest work from
/// running).
pub fn command<A: AsRef<OsStr>>(plane: &Plane, program: impl AsRef<OsStr>, args: &[A]) -> (Command, Protection) {
    #[cfg(target_os = "linux")]
    if let Some(world) = world_of(plane) {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(program.as_ref());
        command.args(args);
        // SAFETY: `World::enter` only makes system calls on data prepared before the fork.
        unsafe {
            command.pre_exec(move || world.enter());
        }
        command.env(CONFINED_VAR, NAMESPACE_MARK);
        return (command, probe().clone());
    }
    command_after(plane, None, program, args)
}

/// `git ARGS` in `root` as loopgate runs every git command in the user's repository (checkpoints, the guard's and
/// a rejection's `ls-files`, setup's `log`): in the agent's world ([`command`], `Plane::for_git_in`), without
/// optional locks, prompts or a translated output. In the agent's world because git runs what the repository's
/// `.git/config` names — `core.fsmonitor` even for a read such as `ls-files` or `log`, filter drivers, hooks,
/// `gpg.program` — which the agent can write, and loopgate runs git from its hooks: outside the agent's world,
/// that program would run with the control plane writable.
pub fn git(root: &std::path::Path, args: &[&str]) -> Command {
    let (mut cmd, _) = command(&Plane::for_git_in(root), "git", args);
    cmd.current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C");
    cmd
}

/// What a command in the agent's world carries in [`CONFINED_VAR`].
pub const NAMESPACE_MARK: &str = "namespace";

/// The agent's world for `plane`, where this machine has one and the plane is one it can build (a plane that
/// allows only some directories is Landlock's: [`Plane::only`]).
#[cfg(target_os = "linux")]
fn world_of(plane: &Plane) -> Option<world::World> {
    if !matches!(probe(), Protection::Namespace { .. }) || plane.is_only() {
        return None;
    }
    match world::World::prepare(plane) {
        Ok(world) => Some(world),
        Err(err) => {
            eprintln!("loopgate: the agent's world could not be prepared ({err}); confining with Landlock");
            None
        }
    }
}

/// A step the child takes between `fork` and `exec`, before it enters the confinement (see [`command_after`]).
pub type First = Box<dyn FnMut() -> std::io::Result<()> + Send + Sync>;

/// [`command`], with `first` taken in the child before the confinement is entered: the oracle's run mounts its
/// tree there (`mount`), which a Landlock domain would forbid. Not taken under Seatbelt (no mounts there).
pub fn command_after<A: AsRef<OsStr>>(
    plane: &Plane,
    first: Option<First>,
    program: impl AsRef<OsStr>,
    args: &[A],
) -> (Command, Protection) {
    let program = program.as_ref();
    let plain = move || {
        let mut command = Command::new(program);
        command.args(args);
        if let Some(first) = first {
            // SAFETY: the caller's step is async-signal-safe (see `First`'s users).
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut command, first);
            }
        }
        command
    };
    match probe() {
        #[cfg(target_os = "linux")]
        Protection::Landlock { abi } | Protection::Namespace { landlock: Some(abi) } => {
            match linux::Domain::prepare(plane, *abi) {
                Ok(domain) => {
                    let mut command = domain.confine(plain());
                    command.env(CONFINED_VAR, "landlock");
                    (command, Protection::Landlock { abi: *abi })
                }
                Err(err) => (
                    plain(),
                    Protection::Unprotected {
                        why: format!("the Landlock ruleset could not be built: {err}"),
                    },
                ),
            }
        }
        #[cfg(target_os = "macos")]
        Protection::Seatbelt => {
            drop(plain);
            let mut command = macos::command(plane, program, args);
            command.env(CONFINED_VAR, "seatbelt");
            (command, Protection::Seatbelt)
        }
        other => {
            let _ = plane;
            (plain(), other.clone())
        }
    }
}

/// Enters the confinement for `plane` in this process, then replaces it with `program args…`; returns only if
/// that `exec` failed. Where confinement is unavailable or cannot be entered the command still runs (the reason
/// is what [`probe`] reports to setup and `loopgate status`).
pub fn exec(plane: &Plane, program: &OsStr, args: &[OsString]) -> std::io::Error {
    use std::os::unix::process::CommandExt;
    #[cfg(target_os = "linux")]
    if let Some(world) = world_of(plane) {
        // Entered here rather than between fork and exec (this process is single-threaded, as `unshare` of a
        // user namespace requires): an error is then the world's, not the command's.
        let mut command = Command::new(program);
        match world.enter() {
            Ok(()) => {
                command.env(CONFINED_VAR, NAMESPACE_MARK);
            }
            Err(err) => eprintln!("loopgate: control plane unprotected: the agent's world could not be entered: {err}"),
        }
        return command.args(args).exec();
    }
    #[cfg(target_os = "linux")]
    if let Protection::Landlock { abi } | Protection::Namespace { landlock: Some(abi) } = probe()
        && let Ok(domain) = linux::Domain::prepare(plane, *abi)
    {
        // Entered here rather than between fork and exec: an error is then the domain's, not the command's.
        let mut command = Command::new(program);
        match domain.enter_now() {
            Ok(()) => {
                command.env(CONFINED_VAR, "landlock");
            }
            Err(err) => eprintln!("loopgate: control plane unprotected: Landlock could not be entered: {err}"),
        }
        return command.args(args).exec();
    }
    command(plane, program, args).0.exec()
}

#[cfg(test)]
/// Whether this test run has Landlock: always on CI's and the workplace's kernels, except under qemu-user
/// (`scripts/dist.sh --qemu-tests` says so with `LOOPGATE_TEST_NO_LANDLOCK=1`), which does not emulate Landlock's
/// system calls. Only that explicit word turns the expectation around; nothing is skipped silently.
pub(crate) fn landlock_expected() -> bool {
    std::env::var_os("LOOPGATE_TEST_NO_LANDLOCK").is_none()
}

#[cfg(all(test, target_os = "linux"))]
mod tests;
