//! `loopgate report --html`: the picture of a loop, or of a tournament's candidates (see `report::html`),
//! written as one self-contained page; the command prints its path and opens nothing.
//!
//! A loop's page goes to `.claude/loopgate/report-<loop>.html`; a tournament's to the store, beside its record
//! (`tournaments/<id>.html`), drawn from the candidates' histories copied there when it ended.

use std::path::PathBuf;

use crate::commands::run::tournament::record::{self, Tournament};
use crate::error::Error;
use crate::exit_codes;
use crate::history;
use crate::lifecycle::{Lookup, lookup};
use crate::project::{Project, safe_name};
use crate::report::html::{self, Lane};

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
            name: format!("{} ({}, {})", c.name, c.agent, c.ending),
            loop_id: c.loop_id.clone(),
            records: history::read(&record::history_copy(&t.id, &c.name))
                .map(|read| read.records)
                .unwrap_or_default(),
        })
        .collect();
    let title = format!("loopgate tournament {}", t.id);
    write(&record::picture(&t.id), &html::render(&title, &lanes, t.target))
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
    let lane = Lane {
        name: id.clone(),
        loop_id: id.clone(),
        records: read.records,
    };
    let page = project.work_dir().join(format!("report-{}.html", safe_name(&id)));
    write(&page, &html::render(&format!("loopgate loop {id}"), &[lane], target))
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
