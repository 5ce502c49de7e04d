//! Running the sealed verify command, the second stage of the oracle's run (`oracle::judge`) and the whole of
//! the baseline's (`oracle::baseline`): where the run stands ([`Stand`]: the project's tree or the room's, its
//! environment and plane), its trace ([`Trace`]), the command itself with every line read as it is printed
//! ([`run_counted`]), and — at a promise, in the oracle's world — the watch over the sealed inputs for the length
//! of the run and the test side put back after it ([`Ran::in_world`]).
//!
//! What it guarantees: the baseline and every promise run the command the same way (the same request, the same
//! report cleared first, the same trace read the same way), so what they saw can be compared; and at a promise,
//! whatever the run did or however it ended, the test side is put back before a verdict is read, and every
//! change to a sealed input from the last check before the run to its end is in [`Ran::moved`].

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::own_report::OwnReport;
use super::watch::Watch;
use super::world::World;
use crate::closure::observed::Observed;
use crate::error::Error;
use crate::inputs::{Checks, Inputs};
use crate::lifecycle::ActiveLoop;
use crate::readout;
use crate::room::Placed;
use crate::schema::Check;
use crate::state::StateFields;
use crate::trace::{Event, Tracer};
use crate::verify::{self, LiveLine, VerifyOutcome, VerifyRequest};

/// Where one verify run stands: the project's own tree, or the room's tree (mounted at the project's path, or a
/// copy at its own) with the room's directory, and the environment and plane it runs under.
pub(crate) struct Stand<'a> {
    /// The project's root.
    pub(crate) root: &'a Path,
    /// The room's tree the run stands in, and the room's directory; `None`: the project's own tree.
    pub(crate) placed: Option<(&'a Placed, &'a Path)>,
    /// The run's whole environment (the room's); `None`: loopgate's own.
    pub(crate) env: Option<&'a [(OsString, OsString)]>,
    /// What the run may not write; `None`: loopgate's whole control plane.
    pub(crate) plane: Option<&'a crate::plane::Plane>,
}

impl Stand<'_> {
    /// The request that runs `command` here, logging to `log_path`, after the words of `trace`.
    pub(crate) fn request<'r>(
        &'r self,
        command: &'r str,
        timeout: Duration,
        log_path: &'r Path,
        trace: &'r Trace,
    ) -> VerifyRequest<'r> {
        VerifyRequest {
            command,
            cwd: self.placed.map_or(self.root, |(placed, _)| placed.cwd(self.root)),
            timeout,
            log_path,
            prefix: &trace.prefix,
            env: self.env,
            plane: self.plane,
            mount: self.placed.and_then(|(placed, _)| placed.mount()),
        }
    }

    /// The verify command's own report (`--report`), where a run standing here writes it: only what this run
    /// writes there is read (see `oracle::own_report`).
    pub(crate) fn own_report(&self, fields: &StateFields) -> Option<OwnReport> {
        fields
            .config
            .verify
            .report
            .as_ref()
            .map(|report| OwnReport::at(report, self.root, self.placed.map(|(placed, _)| placed)))
    }

    /// The processes of `trace` (see `oracle::steps`), with the paths of a copy at its own path read as the
    /// project's.
    pub(crate) fn processes(&self, trace: &Trace) -> crate::trace::Processes {
        let moved = self.placed.and_then(|(placed, _)| placed.moved());
        crate::trace::processes_moved(&trace.path, self.root, moved)
    }

    /// The events of `trace`, with the paths of a copy at its own path read as the project's, but for those of
    /// the processes `skip` and what the programs judged by their output read in the project (cargo's build
    /// scripts: `closure::observed::judged_by_output`).
    pub(crate) fn events(&self, trace: &Trace, skip: &std::collections::HashSet<u32>) -> Vec<Event> {
        let moved = self.placed.and_then(|(placed, _)| placed.moved());
        crate::trace::read_moved(
            &trace.path,
            self.root,
            moved,
            skip,
            crate::closure::observed::judged_by_output,
        )
    }
}

/// A run's trace (see `trace`): where the tracer writes it and the words that run the command under it; the
/// file is removed when this is dropped. Untraced, it has no words and removes nothing.
pub(crate) struct Trace {
    path: PathBuf,
    prefix: Vec<OsString>,
    traced: bool,
}

impl Trace {
    /// The trace `name` of a run standing at `stand` and logging to `log_path`, by `tracer` (`None`: untraced).
    /// In the room's tree the project's `.claude/` is not there: the tracer writes to the room instead.
    pub(crate) fn new(stand: &Stand, log_path: &Path, name: &str, tracer: Option<&Tracer>) -> Trace {
        let path = stand.placed.map_or_else(
            || log_path.with_extension("trace"),
            |(placed, room)| placed.in_room(room, name),
        );
        let prefix = tracer.map(|t| t.prefix(&path)).unwrap_or_default();
        Trace {
            path,
            prefix,
            traced: tracer.is_some(),
        }
    }
}

impl Trace {
    /// Where the tracer writes.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Trace {
    fn drop(&mut self) {
        if self.traced {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A verify run with the counts and names its runners reported.
pub(crate) struct Counted {
    pub(crate) outcome: VerifyOutcome,
    pub(crate) counts: Option<readout::TestCounts>,
    pub(crate) results: readout::TestResults,
}

/// Runs the verify command, reading the counts and test names from every line as the command prints it (the
/// kept output is only its head and tail, and a workspace's per-crate summaries can sit in the cut middle).
pub(crate) fn run_counted(request: &VerifyRequest, progress: &LiveLine) -> Result<Counted, Error> {
    let mut counter = readout::CountScanner::new();
    let outcome = verify::run_with_lines(request, &mut |line| {
        counter.feed_line(line);
        progress.line(line);
    });
    // What the start hooks sent over the room's socket, written down for the verdict (`room::hook::record`).
    crate::room::hook::record::finish(request.env);
    let outcome = outcome?;
    Ok(Counted {
        outcome,
        counts: counter.finish(),
        results: counter.into_results(),
    })
}

/// A promise's run in the oracle's world, with the test side put back.
pub(crate) struct Ran<'i> {
    pub(crate) counted: Counted,
    /// The sealed inputs that moved from the last check before the run to its end (project-relative where under
    /// the project), sorted, each once.
    pub(crate) moved: Vec<String>,
    /// The verify command's own report, where the run wrote it (`--report`).
    pub(crate) own_report: Option<OwnReport>,
    /// The baseline's observed closure, where this run was traced to compare where it loads the test side from.
    pub(crate) observed: Option<&'i Observed>,
    pub(crate) trace: Trace,
    /// What the run wrote into the room's caches, kept past it where steps are to be judged.
    pub(crate) kept: Option<KeptCaches>,
}

/// What a run kept of its writes into the room's caches (`confine::mount::Mount::keeping_caches`), for the judge of
/// its steps to read (`oracle::steps`: bytecode a step wrote) — and when the run ended, so that a file changed
/// after it (by a process of the run left behind) is told apart. The directory is removed when this is dropped:
/// no later run reads it.
pub(crate) struct KeptCaches {
    dir: KeptDir,
    mount: crate::confine::mount::Mount,
    pub(crate) ended: std::time::SystemTime,
}

impl KeptCaches {
    /// Where the run's writes into the room's cache `cache` are, laid out as the cache is.
    pub(crate) fn upper(&self, cache: &Path) -> Option<PathBuf> {
        self.mount.kept_upper(&self.dir.0, cache)
    }
}

/// A directory made empty beside the room for one run's kept caches (`room::Room::kept_dir_for_run`), removed
/// with everything in it when dropped.
struct KeptDir(PathBuf);

impl Drop for KeptDir {
    fn drop(&mut self) {
        let _ = crate::room::snapshot::make_removable(&self.0);
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl<'i> Ran<'i> {
    /// Runs `command` in `world` for `active`, watched against `inputs`, logging to `log_path`.
    pub(crate) fn in_world(
        active: &ActiveLoop,
        inputs: &'i Inputs,
        steps: &super::steps::Steps,
        world: &World,
        command: &str,
        log_path: &Path,
        progress: &LiveLine,
    ) -> Result<Ran<'i>, Error> {
        let fields = &active.seal.fields;
        let root = &active.project.root;
        let checks = |check| fields.checks(check);
        let stand = world.stand(root);
        // Where the baseline was traced, the promise run is traced too, so where it loads the test side from can
        // be compared with the baseline's (see `closure::resolved`).
        let resolution = inputs
            .observed
            .as_ref()
            .filter(|o| !o.loaded.is_empty() && fields.checks(Check::Closure))
            .and_then(|o| Some((o, Tracer::find().ok()?.loads_only())));
        // A step set aside is judged by what each process did (`oracle::steps`): the whole trace, which the
        // resolution check reads as well as its own.
        let whole = (!steps.is_empty())
            .then(Tracer::find)
            .and_then(Result::ok)
            .map(Tracer::steps);
        let tracer = whole.as_ref().or(resolution.as_ref().map(|(_, t)| t));
        let trace = Trace::new(&stand, log_path, "promise.trace", tracer);
        let timeout = Duration::from_secs(fields.config.verify.verify_timeout);
        let request = stand.request(command, timeout, log_path, &trace);
        // A step's writes into the room's caches are judged after the run by their bytes: kept on disk past it.
        let keeping = match (&stand.placed, request.mount) {
            (Some((_, room)), Some(mount)) if !steps.is_empty() => {
                let dir = crate::room::Room::at(room.to_path_buf())
                    .kept_dir_for_run()
                    .ok()
                    .map(KeptDir);
                dir.and_then(|dir| Some((mount.keeping_caches(&dir.0).ok()?, dir)))
            }
            _ => None,
        };
        let request = VerifyRequest {
            mount: keeping.as_ref().map(|(mount, _)| mount).or(request.mount),
            ..request
        };
        let own_report = stand.own_report(fields);
        if let Some(Err(err)) = own_report.as_ref().map(OwnReport::clear) {
            let _ = world.put_back(active);
            return Err(err);
        }
        let watch = Watch::start(root, inputs.watched(root, &checks));
        #[cfg(target_os = "linux")]
        let linked = super::watch::Linked::start(&world.linked);
        // A change made after the checks before the run but before the watch began (by a process waiting for the
        // verify to start) is still there to see now; from here on the watch sees every change.
        let unwatched = unwatched_changes(inputs, steps, root, &checks, &world.sealed);
        let counted = run_counted(&request, progress);
        let kept = keeping.map(|(mount, dir)| KeptCaches {
            dir,
            mount,
            ended: std::time::SystemTime::now(),
        });
        let mut moved = watch.map(Watch::finish).unwrap_or_default();
        #[cfg(target_os = "linux")]
        moved.extend(linked.map(super::watch::Linked::finish).unwrap_or_default());
        let put_back = world.put_back(active);
        let counted = counted?;
        put_back?;
        moved.extend(unwatched?);
        // In the copy at its own path nothing binds the sealed files read-only: one the run wrote counts as moved.
        moved.extend(world.tree.iter().flat_map(|(placed, _)| placed.sealed_written()));
        moved.sort();
        moved.dedup();
        Ok(Ran {
            counted,
            moved,
            own_report,
            observed: resolution.map(|(observed, _)| observed),
            trace,
            kept,
        })
    }
}

/// The sealed inputs that differ, just before the run, from what it must see: the test side as it stands
/// sealed (`copies`), and everything [`Inputs::check`] reports.
fn unwatched_changes(
    inputs: &Inputs,
    steps: &super::steps::Steps,
    root: &Path,
    checks: Checks,
    sealed: &super::world::Standing,
) -> Result<Vec<String>, Error> {
    let late = steps.forgive(inputs.check(root, checks)?);
    // A file stood with its imports respelled (`testseal::renamed`) must hold exactly that.
    let stands_respelled = |path: &str| {
        sealed.respelled.iter().any(|(respelled, content)| {
            respelled == path && std::fs::read(root.join(path)).ok().as_deref() == Some(content.as_bytes())
        })
    };
    let standing: Vec<_> = sealed
        .copies
        .map(|copies| crate::testswap::changed(root, copies))
        .unwrap_or_default()
        .into_iter()
        .filter(|(path, _)| !stands_respelled(path))
        .collect();
    let mut paths: Vec<String> = late
        .iter()
        .map(|m| m.path().to_string())
        .chain(standing.into_iter().map(|(path, _)| path.to_string()))
        .collect();
    paths.sort();
    paths.dedup();
    Ok(paths)
}

#[cfg(test)]
mod tests;
