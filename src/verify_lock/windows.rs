//! The recent verify windows of a project: when each verify ran, so that a control file made while one ran is
//! not honoured.
//!
//! Why: the verify command runs code the agent wrote, outside Claude Code's sandbox. That code could write a
//! setup request and forge the ticket the user's prompt leaves, and the next tool call would carry out a loop of
//! the agent's choosing (issue 31). A control file whose change time (`ctime`: set by the kernel, not by
//! `utimes`, unlike `mtime`) falls inside a verify window — or that appears while a verify is running — was not
//! made by the user's prompt, which cannot be submitted while a Stop hook is still running its verify.
//!
//! The windows live in loopgate's home (`verifies/<project key>`), beside the tickets, as lines of
//! `START END` in nanoseconds since the epoch; windows older than [`KEEP`] are dropped as a new one is added,
//! since no request or ticket older than that counts anyway. A verify that is killed records no window; the
//! running-now check (the verify lock) still covers it while it runs.

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::project::Project;

/// How long a window is kept: longer than a request or ticket lives (ten minutes).
const KEEP: Duration = Duration::from_secs(15 * 60);

pub(super) fn path(project: &Project) -> PathBuf {
    crate::project::loopgate_home()
        .join("verifies")
        .join(project.store_key())
}

fn nanos(t: SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

/// The recorded windows, `(start, end)` in nanoseconds; unreadable lines are skipped.
fn read(project: &Project) -> Vec<(u128, u128)> {
    let text = std::fs::read_to_string(path(project)).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let (start, end) = line.split_once(' ')?;
            Some((start.trim().parse().ok()?, end.trim().parse().ok()?))
        })
        .collect()
}

/// Records that a verify ran from `start` until now. Best effort: a verify never fails because of it.
pub(super) fn record(project: &Project, start: SystemTime) {
    let now = SystemTime::now();
    let oldest = nanos(now.checked_sub(KEEP).unwrap_or(UNIX_EPOCH));
    let mut windows: Vec<(u128, u128)> = read(project).into_iter().filter(|&(_, end)| end >= oldest).collect();
    windows.push((nanos(start), nanos(now)));
    let text: String = windows.iter().map(|(s, e)| format!("{s} {e}\n")).collect();
    let path = path(project);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::fsutil::write_atomic_unsynced(&path, text.as_bytes(), 0o600);
}

/// How far a file's change time may lag the clock the window was read from. The kernel stamps `ctime` from its
/// coarse clock, which trails the fine clock `SystemTime::now` reads by up to one scheduler tick (10 ms at the
/// slowest common tick rate); a file the verify wrote in its first instant can carry a `ctime` just before the
/// window opened (seen on CI). The user's prompt cannot land this close before a verify: the model answers between
/// any tool call and the Stop hook that runs the verify. The window's end needs no slack — a lagging stamp only
/// moves a file the verify wrote further inside — and gets none, so a file written just after it stays the user's.
const COARSE_CLOCK_SLACK: Duration = Duration::from_millis(50);

/// Whether `at` falls inside a recorded window, opened [`COARSE_CLOCK_SLACK`] early.
pub(super) fn covers(project: &Project, at: SystemTime) -> bool {
    let at = nanos(at);
    let slack = COARSE_CLOCK_SLACK.as_nanos();
    read(project)
        .iter()
        .any(|&(start, end)| start.saturating_sub(slack) <= at && at <= end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_stamped_by_the_coarse_clock_just_before_the_window_is_covered_and_an_older_one_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = Project {
            root: dir.path().to_path_buf(),
        };
        // A verify that ran for the last 20 ms.
        let start = SystemTime::now() - Duration::from_millis(20);
        record(&project, start);
        assert!(
            covers(&project, start - Duration::from_millis(8)),
            "one coarse tick early"
        );
        assert!(covers(&project, start + Duration::from_millis(1)));
        assert!(
            !covers(&project, start - Duration::from_secs(2)),
            "a request made before the verify"
        );
        let _ = std::fs::remove_file(path(&project));
    }
}
