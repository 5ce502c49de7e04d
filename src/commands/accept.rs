//! `loopgate accept` (also `loopgate tournament accept`): the user takes the winner of a tournament
//! (`loopgate run --candidates N`) into their branch. Until then a tournament changes nothing of the user's: the
//! candidates worked in clones under the store and the winner waits on `loopgate/<id>/winner`.
//!
//! It is the user's command, not the agent's: it refuses inside Claude Code (as `allow` does, see `control`)
//! and inside any agent a loop started (`LOOPGATE_LOOP_ID`, which `loopgate run` gives its agent, or the
//! confinement's marker). It merges only into a clean working tree: a fast-forward where the branch has not
//! moved since the tournament started, else a merge **that is known to apply cleanly before it starts**
//! (`git merge-tree --write-tree` computes it in the object store, touching neither the index nor the tree). On
//! a conflict nothing is changed — no half-done merge to abort — and the user is told how to merge by hand.
//! Then it removes the tournament's clones, seals and rooms; the branches stay until `loopgate tournament clean`.

use crate::commands::run::tournament::record::Tournament;
use crate::commands::run::tournament::{clean, merge_conflicts, run_git, toplevel};
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

/// The variables that mark a process started by a loop's agent.
const AGENT_MARKERS: [&str; 2] = ["LOOPGATE_LOOP_ID", crate::confine::CONFINED_VAR];

pub(crate) fn run(id: Option<&str>) -> Result<u8, Error> {
    refuse_agents("accept a tournament's winner")?;
    let root = Project::for_terminal().root;
    let repo = toplevel(&root).map_err(|_| Error::Usage(format!("`{}` is not in a git repository", root.display())))?;
    let repo = repo.canonicalize().unwrap_or(repo);
    let mut tournament = Tournament::find(id, &repo)?;
    let Some(winner) = tournament.winner().cloned() else {
        return Err(Error::Usage(format!(
            "tournament `{}` has no winner: no candidate passed the oracle",
            tournament.id
        )));
    };
    if tournament.accepted {
        eprintln!("loopgate: tournament `{}` was already accepted", tournament.id);
        return Ok(exit_codes::OK);
    }
    if tournament.cleaned {
        return Err(Error::Usage(format!(
            "tournament `{}` was cleaned up: its winner's branch is gone",
            tournament.id
        )));
    }
    if !run_git(&tournament.repo, &["status", "--porcelain", "--untracked-files=no"])?.is_empty() {
        return Err(Error::Usage(
            "your working tree has uncommitted changes: commit or stash them, then run `loopgate accept` again".into(),
        ));
    }
    let branch = format!("loopgate/{}/winner", tournament.id);
    merge(&tournament.repo, &branch)?;
    tournament.accepted = true;
    tournament.save()?;
    let _ = clean::remove_clones(&tournament.id);
    eprintln!(
        "loopgate: accepted {} of tournament {} ({} line(s) changed) into your branch; the candidates' clones are removed, their branches `loopgate/{}/*` kept (`loopgate tournament clean {}` removes them)",
        winner.name, tournament.id, winner.diff_lines, tournament.id, tournament.id
    );
    Ok(exit_codes::OK)
}

/// Refuses `action` inside Claude Code and inside any agent a loop started: a tournament's results are the user's.
pub(crate) fn refuse_agents(action: &'static str) -> Result<(), Error> {
    crate::control::refuse_inside_claude_code(&crate::control::Caller::from_env(), action)?;
    match AGENT_MARKERS
        .into_iter()
        .find(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
    {
        Some(marker) => Err(Error::AgentRefused { action, marker }),
        None => Ok(()),
    }
}

/// Merges `branch` into the checked-out branch of `repo`, or changes nothing and says how to do it by hand.
fn merge(repo: &std::path::Path, branch: &str) -> Result<(), Error> {
    if run_git(repo, &["merge", "--ff-only", "--quiet", branch]).is_ok() {
        return Ok(());
    }
    let conflicts = merge_conflicts(repo, branch)?;
    if !conflicts.is_empty() {
        return Err(Error::Usage(format!(
            "the winner does not merge cleanly into your branch (conflicts in {}); nothing was changed. Merge it by hand: `git merge {branch}`, resolve the conflicts, `git commit`",
            conflicts.join(", ")
        )));
    }
    if let Err(err) = run_git(repo, &["merge", "--no-edit", "--quiet", branch]) {
        // Clean in the object store yet refused in the tree (an untracked file in the way): git changed nothing
        // then, but a merge it may have started is undone to be sure.
        let _ = run_git(repo, &["merge", "--abort"]);
        return Err(err);
    }
    Ok(())
}
