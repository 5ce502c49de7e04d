//! `loopgate report --html`: the picture of a loop, or of a tournament's candidates (see `report::html`),
//! written as one self-contained page; the command prints its path and opens nothing.
//!
//! A loop's page goes to `.claude/loopgate/report-<loop>.html`; a tournament's to the store, beside its record
//! (`tournaments/<id>.html`), drawn from the candidates' histories copied there when it ended.

use std::path::PathBuf;

use crate::cli::Until;
use crate::commands::run::tournament::rank;
use crate::commands::run::tournament::record::{self, Candidate, Status, Tournament};
use crate::error::Error;
use crate::exit_codes;
use crate::history;
use crate::lifecycle::{Lookup, lookup};
use crate::project::{Project, safe_name};
use crate::report::html::{self, Lane, Page};

pub(crate) fn run(html: bool, loop_id: Option<&str>, tournament: Option<&str>) -> Result<u8, Error> {
    if !html {
        return Err(Error::Usage(
            "`loopgate report` draws the HTML page: add `--html` (a loop that ends without success also leaves a Markdown report in `.claude/loopgate/`)".into(),
        ));
    }
    let project = Project::for_terminal();
    let path = match tournament {
        Some(id) => {
            let repo = crate::commands::run::tournament::toplevel(&project.root).unwrap_or(project.root.clone());
            let repo = repo.canonicalize().unwrap_or(repo);
            let id = Some(id).filter(|id| !id.is_empty());
            tournament_page(&Tournament::find(id, &repo)?)?
        }
        None => loop_page(&project, loop_id)?,
    };
    println!("{}", path.display());
    Ok(exit_codes::OK)
}

/// Draws tournament `t` from its candidates' histories; returns the page's path.
pub(crate) fn tournament_page(t: &Tournament) -> Result<PathBuf, Error> {
    let lanes: Vec<Lane> = t
        .candidates
        .iter()
        .map(|c| Lane {
            name: c.name.clone(),
            about: candidate_about(c),
            notes: c.notes(),
            loop_id: c.loop_id.clone(),
            records: history::read(&record::history_copy(&t.id, &c.name))
                .map(|read| read.records)
                .unwrap_or_default(),
        })
        .collect();
    let page = Page {
        title: format!("loopgate tournament {}", t.id),
        lanes: &lanes,
        winner: t.winner,
        outcome: tournament_outcome(t),
        target: t.target,
    };
    write(&record::picture(&t.id), &html::render(&page))
}

/// `claude -p · complete · 2 iteration(s) · 6 line(s) changed · $0.0120, 2000 in / 400 out · 14s`
fn candidate_about(c: &Candidate) -> String {
    let cost = c
        .cost
        .as_ref()
        .map_or("cost not reported".to_string(), crate::cost::describe);
    format!(
        "{} · {} · {} iteration(s) · {} line(s) changed · {cost} · {:.0}s",
        c.agent, c.ending, c.iterations, c.diff_lines, c.seconds
    )
}

/// Who won and why (the rank rule), or why nobody did.
fn tournament_outcome(t: &Tournament) -> String {
    let passed = t.candidates.iter().filter(|c| c.ending == "complete").count();
    let first = match t.until {
        Until::First => "the first to pass wins and the others are stopped (`--until first`); among any that passed, ",
        Until::All => "",
    };
    let mut text = match t.winner() {
        Some(w) => format!(
            "★ {} won: the oracle passed {passed} of {} candidate(s) and it ranked first by the rule: {first}{}. Its work is on branch `loopgate/{}/winner`{}.",
            w.name,
            t.candidates.len(),
            rank::rule(t.rank, t.target.is_some()),
            t.id,
            if t.accepted {
                ", accepted into your branch"
            } else {
                "; `loopgate accept` takes it in"
            }
        ),
        None if t.status_now() == Status::Interrupted => {
            "No winner: the tournament was stopped before its end.".to_string()
        }
        None if t.status_now() == Status::Running => "Still running: no winner yet.".to_string(),
        None => "No winner: no candidate passed the oracle.".to_string(),
    };
    if t.budget_spent {
        text.push_str(" The tournament ended on its cost budget (--max-cost).");
    }
    text
}

/// Draws loop `loop_id` of `project` (default: the running loop, else the latest); returns the page's path.
fn loop_page(project: &Project, loop_id: Option<&str>) -> Result<PathBuf, Error> {
    let read = super::history::read_all(project)?;
    let running = match lookup(project)? {
        Lookup::Loop(active) => Some((
            active.seal.fields.config.loop_id.clone(),
            active.seal.fields.config.verify.score.clone(),
        )),
        _ => None,
    };
    let id = loop_id
        .map(str::to_string)
        .or_else(|| running.as_ref().map(|(id, _)| id.clone()))
        .or_else(|| read.records.last().map(|r| r.loop_id.clone()))
        .ok_or_else(|| Error::NoLoop {
            root: project.root.clone(),
        })?;
    if !read.records.iter().any(|r| r.loop_id == id) {
        return Err(super::history::no_such_loop(project, &id));
    }
    let target = running
        .filter(|(running, _)| *running == id)
        .and_then(|(_, score)| score.map(|gate| gate.target));
    let records: Vec<_> = read.records.into_iter().filter(|r| r.loop_id == id).collect();
    let (spent, runs) = crate::commands::run::spent_of(&records);
    let iterations = records.iter().map(|r| r.iteration).max().unwrap_or(0);
    let cost = if runs > 0 {
        crate::cost::describe(&spent)
    } else {
        "cost not reported".to_string()
    };
    let lane = Lane {
        name: id.clone(),
        about: format!("{iterations} iteration(s) · {cost}"),
        notes: Vec::new(),
        loop_id: id.clone(),
        records,
    };
    let page = Page {
        title: format!("loopgate loop {id}"),
        outcome: format!("The loop: {}.", html::ending(&lane.records, &id)),
        lanes: std::slice::from_ref(&lane),
        winner: None,
        target,
    };
    let path = project.work_dir().join(format!("report-{}.html", safe_name(&id)));
    write(&path, &html::render(&page))
}

fn write(path: &std::path::Path, page: &str) -> Result<PathBuf, Error> {
    let io = |source| Error::Io {
        action: "write the report page",
        path: path.to_path_buf(),
        source,
    };
    crate::fsutil::write_atomic(path, page.as_bytes(), 0o644).map_err(io)?;
    Ok(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tournament(fields: serde_json::Value) -> Tournament {
        let candidate = |name: &str, ending: &str| {
            json!({"name": name, "agent": "claude -p", "worktree": "/w", "loop_id": "lg-1", "ending": ending,
                "iterations": 2, "score": null, "diff_lines": 6, "branch": null, "commit": null, "seconds": 12.0})
        };
        let mut record = json!({"id": "t-1", "repo": "/r", "base": "abc", "until": "all",
            "candidates": [candidate("c1", "max_iterations"), candidate("c2", "complete"), candidate("c3", "complete")],
            "winner": null});
        for (key, value) in fields.as_object().expect("fields") {
            record[key] = value.clone();
        }
        serde_json::from_value(record).expect("a record")
    }

    #[test]
    fn the_outcome_names_the_winner_and_the_rule_or_why_there_is_none() {
        let won = tournament_outcome(&tournament(json!({"winner": 2, "rank": "cost"})));
        assert!(
            won.starts_with("★ c3 won: the oracle passed 2 of 3 candidate(s) and it ranked first by the rule: passing first; then the lower cost, then the smaller diff (`--rank cost`)"),
            "{won}"
        );
        assert!(
            won.contains("branch `loopgate/t-1/winner`; `loopgate accept` takes it in."),
            "{won}"
        );
        let first = tournament_outcome(&tournament(json!({"winner": 1, "until": "first", "target": 0.9})));
        assert!(
            first.contains("the first to pass wins and the others are stopped (`--until first`); among any that passed, passing first; then the better score, then the smaller diff"),
            "{first}"
        );
        let accepted = tournament_outcome(&tournament(json!({"winner": 1, "accepted": true})));
        assert!(accepted.ends_with(", accepted into your branch."), "{accepted}");
        assert_eq!(
            tournament_outcome(&tournament(json!({}))),
            "No winner: no candidate passed the oracle."
        );
        assert_eq!(
            tournament_outcome(&tournament(json!({"status": "interrupted", "budget_spent": true}))),
            "No winner: the tournament was stopped before its end. The tournament ended on its cost budget (--max-cost)."
        );
    }

    #[test]
    fn a_candidates_line_says_its_agent_ending_iterations_diff_cost_and_time() {
        let t = tournament(json!({}));
        assert_eq!(
            candidate_about(&t.candidates[0]),
            "claude -p · max_iterations · 2 iteration(s) · 6 line(s) changed · cost not reported · 12s"
        );
    }
}
