//! Steps of the run judged by what they did (issue 39, item 3): a changed `pretest`, a new line of a script the
//! verify runs that runs a program before the runner (`closure::steps` says which moved parts are steps and how
//! each step's first process is known).
//!
//! **Why this holds.** A step runs in a process of its own that the rest of the run waits for; it can reach
//! the rest of the run only through what outlives it. The promise's run is traced per process (`trace::Tracer::
//! steps`: every file call, every program started with its whole argument vector, every process's end), and a
//! step is free only when the trace shows, for every process it started (its whole subtree, by the `clone` /
//! `fork` results, threads and double forks included):
//! - **nothing it wrote was touched by any other process of the run** — read, run, listed, probed, looked for,
//!   or written again (an appended events file is touched too) — under the name written or the file reached
//!   after links, and with its directory resolved through the links that stand now (a step writing
//!   `nm/.bin/node` where `nm -> node_modules` names the runner's `node_modules/.bin/node`), and everything below
//!   a file, link or name renamed over it wrote (a directory renamed into place), at any time in the run: a module
//!   the tests import, a shim on `PATH`, a file in `$HOME`, a bytecode cache, a test package's initialiser all
//!   become such a path; a directory it only made is no content;
//! - **every process of it had ended before any other process started a program after the step began**: a
//!   process left running (a server, a `sleep 1; write` in the background) could act on the runner while it
//!   runs, through a socket or a file written after this check's order of events, so it is refused outright;
//! - **it wrote no other process's memory and nothing through a name only it can read** (`process_vm_writev`,
//!   any `/proc/…` or `/dev/fd/…` path but its own standard streams: `/proc/1234/mem`, `/proc/self/cwd/x`).
//!
//! What the runner then reads is what it would read without the step, so the step's text needs no reading at
//! all: a syntax check, a linter, a version query, a type check all pass; a step that generates what the tests
//! import (a build) is refused, as before, because the rest of the run read what it wrote.
//!
//! **Fail closed.** Where the premise cannot be shown, the move stands as it did before this module: no tracer
//! (not Linux, no strace, ptrace refused) → the step is not set aside at all; a trace with a line that is not a
//! process's (cut, forged, a NUL byte), a process other than the first with no known parent, a step no process
//! was seen starting, or a write to the trace itself → the move is rejected with why. A step is recognised by the
//! argument vector of its first process only to *find* its processes; a process of the rest started with the
//! same words is counted as the step's, which can only add to what is checked.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::closure::steps::{Finding, Step};
use crate::closure::{MovedPart, Why};
use crate::inputs::{Inputs, Move};
use crate::schema::Source;
use crate::trace::{Access, Processes};

/// The moves of a promise set aside as steps of the run, each with how its processes are known.
#[derive(Debug, Default)]
pub(crate) struct Steps {
    aside: Vec<(Move, Vec<Step>)>,
}

impl Steps {
    /// Takes out of `moves` every move that is steps of the run only, where a trace can judge them (`traced`,
    /// asked only when there is such a move: whether a tracer works here); otherwise every move is returned as it
    /// came.
    pub(crate) fn set_aside(
        moves: Vec<Move>,
        inputs: &Inputs,
        root: &Path,
        traced: impl FnOnce() -> bool,
    ) -> (Vec<Move>, Steps) {
        let mut steps = Steps::default();
        let Some(derived) = inputs.derived.as_ref() else {
            return (moves, steps);
        };
        let found: Vec<Option<Vec<Step>>> = moves
            .iter()
            .map(|m| match m {
                Move::Part(Source::Derived, moved) => derived.steps(root, moved),
                _ => None,
            })
            .collect();
        if found.iter().all(Option::is_none) || !traced() {
            return (moves, steps);
        }
        let mut kept = Vec::new();
        for (m, found) in moves.into_iter().zip(found) {
            match found {
                Some(found) => steps.aside.push((m, found)),
                None => kept.push(m),
            }
        }
        (kept, steps)
    }

    /// Sets `found` aside too (moves that are steps of the run only, each with how its processes are known), where
    /// a trace can judge them (`traced`, asked only when there is one); the moves it cannot set aside, returned.
    pub(crate) fn add(&mut self, found: Vec<(Move, Vec<Step>)>, traced: impl FnOnce() -> bool) -> Vec<Move> {
        if found.is_empty() || !traced() {
            return found.into_iter().map(|(m, _)| m).collect();
        }
        self.aside.extend(found);
        Vec::new()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.aside.is_empty()
    }

    /// What the steps set aside did in `procs` (in the project at `root`), once [`Steps::judge`] cleared them.
    pub(crate) fn stepped(&self, procs: &Processes, root: &Path) -> Stepped {
        let steps: Vec<Step> = self.aside.iter().flat_map(|(_, steps)| steps.iter().cloned()).collect();
        Stepped::of(procs, &steps, root)
    }

    /// `moves` less the ones set aside (a later check of the same inputs finds them again).
    pub(crate) fn forgive(&self, moves: Vec<Move>) -> Vec<Move> {
        moves
            .into_iter()
            .filter(|m| !self.aside.iter().any(|(aside, _)| aside == m))
            .collect()
    }

    /// The moves set aside that the run's processes (`procs`, traced to `trace`, in the project at `root`, with
    /// what the run met beside the steps' writes, `beside`) do not clear, each with what its step did; empty when
    /// every step is free.
    pub(crate) fn judge(&self, procs: &Processes, trace: &Path, root: &Path, beside: &Beside) -> Vec<Move> {
        self.aside
            .iter()
            .filter_map(|(m, steps)| {
                let finding = match finding(procs, steps, trace, beside)? {
                    Finding::Fed(path) => Finding::Fed(
                        Path::new(&path)
                            .strip_prefix(root)
                            .map_or(path.clone(), |p| p.display().to_string()),
                    ),
                    other => other,
                };
                let Move::Part(source, moved) = m else { return None };
                Some(Move::Part(
                    *source,
                    MovedPart {
                        why: Why::Step(finding),
                        ..moved.clone()
                    },
                ))
            })
            .collect()
    }
}

/// The run's caches that a toolchain fills with entries keyed by everything that made them (`room::caches::
/// FILLED`: Go's build cache), and how to tell what a program the run executed is.
///
/// **Why an entry its toolchain wrote is no step's content.** Go names every entry of its build cache by a hash
/// of everything the action read — the sources' bytes, the flags, the compiler, even a `-toolexec` wrapper — so an
/// entry the `go` command and its tools wrote is the entry any build of the same inputs would write: the
/// runner reading it later reads what it would have computed itself, whoever asked for the build. `go vet` or
/// `go build` before `go test` is such a step. What makes an entry wrong is a writer other than the toolchain (a
/// shell's redirect, a copy, the agent's program), or one that changed what a tool produced before the `go`
/// command stored it (a file of its work directory rewritten). So a step's entries are vouched for only when
/// **every** write of the step — anywhere, not only in the cache — was made by a process running one of the
/// toolchain's programs (the program it ran at that line of the trace, or its parent's when it had run none),
/// each program being one of the toolchain's by name and in a place the agent cannot change: the system's
/// directories (`room::snapshot::SYSTEM`) or one the snapshot presents to the run — or the room's private path
/// of such a runner binary, which the start channel's stand-in runs (`room::hook::binary`). Anything else the step wrote
/// is judged as before, and a step with one write by any other program has no entry vouched for.
pub(crate) struct Filled<'a> {
    /// Each cache's directory as the run has it, and the names of its toolchain's programs.
    pub(crate) caches: Vec<(PathBuf, &'static [&'static str])>,
    /// What the program the run executed at a path is, where the agent cannot have changed it (its path, or the
    /// runner binary the room runs from a private path); `None` where the agent could have.
    pub(crate) program: &'a dyn Fn(&Path) -> Option<PathBuf>,
}

impl Filled<'_> {
    /// No cache (a run outside the room, or with none filled so).
    #[cfg(test)]
    pub(crate) fn none() -> Filled<'static> {
        Filled {
            caches: Vec::new(),
            program: &|_| None,
        }
    }

    /// The caches whose entries the processes of `side` wrote as their toolchain alone.
    fn vouched(&self, procs: &Processes, side: &HashSet<u32>) -> Vec<&Path> {
        if self.caches.is_empty() {
            return Vec::new();
        }
        let programs = Programs::of(procs);
        let writes = procs
            .touched
            .iter()
            .filter(|(_, pid, access, path)| *access == Access::Wrote && side.contains(pid) && !is_device(path));
        let by_toolchain = |names: &[&str]| {
            writes.clone().all(|(line, pid, _, _)| {
                programs
                    .at(*pid, *line)
                    .and_then(|ran| (self.program)(ran))
                    .is_some_and(|program| {
                        program
                            .file_name()
                            .and_then(|name| name.to_str())
                            .is_some_and(|name| names.contains(&name))
                    })
            })
        };
        self.caches
            .iter()
            .filter(|(_, names)| by_toolchain(names))
            .map(|(dir, _)| dir.as_path())
            .collect()
    }
}

/// What a step's write can stand for without feeding the rest of the run anything of its own, besides the
/// caches its toolchain fills ([`Filled`]), asked of the room's tree after the run.
///
/// **Why these three.** The code under test is the agent's tree, judged before the run; a step's write is a
/// move only where it gives the rest of the run what that tree and the snapshot would not:
/// - **a file rewritten as the tree has it** (`go mod tidy` on a tidy module, a formatter that found nothing to
///   change): the rest read, after the step had ended, the bytes and mode the agent's tree holds, which were
///   judged as the tree's;
/// - **a name only looked at** (listed, probed, looked for: a package directory Python's import system stats,
///   a data directory pytest's collection lists): the rest met its existence and nothing it holds, and a file
///   at that name in the tree would have fed the same — so it is free where the tree's would be, that is
///   everywhere but the names whose existence the oracle seals (the baseline looked for them and the observed
///   closure keeps them absent, or the derived closure judges or watches them) and a link;
/// - **bytecode that is its source's**: a `.pyc` a step wrote into the room's pycache (`compileall`, or any
///   Python program importing the standard library) that the rest's interpreter — one the agent cannot change —
///   read after the step had ended, whose code is exactly what compiling its source yields, read from the
///   run's own writes kept past it (`oracle::run::KeptCaches`) and compiled where the run stood
///   (`room::pycache::compiled_from_sources`), its source, where the project's, still the agent's bytes: the
///   rest ran nothing a recompile of the agent's tree would not. A fix compiled into the code's bytecode, a
///   patch into a library's, the code rewritten by the step and then compiled, a file changed after the run
///   ended: the step's content.
pub(crate) struct Beside<'a> {
    pub(crate) filled: Filled<'a>,
    /// Whether the file at this path (as the run names it) stands in the room's tree as in the agent's tree: the
    /// same kind of file, the same bytes, the same mode.
    pub(crate) as_the_agents: &'a dyn Fn(&Path) -> bool,
    /// Whether a file at this path could stand in the agent's tree unjudged by its existence (see above).
    pub(crate) existence_free: &'a dyn Fn(&Path) -> bool,
    /// Which of these bytecode files, each read by the trusted interpreter beside it, hold their source's code.
    pub(crate) compiled: &'a dyn Fn(&[ReadBytecode]) -> Vec<bool>,
}

/// A bytecode file a step wrote, as the run named it, and the interpreter that read it.
pub(crate) type ReadBytecode = (PathBuf, PathBuf);

impl Beside<'_> {
    /// Nothing stands for anything (a run outside the room, a test of the rest).
    #[cfg(test)]
    pub(crate) fn none() -> Beside<'static> {
        Beside {
            filled: Filled::none(),
            as_the_agents: &|_| false,
            existence_free: &|_| false,
            compiled: &|files| vec![false; files.len()],
        }
    }
}

/// The program each process ran, line by line: what it started with `execve`, or, before any, its parent's when
/// it was started.
struct Programs<'p> {
    procs: &'p Processes,
    runs: HashMap<u32, Vec<(usize, &'p Path)>>,
}

impl<'p> Programs<'p> {
    fn of(procs: &'p Processes) -> Self {
        let mut runs: HashMap<u32, Vec<(usize, &Path)>> = HashMap::new();
        for (line, pid, access, path) in &procs.touched {
            if *access == Access::Executed {
                runs.entry(*pid).or_default().push((*line, path.as_path()));
            }
        }
        Programs { procs, runs }
    }

    /// The program `pid` ran at `line`; `None` for the trace's first process before it ran one.
    fn at(&self, mut pid: u32, mut line: usize) -> Option<&'p Path> {
        // Bounded: a parent map read from a forged trace could hold a cycle.
        for _ in 0..self.procs.parents.len() + 1 {
            let ran = self
                .runs
                .get(&pid)
                .and_then(|runs| runs.iter().rev().find(|(at, _)| *at <= line));
            if let Some((_, program)) = ran {
                return Some(program);
            }
            line = *self.procs.born.get(&pid)?;
            pid = *self.procs.parents.get(&pid)?;
        }
        None
    }
}

/// What the processes started as `steps` did that the rest of the run could feel; `None`: nothing.
fn finding(procs: &Processes, steps: &[Step], trace: &Path, beside: &Beside) -> Option<Finding> {
    if let Some(line) = &procs.unreadable {
        return Some(Finding::Unread(format!("a line is not a process's: `{line}`")));
    }
    let first = procs.first?;
    if let Some(orphan) = procs
        .touched
        .iter()
        .map(|(_, pid, _, _)| *pid)
        .chain(procs.execs.iter().map(|(_, pid, _)| *pid))
        .find(|pid| *pid != first && !procs.parents.contains_key(pid))
    {
        return Some(Finding::Unread(format!("process {orphan} has no known parent")));
    }
    if procs.execs.iter().any(|(_, _, argv)| argv.is_none()) {
        return Some(Finding::Unread("a program's arguments were cut short".to_string()));
    }
    let roots = roots(procs, steps);
    if roots.is_empty() {
        return Some(Finding::NotSeen);
    }
    // A step runs once: a second process started as it, not below the first, is another part of the run with the
    // same line (the goal's own command), whose processes would pass for the step's.
    if steps.iter().any(|step| started_apart(procs, step) > 1) {
        return Some(Finding::Twice);
    }
    let side = subtree(procs, roots.iter().map(|(pid, _)| *pid));
    // Every process of a step ended before a process of the rest started a program after the step began.
    let began = roots.iter().map(|(_, line)| *line).min().unwrap_or(0);
    let next_program = procs
        .execs
        .iter()
        .filter(|(line, pid, _)| *line > began && !side.contains(pid))
        .map(|(line, _, _)| *line)
        .min()
        .unwrap_or(usize::MAX);
    if side
        .iter()
        .any(|pid| procs.ends.get(pid).is_none_or(|end| *end > next_program))
    {
        return Some(Finding::Outlived);
    }
    if let Some(pid) = procs.wrote_memory.iter().find(|pid| side.contains(pid)) {
        return Some(Finding::Memory(format!("process_vm_writev by process {pid}")));
    }
    let written: HashSet<&PathBuf> = procs
        .touched
        .iter()
        .filter(|(_, pid, access, _)| *access == Access::Wrote && side.contains(pid))
        .map(|(_, _, _, path)| path)
        .collect();
    if let Some(path) = written.iter().find(|path| another_process(path)) {
        return Some(Finding::Memory(path.display().to_string()));
    }
    if written.contains(&trace.to_path_buf()) {
        return Some(Finding::Unread("a step wrote the trace itself".to_string()));
    }
    // A directory the step only made holds nothing of its own: what it holds is judged file by file. Anything
    // else it wrote — a file, a link, a name renamed over — counts with everything below it (a directory renamed
    // into place, a link to a directory: the rest reads `it/x`, which the step never named).
    let writes = count(
        procs
            .touched
            .iter()
            .filter(|(_, pid, access, _)| *access == Access::Wrote && side.contains(pid))
            .map(|(_, _, _, path)| path),
    );
    let made = count(
        procs
            .made_dirs
            .iter()
            .filter(|(pid, _)| side.contains(pid))
            .map(|(_, path)| path),
    );
    // What the toolchain's own programs wrote into a cache it keys by content is what the runner would compute.
    let vouched = beside.filled.vouched(procs, &side);
    let content: HashSet<&Path> = writes
        .iter()
        .filter(|(path, n)| made.get(*path) != Some(*n) && !is_device(path))
        .map(|(path, _)| *path)
        .filter(|path| !vouched.iter().any(|dir| path.starts_with(dir)))
        .collect();
    // One file may have two names: a directory reached through a link that was there before the step (`nm ->
    // node_modules`) names what the step wrote and what the rest read differently. Every name is also taken
    // with its directory resolved as it stands now (the room's tree is the agent's; its `$HOME` and `/tmp` lie
    // over the real ones), on both sides.
    let mut resolved = Resolved::default();
    let content: HashSet<PathBuf> = content
        .iter()
        .flat_map(|path| [path.to_path_buf(), resolved.of(path)])
        .collect();
    // What the rest touched at or below each of them, in the order first touched.
    let mut fed: Vec<(PathBuf, Vec<Touch>)> = Vec::new();
    for (line, pid, access, path) in procs.touched.iter().filter(|(_, pid, _, _)| !side.contains(pid)) {
        let again = resolved.of(path);
        let Some(at) = path.ancestors().chain(again.ancestors()).find(|a| content.contains(*a)) else {
            continue;
        };
        let touch = Touch {
            line: *line,
            pid: *pid,
            access: *access,
            exact: path == at || again == at,
            path: path.clone(),
        };
        match fed.iter_mut().find(|(written, _)| written == at) {
            Some((_, touches)) => touches.push(touch),
            None => fed.push((at.to_path_buf(), vec![touch])),
        }
    }
    // Every process of the step has ended (above): the rest met, after this line, what the step left.
    let ended = side
        .iter()
        .filter_map(|pid| procs.ends.get(pid))
        .max()
        .copied()
        .unwrap_or(0);
    let programs = Programs::of(procs);
    let mut bytecode: Vec<ReadBytecode> = Vec::new();
    for (written, touches) in fed {
        // Below a directory renamed into place, each name looked at is judged as the tree's would be too. Make
        // decides what it runs by what exists and when it changed, and its plan was compared before the run: a
        // name make looked at after the step made it can skip a recipe the plan holds.
        let looked_only = touches.iter().all(|t| {
            t.access.looks_only()
                && (t.exact || (beside.existence_free)(&t.path))
                && !programs.at(t.pid, t.line).is_some_and(decides_by_existence)
        });
        let after = touches
            .iter()
            .all(|t| t.line > ended && t.exact && t.access != Access::Wrote);
        if (looked_only && (beside.existence_free)(&written)) || (after && (beside.as_the_agents)(&written)) {
            continue;
        }
        // Bytecode read by an interpreter the agent cannot change, and never run or written by the rest.
        let interpreter = touches
            .iter()
            .find(|t| t.access == Access::Read)
            .and_then(|t| programs.at(t.pid, t.line))
            .and_then(|ran| (beside.filled.program)(ran));
        match interpreter {
            Some(interpreter)
                if after
                    && written.extension().is_some_and(|e| e == "pyc")
                    && touches.iter().all(|t| t.access != Access::Executed) =>
            {
                bytecode.push((written, interpreter));
            }
            _ => return Some(Finding::Fed(written.display().to_string())),
        }
    }
    if bytecode.is_empty() {
        return None;
    }
    let same = (beside.compiled)(&bytecode);
    bytecode
        .into_iter()
        .zip(same.into_iter().chain(std::iter::repeat(false)))
        .find(|(_, same)| !same)
        .map(|((written, _), _)| Finding::Fed(written.display().to_string()))
}

/// What the steps set aside did in a run that cleared them ([`Steps::stepped`]): theirs, judged by what they fed
/// the rest, and no other check's to read again.
#[derive(Default)]
pub(crate) struct Stepped {
    /// Every process of the steps: what they loaded is not the test side's (`oracle::compare`).
    pub(crate) pids: HashSet<u32>,
    /// The files they wrote in the project and the rest did not, project-relative: not the run's own making
    /// (`World::breach_after`).
    pub(crate) wrote: HashSet<String>,
}

impl Stepped {
    /// What `steps` did in `procs`, in the project at `root`.
    pub(crate) fn of(procs: &Processes, steps: &[Step], root: &Path) -> Stepped {
        let pids = subtree(procs, roots(procs, steps).into_iter().map(|(pid, _)| pid));
        let written = |by_steps: bool| -> HashSet<String> {
            procs
                .touched
                .iter()
                .filter(|(_, pid, access, _)| *access == Access::Wrote && pids.contains(pid) == by_steps)
                .filter_map(|(_, _, _, path)| Some(path.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/")))
                .collect()
        };
        // A file the rest wrote too is the rest's making as well.
        let wrote = &written(true) - &written(false);
        Stepped { pids, wrote }
    }
}

/// How many processes of `procs` were started as `step`, none below another (a shell that runs its line's program
/// in its own process starts it twice, as one).
fn started_apart(procs: &Processes, step: &Step) -> usize {
    let mut started: Vec<u32> = procs
        .execs
        .iter()
        .filter(|(_, _, argv)| argv.as_deref().is_some_and(|argv| step.started(argv)))
        .map(|(_, pid, _)| *pid)
        .collect();
    started.sort_unstable();
    started.dedup();
    started
        .iter()
        .filter(|pid| !started.iter().any(|other| other != *pid && below(procs, **pid, *other)))
        .count()
}

/// Whether process `pid` descends from `ancestor` in `procs`.
fn below(procs: &Processes, mut pid: u32, ancestor: u32) -> bool {
    let mut hops = 0;
    while let Some(parent) = procs.parents.get(&pid) {
        if *parent == ancestor {
            return true;
        }
        pid = *parent;
        hops += 1;
        if hops > procs.parents.len() {
            return false;
        }
    }
    false
}

/// The first processes of `steps` in `procs`, and the line each began at.
fn roots(procs: &Processes, steps: &[Step]) -> Vec<(u32, usize)> {
    procs
        .execs
        .iter()
        .filter(|(_, _, argv)| {
            argv.as_deref()
                .is_some_and(|argv| steps.iter().any(|s| s.started(argv)))
        })
        .map(|(line, pid, _)| (*pid, *line))
        .collect()
}

/// Whether `program` is make, which runs a recipe or skips it by whether its target exists and is newer than
/// what it depends on (`closure::make_plan` compares what it will run before the run, not after a step).
fn decides_by_existence(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| matches!(name, "make" | "gmake"))
}

/// One touch by the rest of the run of what a step wrote.
struct Touch {
    line: usize,
    pid: u32,
    access: Access,
    /// At the name written itself, not below it.
    exact: bool,
    path: PathBuf,
}

/// Paths with their directory resolved through links as it stands now, each directory resolved once.
#[derive(Default)]
struct Resolved {
    dirs: HashMap<PathBuf, PathBuf>,
}

impl Resolved {
    /// `path` with its parent directory resolved (itself where the parent no longer exists).
    fn of(&mut self, path: &Path) -> PathBuf {
        // `/proc` would resolve as loopgate's own process; a step's writes there are refused before this.
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return path.to_path_buf();
        };
        if parent.starts_with("/proc") || parent.starts_with("/dev") {
            return path.to_path_buf();
        }
        let dir = self
            .dirs
            .entry(parent.to_path_buf())
            .or_insert_with(|| std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf()));
        dir.join(name)
    }
}

/// How many times each path comes.
fn count<'p>(paths: impl Iterator<Item = &'p PathBuf>) -> HashMap<&'p Path, usize> {
    let mut counts: HashMap<&Path, usize> = HashMap::new();
    for path in paths {
        *counts.entry(path.as_path()).or_default() += 1;
    }
    counts
}

/// The processes started by `roots`, the roots included, through every `clone` / `fork` the trace shows.
fn subtree(procs: &Processes, roots: impl Iterator<Item = u32>) -> HashSet<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for (child, parent) in &procs.parents {
        children.entry(*parent).or_default().push(*child);
    }
    let mut side: HashSet<u32> = HashSet::new();
    let mut todo: Vec<u32> = roots.collect();
    while let Some(pid) = todo.pop() {
        if side.insert(pid) {
            todo.extend(children.get(&pid).into_iter().flatten());
        }
    }
    side
}

/// A path of `/proc` or `/dev/fd` a step wrote through: another process's file (`/proc/1234/mem`), or a name
/// whose meaning is the writer's own (`/proc/self/cwd/…`, `/dev/fd/3/…`), which no path the rest touches would
/// match. Only the writer's standard streams are left (`/proc/self/fd/1`, a pipe or a terminal).
fn another_process(path: &Path) -> bool {
    let own_stream = ["/proc/self/fd", "/proc/thread-self/fd", "/dev/fd"].iter().any(|dir| {
        path.strip_prefix(dir)
            .is_ok_and(|rest| ["0", "1", "2"].iter().any(|fd| rest == Path::new(fd)))
    });
    (path.starts_with("/proc") || path.starts_with("/dev/fd")) && !own_stream
}

/// A character device every process may share without passing content (`/dev/null`, a terminal).
fn is_device(path: &Path) -> bool {
    [
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/tty",
        "/dev/urandom",
        "/dev/random",
        "/dev/ptmx",
    ]
    .iter()
    .any(|d| path == Path::new(d))
        || path.starts_with("/dev/pts")
}

#[cfg(test)]
mod tests;
