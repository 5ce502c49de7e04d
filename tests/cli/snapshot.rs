//! Snapshots of what users and the model read, kept as plain text files under `tests/cli/snapshots/` so a
//! change of wording shows up in review as a diff (`ARCHITECTURE.md`, "Code style", 12). Redact before comparing (temp paths,
//! loop ids, timestamps, durations: `Project::redact`).
//!
//! A mismatch fails the test and writes `NAME.txt.new` beside the snapshot; accept every new text with
//! `LOOPGATE_BLESS=1 cargo test --test cli` and review the diff before committing.

use std::fs;
use std::path::PathBuf;

/// Compares `actual` with `tests/cli/snapshots/NAME.txt`.
#[track_caller]
pub fn assert_snapshot(name: &str, actual: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cli/snapshots");
    let path = dir.join(format!("{name}.txt"));
    let pending = dir.join(format!("{name}.txt.new"));
    let actual = format!("{}\n", actual.trim_end());
    if std::env::var_os("LOOPGATE_BLESS").is_some_and(|v| v == "1") {
        fs::create_dir_all(&dir).expect("create snapshot dir");
        fs::write(&path, &actual).expect("write snapshot");
        let _ = fs::remove_file(&pending);
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        let _ = fs::remove_file(&pending);
        return;
    }
    fs::create_dir_all(&dir).expect("create snapshot dir");
    fs::write(&pending, &actual).expect("write pending snapshot");
    let first_difference = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "snapshot `{name}` differs from {} at line {}\n--- expected ---\n{expected}--- actual ---\n{actual}\
         (written to {}; accept with LOOPGATE_BLESS=1 cargo test --test cli)",
        path.display(),
        first_difference + 1,
        pending.display(),
    );
}
