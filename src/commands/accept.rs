//! `loopgate accept`: the user takes the winner of a tournament (`loopgate run --candidates N`) into their
//! branch. Until then a tournament changes nothing of the user's: the candidates worked in worktrees under the
//! store and the winner waits on `loopgate/<id>/winner`.
//!
//! It is the user's command, not the agent's: it refuses inside Claude Code (as `allow` does, see `control`)
//! and inside any agent a loop started (`LOOPGATE_LOOP_ID`, which `loopgate run` gives its agent, or the
//! confinement's marker). It merges only into a clean working tree (a fast-forward where the branch has not
//! moved since the tournament started), then removes the tournament's worktrees.

use crate::commands::run::tournament::{record::Tournament, remove_worktree, run_git, toplevel};
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

/// The variables that mark a process started by a loop's agent.
const AGENT_MARKERS: [&str; 2] = ["LOOPGATE_LOOP_ID", crate::confine::CONFINED_VAR];

pub(crate) fn run(id: Option<&str>) -> Result<u8, Error> {
    crate::control::refuse_inside_claude_code(&crate::control::Caller::from_env(), "accept a tournament's winner")?;
    if let Some(marker) = AGENT_MARKERS
        .into_iter()
        .find(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
    {
        return Err(Error::AgentRefused {
            action: "accept a tournament's winner",
            marker,
        });
    }
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
    if !run_git(&tournament.repo, &["status", "--porcelain", "--untracked-files=no"])?.is_empty() {
        return Err(Error::Usage(
            "your working tree has uncommitted changes: commit or stash them, then run `loopgate accept` again".into(),
        ));
    }
    let branch = format!("loopgate/{}/winner", tournament.id);
    if run_git(&tournament.repo, &["merge", "--ff-only", "--quiet", &branch]).is_err() {
        run_git(&tournament.repo, &["merge", "--no-edit", "--quiet", &branch])?;
    }
    tournament.accepted = true;
    tournament.save()?;
    for candidate in &tournament.candidates {
        let _ = remove_worktree(&tournament.repo, &candidate.worktree);
    }
    let _ = std::fs::remove_dir_all(crate::commands::run::tournament::record::worktrees(&tournament.id));
    eprintln!(
        "loopgate: accepted {} of tournament {} ({} line(s) changed) into your branch; the candidates' worktrees are removed, their branches `loopgate/{}/*` kept",
        winner.name, tournament.id, winner.diff_lines, tournament.id
    );
    Ok(exit_codes::OK)
}
