//! `loopgate tournament list|show|clean|accept`: the user's view of the tournaments of this repository
//! (`loopgate run --candidates N`), from their records in the store. `accept` is `loopgate accept`.

use std::path::PathBuf;

use crate::cli::TournamentCommand;
use crate::commands::run::tournament::clean;
use crate::commands::run::tournament::record::{self, Status, Tournament};
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

pub(crate) fn run(command: TournamentCommand) -> Result<u8, Error> {
    match command {
        TournamentCommand::Accept { id } => super::accept::run(id.as_deref()),
        TournamentCommand::List => {
            let repo = repository()?;
            let all = Tournament::all_of(&repo);
            if all.is_empty() {
                println!("no tournament in {}", repo.display());
            }
            for t in &all {
                println!("{}", line(t));
            }
            Ok(exit_codes::OK)
        }
        TournamentCommand::Show { id } => {
            let t = Tournament::find(id.as_deref(), &repository()?)?;
            println!("{}", line(&t));
            for (i, c) in t.candidates.iter().enumerate() {
                let mark = if t.winner == Some(i) { "★" } else { " " };
                let cost = c
                    .cost
                    .as_ref()
                    .and_then(|r| r.cost_usd)
                    .map_or("cost unknown".to_string(), |d| format!("${d:.4}"));
                println!(
                    " {mark} {:<4} {:<15} {} iteration(s), {} line(s) changed, {:.0}s, {cost}, {}",
                    c.name,
                    c.ending,
                    c.iterations,
                    c.diff_lines,
                    c.seconds,
                    c.branch.as_deref().filter(|_| !t.cleaned).unwrap_or("no branch")
                );
                for note in c.notes() {
                    println!("        {note}");
                }
            }
            let page = record::picture(&t.id);
            if page.is_file() {
                println!("the report: {} (the task, the verdicts and why)", page.display());
            }
            Ok(exit_codes::OK)
        }
        TournamentCommand::Clean { id } => {
            super::accept::refuse_agents("clean up a tournament")?;
            let mut t = Tournament::find(id.as_deref(), &repository()?)?;
            if t.status_now() == Status::Running {
                return Err(Error::Usage(format!(
                    "tournament `{}` is still running (pid {}): stop it first (Ctrl-C, or `kill {}`)",
                    t.id,
                    t.pid.unwrap_or(0),
                    t.pid.unwrap_or(0)
                )));
            }
            let branches = clean::remove(&t.id, &t.repo)?;
            if t.status == Status::Running {
                t.status = Status::Interrupted;
                t.pid = None;
            }
            t.cleaned = true;
            t.save()?;
            eprintln!(
                "loopgate: tournament {}: its clones, seals and rooms are removed, and {branches} branch(es) `loopgate/{}/*`",
                t.id, t.id
            );
            Ok(exit_codes::OK)
        }
    }
}

/// The repository the terminal is in (its top level, canonical, as the records name it).
fn repository() -> Result<PathBuf, Error> {
    let root = Project::for_terminal().root;
    let repo = crate::commands::run::tournament::toplevel(&root)
        .map_err(|_| Error::Usage(format!("`{}` is not in a git repository", root.display())))?;
    Ok(repo.canonicalize().unwrap_or(repo))
}

/// One line of `list`: the id, the state, the candidates and the winner.
fn line(t: &Tournament) -> String {
    let state = match t.status_now() {
        Status::Running => "running",
        Status::Finished if t.accepted => "accepted",
        Status::Finished => "finished",
        Status::Interrupted => "interrupted",
    };
    let winner = t
        .winner()
        .map_or("no winner".to_string(), |w| format!("winner {}", w.name));
    let cleaned = if t.cleaned { ", cleaned" } else { "" };
    format!(
        "{}  {state}{cleaned}  {} candidate(s), {winner}",
        t.id,
        t.candidates.len()
    )
}
