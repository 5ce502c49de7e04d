//! Which loop's checkpoints `checkpoints`, `diff` and `rollback` work on: `--loop ID`, else the loop running (or
//! paused) in this project, else the loop whose checkpoints are newest. One `git for-each-ref` finds them all.

use crate::checkpoint::list::{self, Ref};
use crate::checkpoint::{Git, Keep, Name};
use crate::error::Error;
use crate::lifecycle::{Lookup, lookup};
use crate::project::{Project, safe_name};

/// The chosen loop and its checkpoints.
pub(crate) struct Selected {
    pub(crate) project: Project,
    pub(crate) git: Git,
    pub(crate) loop_id: String,
    /// The loop still runs (or is paused) here.
    pub(crate) running: bool,
    /// What the running loop keeps at its end (`None`: it ended, or takes no checkpoints).
    pub(crate) keep: Option<Keep>,
    /// Its checkpoints, iterations then saves.
    pub(crate) refs: Vec<Ref>,
    /// Other loops that left checkpoints.
    pub(crate) others: Vec<String>,
}

/// Finds the loop and its checkpoints; a clear error when there are none.
pub(crate) fn select(project: Project, wanted: Option<&str>) -> Result<Selected, Error> {
    let git = Git::new(&project);
    if !git.is_work_tree() {
        return Err(Error::NoCheckpoints(format!(
            "`{}` is not in a git repository, so loopgate takes no checkpoints here (they are git commits under refs/loopgate/)",
            project.root.display()
        )));
    }
    let mut loops = list::all(&git)?;
    let running = match lookup(&project)? {
        Lookup::Loop(active) => Some((
            active.loop_id().to_string(),
            active.seal.fields.progress.checkpoints.clone(),
        )),
        _ => None,
    };
    let loop_id = match (wanted, &running) {
        (Some(id), _) => safe_name(id),
        (None, Some((id, _))) => safe_name(id),
        (None, None) => loops
            .iter()
            .max_by_key(|(_, refs)| refs.iter().map(|r| r.time).max())
            .map(|(id, _)| id.clone())
            .ok_or_else(|| {
                Error::NoCheckpoints(format!(
                    "no loop has left checkpoints in `{}`; loops take them at every stop (start one with {})",
                    project.root.display(),
                    crate::cli::slash_command("pua-loop")
                ))
            })?,
    };
    let is_running = running.as_ref().is_some_and(|(id, _)| safe_name(id) == loop_id);
    let mut refs = loops.remove(&loop_id).unwrap_or_default();
    if let Some(track) = running
        .as_ref()
        .filter(|_| is_running)
        .and_then(|(_, track)| track.as_ref())
    {
        list::add_unwritten(&mut refs, track);
    }
    if refs.is_empty() {
        let why = if is_running {
            "it was started with `--no-checkpoints`, or before loopgate took checkpoints"
        } else {
            "`loopgate checkpoints` without `--loop` shows the latest loop that has some"
        };
        return Err(Error::NoCheckpoints(format!(
            "loop `{loop_id}` has no checkpoints: {why}"
        )));
    }
    let keep = running
        .filter(|_| is_running)
        .and_then(|(_, track)| track)
        .map(|track| track.keep);
    Ok(Selected {
        project,
        git,
        loop_id,
        running: is_running,
        keep,
        refs,
        others: loops.into_keys().collect(),
    })
}

impl Selected {
    /// The checkpoint named `text` (`3`, `save-1`), or an error listing the ones there are.
    pub(crate) fn find(&self, text: &str) -> Result<&Ref, Error> {
        let name: Name = text.parse().map_err(Error::Usage)?;
        self.refs.iter().find(|r| r.name == name).ok_or_else(|| {
            let names: Vec<String> = self.refs.iter().map(|r| r.name.to_string()).collect();
            Error::Usage(format!(
                "loop `{}` has no checkpoint `{name}` (it has {}); `loopgate checkpoints` lists them",
                self.loop_id,
                names.join(", ")
            ))
        })
    }
}
