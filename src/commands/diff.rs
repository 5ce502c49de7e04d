//! `loopgate diff FROM [TO]`: what changed from one checkpoint to another, or to the working tree as it is now
//! (snapshotted through the private index, under the project lock, like a stop's checkpoint but named by no
//! ref). Git renders it; `--stat` only counts, `--json` gives the files, the counts and the patch.

use std::process::Stdio;

use serde_json::json;

use crate::checkpoint::git::PATHSPEC;
use crate::checkpoint::restore;
use crate::error::Error;
use crate::exit_codes;
use crate::project::Project;

use super::checkpoints::select;

/// Runs `loopgate diff`.
pub(crate) fn run(
    from: &str,
    to: Option<&str>,
    stat: bool,
    json_out: bool,
    loop_id: Option<&str>,
) -> Result<u8, Error> {
    let selected = select(Project::for_terminal(), loop_id)?;
    let git = &selected.git;
    let source = selected.find(from)?;
    let (target, target_name) = match to {
        Some(to) => {
            let r = selected.find(to)?;
            (r.commit.clone(), r.name.to_string())
        }
        None => {
            let _lock = super::lock(&selected.project)?;
            (restore::working_tree(git)?, "working tree".to_string())
        }
    };
    let range = [source.commit.as_str(), target.as_str()];
    let args = |extra: &[&str]| -> Vec<String> {
        // git ignores `NO_COLOR` (https://no-color.org); loopgate honours it for the diff it shows.
        let no_color: &[&str] = if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            &["--no-color"]
        } else {
            &[]
        };
        ["--no-pager", "diff", "--relative"]
            .iter()
            .chain(no_color)
            .chain(extra)
            .chain(&range)
            .chain(&PATHSPEC)
            .map(|a| (*a).to_string())
            .collect()
    };
    if json_out {
        let text = |extra: &[&str]| -> Result<String, Error> {
            let args = args(extra);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            Ok(String::from_utf8_lossy(&git.run(&args)?).into_owned())
        };
        let numstat = text(&["--numstat"])?;
        let statuses = text(&["--name-status"])?;
        let patch = if stat { None } else { Some(text(&[])?) };
        let files: Vec<_> = numstat
            .lines()
            .zip(statuses.lines())
            .filter_map(|(n, s)| {
                let mut n = n.splitn(3, '\t');
                let (added, deleted, path) = (n.next()?, n.next()?, n.next()?);
                json!({
                    "path": path,
                    "status": s.split('\t').next().unwrap_or(""),
                    "insertions": added.parse::<u64>().ok(),
                    "deletions": deleted.parse::<u64>().ok(),
                })
                .into()
            })
            .collect();
        let report = json!({
            "loop_id": selected.loop_id,
            "from": source.name.to_string(),
            "to": target_name,
            "files": files,
            "patch": patch,
        });
        crate::say(serde_json::to_string_pretty(&report).unwrap_or_default());
        return Ok(exit_codes::OK);
    }
    crate::say(format!(
        "loopgate: loop {}, checkpoint {} → {target_name}",
        selected.loop_id, source.name
    ));
    let extra: &[&str] = if stat { &["--stat"] } else { &["--stat", "--patch"] };
    let args = args(extra);
    let status = git
        .command(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .stdin(Stdio::null())
        .status()
        .map_err(|source| Error::Io {
            action: "run git diff in",
            path: selected.project.root.clone(),
            source,
        })?;
    Ok(if status.success() {
        exit_codes::OK
    } else {
        exit_codes::FAILURE
    })
}
