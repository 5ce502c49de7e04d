//! The oracle's world, the first stage of its run (`oracle::judge`): everything the run stands in, built before
//! it and checked again after it — the places outside the project (`outside`), the room with its environment,
//! private caches and plane (`room`), the test side stood as sealed (`sealed`), and the room's tree synced from
//! the agent's tree as it stands now.
//!
//! What it guarantees: a [`World`] exists only once every piece of it is in place — the tests stand as sealed,
//! the tree is synced, the run's environment and plane are confined to the tree it stands in — and nothing the
//! snapshot cannot present differs from it (else the build is [`Built::Moved`], and the test side is already
//! put back). Whoever holds a `World` puts the test side back ([`World::put_back`]) whatever the run did.
//!
//! The stages after it: `run` runs the verify command in it, `verdict` reads what the run said, `compare`
//! holds that to the baseline.

mod beside;
mod outside;
mod room;
mod sealed;

use std::path::{Path, PathBuf};

use super::Breach;
use super::run::Stand;
use crate::error::Error;
use crate::inputs::{Checks, Inputs, Move};
use crate::lifecycle::ActiveLoop;
use crate::plane::Plane;
use crate::room::tree::Done;
use crate::room::{Placed, Synced};
use crate::seal::FileChange;

pub(crate) use outside::Outside;
pub(crate) use room::{InRoom, in_room, room_plane};
pub(crate) use sealed::Standing;
pub(crate) use sealed::plan;

/// What the oracle's run stands in (see the module docs).
pub(crate) struct World<'i> {
    /// The run's room; `None` for a loop set up before the room existed (it runs as it always did).
    pub(crate) room: Option<InRoom>,
    /// What the run may not write; `None` with no room (loopgate's whole control plane, see `verify`).
    pub(crate) plane: Option<Plane>,
    /// The room's tree the run stands in, and what its sync did; `None` where it stands in the project's own.
    pub(crate) tree: Option<(Placed, Done)>,
    /// What the sync carried into the room's tree, to tell what the run made there ([`World::made_by_run`]).
    synced: Option<Synced>,
    /// The test side as it stands for the run.
    pub(crate) sealed: Standing<'i>,
    /// The paths outside the project the run reads from the snapshot (its namespace presents them).
    presented: Vec<PathBuf>,
    /// The snapshot's objects that are the user's files themselves (hard links), each with its held path: watched
    /// for writes while the run goes on (`watch::Linked`).
    pub(crate) linked: Vec<(PathBuf, String)>,
}

/// What building the world came to.
pub(crate) enum Built<'i> {
    Ready(Box<World<'i>>),
    /// What the run would read outside the project differs from the snapshot, and cannot be shown it as it
    /// was: the run does not start (the test side is put back).
    Moved(Breach),
}

impl<'i> World<'i> {
    /// Builds the world of an oracle run of `active` judged against `inputs`, outside places `outside`.
    pub(crate) fn build(active: &ActiveLoop, inputs: &'i Inputs, outside: &Outside) -> Result<Built<'i>, Error> {
        let root = &active.project.root;
        let mut room = in_room(active)?;
        let mut plane = room.as_ref().map(|r| room_plane(r.room.dir()));
        let sealed = Standing::stand(active, inputs)?;
        // The room's tree is synced once the test side stands as sealed, so it holds the tests as sealed too.
        let (tree, synced) = match room.as_ref().map(|r| r.tree(active, outside.snapshot())).transpose() {
            Ok(tree) => tree.flatten().map_or((None, None), |(placed, done, synced)| {
                (Some((placed, done)), Some(synced))
            }),
            Err(err) => {
                let _ = sealed.put_back(active);
                return Err(err);
            }
        };
        if let (Some(r), Some(_)) = (&room, &tree) {
            crate::room::tree::keep_dirs_of(root, &r.room.dir().join(crate::room::tree::PLACE), &sealed.sat_out);
        }
        let presented: Vec<PathBuf> = tree
            .iter()
            .flat_map(|(placed, _)| placed.presented().to_vec())
            .collect();
        let unpresented = outside.unpresented(&presented);
        if !unpresented.is_empty() {
            sealed.put_back(active)?;
            return Ok(Built::Moved(Breach::of(unpresented, root)));
        }
        if let (Some((placed, _)), Some(r), Some(plane)) = (&tree, &mut room, &mut plane) {
            placed.confine(root, &mut r.env, plane);
        }
        Ok(Built::Ready(Box::new(World {
            room,
            plane,
            tree,
            synced,
            sealed,
            presented,
            linked: outside.linked(),
        })))
    }

    /// The caches of a run in this world that a toolchain fills with entries keyed by what made them (see
    /// `steps::Filled`): each one the room made private, at its place in the run.
    pub(crate) fn filled(&self) -> Vec<(PathBuf, &'static [&'static str])> {
        let Some(room) = &self.room else { return Vec::new() };
        crate::room::caches::FILLED
            .iter()
            .filter_map(|(cache, names)| {
                let (_, dir) = room.env.iter().find(|(var, _)| var == cache.name())?;
                Some((PathBuf::from(dir), *names))
            })
            .collect()
    }

    /// What the program the run executed at `ran` is, where the agent cannot have changed it (`steps::Filled`):
    /// itself in the system's directories (`room::snapshot::SYSTEM`: a process that could rewrite them could
    /// rewrite loopgate) or presented to the run from the snapshot; or, at the room's private path of a runner
    /// binary the start channel stands in at (`room::hook::binary`), that binary, judged so. `binaries` are the
    /// ones the snapshot's baseline executed, in the order the room numbered them.
    pub(crate) fn program(&self, ran: &Path, binaries: &[PathBuf]) -> Option<PathBuf> {
        let stood_in = self
            .room
            .as_ref()
            .and_then(|r| crate::room::hook::binary::stood_in(r.room.dir(), ran, binaries));
        let program = stood_in.map_or(ran, PathBuf::as_path);
        let unchanged = crate::room::snapshot::SYSTEM.iter().any(|dir| program.starts_with(dir))
            || self.presented.iter().any(|p| p == program);
        unchanged.then(|| program.to_path_buf())
    }

    /// Where a run in this world stands, for the project at `root`.
    pub(crate) fn stand<'w>(&'w self, root: &'w Path) -> Stand<'w> {
        Stand {
            root,
            placed: self
                .tree
                .as_ref()
                .zip(self.room.as_ref())
                .map(|((placed, _), r)| (placed, r.room.dir())),
            env: self.room.as_ref().map(|r| r.env.as_slice()),
            plane: self.plane.as_ref(),
        }
    }

    /// The files the run made in the room's tree that the runners load on their own or that are new tests
    /// (`room::tree::Synced::made_by_run`), project-relative: the run loaded them past every check made before
    /// it, so each counts as a sealed input written during the run. None where the run stood in the project's
    /// own tree (the watch sees a new test file appear there) or the tree cannot be walked.
    fn made_by_run(&self, inputs: &Inputs) -> Vec<String> {
        let (Some(synced), Some(r), Some(_)) = (&self.synced, &self.room, &self.tree) else {
            return Vec::new();
        };
        let inventory = inputs.tests.inventory.as_ref();
        let new_test = inventory.map(crate::testseal::Inventory::new_test_namer);
        let is_new_test = |relative: &str| new_test.as_ref().is_some_and(|named| named(relative));
        synced
            .made_by_run(&r.room.dir().join(crate::room::tree::PLACE), is_new_test)
            .unwrap_or_default()
    }

    /// Puts the test side back (see [`Standing::put_back`]).
    pub(crate) fn put_back(&self, active: &ActiveLoop) -> Result<(), Error> {
        self.sealed.put_back(active)
    }

    /// Whether the world held while a run that passed went on: nothing the oracle read may have moved — seen by
    /// the watch (`moved_during_run`, even if put back before the run ended), or still different afterwards (a
    /// build script or a process left running) — and no link stands where the baseline found nothing outside the
    /// project, which no mount could hide from the run, and the run made no file the runners load on their own
    /// ([`World::made_by_run`]) but by a step set aside, which wrote what the rest never read (`steps`: the steps
    /// and the files they wrote, cleared by `oracle::steps`). The breach, marked as during the run, is empty if it
    /// held.
    pub(crate) fn breach_after(
        &self,
        inputs: &Inputs,
        outside: &Outside,
        (steps, stepped): (&super::steps::Steps, &std::collections::HashSet<String>),
        root: &Path,
        checks: Checks,
        moved_during_run: Vec<String>,
    ) -> Result<Breach, Error> {
        let mut moves = steps.forgive(inputs.check(root, checks)?);
        // What the snapshot could not keep as the baseline read it (a linked object whose file was edited in
        // place, after the run or while it went on) is never a covered place's change: the run read those bytes.
        let mut kept = outside.unpresented(&self.presented);
        let (written, moved_during_run): (Vec<String>, Vec<String>) = moved_during_run
            .into_iter()
            .partition(|path| self.linked.iter().any(|(_, held)| held == path));
        kept.extend(
            written
                .into_iter()
                .filter(|path| !kept.iter().any(|m| m.path() == path))
                .map(|path| Move::File(FileChange::Changed(path)))
                .collect::<Vec<_>>(),
        );
        // A link made where the baseline found nothing outside the project: the run could not be shown the place
        // as absent (`room::snapshot::absent`).
        if let Some((_, done)) = &self.tree {
            moves.extend(
                done.outside
                    .links
                    .iter()
                    .map(|path| Move::File(FileChange::Added(path.display().to_string()))),
            );
        }
        let seen: Vec<Move> = moved_during_run
            .into_iter()
            .filter(|path| !moves.iter().any(|m| m.path() == path))
            .map(|path| Move::File(FileChange::Changed(path)))
            .collect();
        moves.extend(seen);
        // A file the runners load on their own, or a new test, that a step of the run made before the runner
        // started (a make prerequisite, a build script): the run loaded it as it would the agent's.
        moves.extend(
            self.made_by_run(inputs)
                .into_iter()
                .filter(|path| !stepped.contains(path))
                .map(|path| Move::File(FileChange::Added(path))),
        );
        Ok(Breach {
            during_run: true,
            ..outside.breach_keeping(moves, kept, root)
        })
    }

    /// What moved in what the verify's tools resolve since the baseline recorded it: what make will run for the
    /// verify's goals (`closure::make_plan`) and the configuration the runners resolve from their files of code
    /// (`closure::js_config`) and the features the tests are built with (`closure::built_features`), each
    /// asked where the run will stand (its tree, environment and plane: the readings
    /// run nothing the verify command would not, nowhere it would not); nothing where none was recorded or the
    /// closure check is off. A world where one moved is not one to run in.
    pub(crate) fn resolved_moved(
        &self,
        active: &ActiveLoop,
        inputs: &crate::inputs::Inputs,
        command: &str,
        log_path: &Path,
    ) -> Result<Resolved, Error> {
        let fields = &active.seal.fields;
        if !fields.checks(crate::schema::Check::Closure) {
            return Ok(Resolved::default());
        }
        let Some(mut baseline) = active.store.load_baseline(&active.project)? else {
            return Ok(Resolved::default());
        };
        if baseline.make.is_none() && baseline.js_configs.is_empty() && baseline.built_features.is_none() {
            return Ok(Resolved::default());
        }
        self.beside(active, command, log_path, |request| {
            self.resolved_as(active, inputs, &mut baseline, request)
        })
    }

    /// Runs `then` with what runs loopgate's own commands beside the verify `command` (make's dry run, the
    /// bytecode check): where and as the verify's run stands, untraced, within its timeout.
    pub(crate) fn beside<R>(
        &self,
        active: &ActiveLoop,
        command: &str,
        log_path: &Path,
        then: impl FnOnce(&crate::verify::VerifyRequest) -> R,
    ) -> R {
        let stand = self.stand(&active.project.root);
        let untraced = super::run::Trace::new(&stand, log_path, "beside.trace", None);
        let timeout = std::time::Duration::from_secs(active.seal.fields.config.verify.verify_timeout);
        then(&stand.request(command, timeout, log_path, &untraced))
    }

    /// [`World::resolved_moved`], asked as `request` runs.
    fn resolved_as(
        &self,
        active: &ActiveLoop,
        inputs: &crate::inputs::Inputs,
        baseline: &mut crate::testjudge::baseline::Baseline,
        request: &crate::verify::VerifyRequest,
    ) -> Result<Resolved, Error> {
        let fields = &active.seal.fields;
        let before = baseline.js_configs.clone();
        let root = &active.project.root;
        let checks = |check| fields.checks(check);
        let mut moved = inputs.with_members(root, &checks, |members| {
            crate::closure::js_config::check(&mut baseline.js_configs, request, root, members)
        });
        if baseline.js_configs != before {
            // A reading the user accepted, taken afresh: later promises are held to it.
            active.store.save_baseline(&active.project, baseline)?;
        }
        if let Some(sealed) = &baseline.built_features {
            if sealed.retake {
                // The user accepted a manifest or a build script: the features built now are the baseline's.
                if let Some(now) = sealed.retaken(request) {
                    baseline.built_features = Some(now);
                    active.store.save_baseline(&active.project, baseline)?;
                }
            } else {
                moved.extend(crate::closure::built_features::check(sealed, request));
            }
        }
        let mut checked = crate::closure::make_plan::Checked::default();
        if let Some(sealed) = baseline.make.take() {
            checked = make_moved(active, baseline, sealed, request)?;
        }
        moved.extend(checked.moved);
        let part = |moved| Move::Part(crate::schema::Source::Derived, moved);
        Ok(Resolved {
            moved: moved.into_iter().map(part).collect(),
            steps: checked
                .steps
                .into_iter()
                .map(|(moved, lines)| (part(moved), lines))
                .collect(),
            remade: checked.remade,
        })
    }

    /// What make read in the run of `command` that its dry run did not, where the dry run remade a makefile
    /// (`closure::make_plan::Remade`): the makefiles read again where the run stood, as it left them.
    pub(crate) fn remade_moved(
        &self,
        active: &ActiveLoop,
        command: &str,
        log_path: &Path,
        remade: &crate::closure::make_plan::Remade,
    ) -> Vec<Move> {
        self.beside(active, command, log_path, |request| remade.read_again(request))
            .into_iter()
            .map(|moved| Move::Part(crate::schema::Source::Derived, moved))
            .collect()
    }

    /// What the world left out of the run, for a run that did not pass: the new files the runners would load on
    /// their own that the tree left out, and the places outside the project the run did not see.
    pub(crate) fn left_out(&self) -> (Vec<String>, Vec<String>) {
        self.tree
            .as_ref()
            .map(|(_, done)| {
                let unseen = done
                    .outside
                    .cover
                    .iter()
                    .map(|(path, _)| path.display().to_string())
                    .collect();
                (done.left_out.clone(), unseen)
            })
            .unwrap_or_default()
    }
}

/// What moved in make's plan since `sealed` was recorded (see `closure::make_plan`), asked as `request` runs;
/// the plan retaken where the user accepted a change to a makefile, and the makefiles named kept so they can be
/// accepted by name.
fn make_moved(
    active: &ActiveLoop,
    baseline: &mut crate::testjudge::baseline::Baseline,
    sealed: crate::closure::make_plan::MakePlan,
    request: &crate::verify::VerifyRequest,
) -> Result<crate::closure::make_plan::Checked, Error> {
    let checked = if sealed.retake {
        // The user accepted a change to a makefile: the plan it makes now is the one later promises are held
        // to, if the makefiles are still as they accepted them.
        match crate::closure::make_plan::retake(&sealed, request) {
            Ok(plan) => {
                baseline.make = Some(plan);
                active.store.save_baseline(&active.project, baseline)?;
                return Ok(Default::default());
            }
            Err(moved) => crate::closure::make_plan::Checked {
                moved,
                ..Default::default()
            },
        }
    } else {
        crate::closure::make_plan::check(&sealed, request)
    };
    let moved = &checked.moved;
    // The makefiles named can be accepted by name (`loopgate allow local.mk`).
    let named: Vec<String> = moved.iter().map(|m| m.path.clone()).collect();
    if !named.iter().all(|path| sealed.named.contains(path)) {
        let mut sealed = sealed;
        sealed.named.extend(named);
        sealed.named.sort();
        sealed.named.dedup();
        baseline.make = Some(sealed);
        active.store.save_baseline(&active.project, baseline)?;
    }
    Ok(checked)
}

/// What moved in what the verify's tools resolve ([`World::resolved_moved`]): the parts that moved, and the new
/// steps of the run make found (`closure::make_plan::Checked`), each with how its processes are known, to be set
/// aside and judged by what they do (`oracle::steps`).
#[derive(Debug, Default)]
pub(crate) struct Resolved {
    pub(crate) moved: Vec<Move>,
    pub(crate) steps: Vec<(Move, Vec<crate::closure::steps::Step>)>,
    /// Where make's dry run remade a makefile: what to read again after the run ([`World::remade_moved`]).
    pub(crate) remade: Option<crate::closure::make_plan::Remade>,
}
