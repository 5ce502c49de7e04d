//! `loopgate history`: the project's loops, one line per record (`--json`: the records as stored). `--loop ID`
//! that names no loop of the history is a usage error (exit 2), not an empty success.

use crate::error::Error;
use crate::exit_codes;
use crate::history::{self, Record};
use crate::project::Project;

/// Every record of `project`'s history, or the error naming the file (`history` and `report` both read it whole).
pub(super) fn read_all(project: &Project) -> Result<history::Read, Error> {
    let path = project.history_path();
    history::read(&path).map_err(|source| Error::Io {
        action: "read",
        path,
        source,
    })
}

/// The usage error for a `--loop ID` that names no loop of `project`'s history.
pub(super) fn no_such_loop(project: &Project, id: &str) -> Error {
    Error::Usage(format!(
        "no loop `{id}` in `{}`; `loopgate history` lists every loop with its id",
        project.history_path().display()
    ))
}

/// Runs `loopgate history`.
pub(crate) fn run(json: bool, loop_id: Option<&str>) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let path = project.history_path();
    let read = read_all(&project)?;
    if !read.bad_lines.is_empty() {
        eprintln!(
            "loopgate: skipped unreadable line(s) {:?} of `{}`",
            read.bad_lines,
            path.display()
        );
    }
    if let Some(id) = loop_id
        && !read.records.iter().any(|r| r.loop_id == id)
    {
        return Err(no_such_loop(&project, id));
    }
    let records = read.records.iter().filter(|r| loop_id.is_none_or(|id| r.loop_id == id));
    let mut out = std::io::stdout().lock();
    for record in records {
        let line = if json {
            serde_json::to_string(record).unwrap_or_default()
        } else {
            crate::printable::printable(&human(record)).into_owned()
        };
        if crate::write_line(&mut out, &line).is_err() {
            break;
        }
    }
    Ok(exit_codes::OK)
}

/// `2026-11-21T19:40:00Z  lg-…  #3  promise_rejected  exit 101, 3.2s — 2 failed: …`
fn human(r: &Record) -> String {
    let line = format!(
        "{}  {}  #{:<3} {:<17} {}",
        r.time(),
        r.loop_id,
        r.iteration,
        r.status().as_str(),
        r.event.describe()
    );
    line.trim_end().to_string()
}
