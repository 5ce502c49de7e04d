//! The oracle's run writes into a private scratch, never into a world (issue 39, item 2): in the room's
//! namespace `$HOME` and `/tmp` are the run's own throw-away copies, so a run may create files there (nyc's
//! `~/.node-spawn-wrap-*`), change one, write a path in `/tmp` by name — and nothing of it reaches the user's
//! machine, or the next run. The seal store stays out of the run's reach.

use std::fs;

use crate::project::Project;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// A verify that writes a new file directly in `$HOME`, appends to an existing one, writes a file in `/tmp` by
/// name and plants into the store, and passes only once the code is fixed — or if a marker an earlier run of it
/// left in `$HOME` or `$TMPDIR` is there (what a run could leave for the next promise to trust). With the store under `HOME`
/// (its default place), confinement closed `HOME` to new entries, and every honest fix was "the verify command
/// failed".
#[test]
fn the_oracles_writes_in_home_and_tmp_are_its_own_and_gone_after_it() {
    let p = Project::new().store_in_home();
    let home = p.home().canonicalize().expect("the home");
    fs::write(home.join(".existing"), "as the user left it\n").expect("a file in HOME");
    let tag = p
        .root()
        .parent()
        .and_then(|b| b.file_name())
        .expect("the sandbox's name")
        .to_string_lossy()
        .into_owned();
    let in_tmp = std::path::PathBuf::from(format!("/tmp/{tag}-written"));
    let store = home.join(".local/state/loopgate");
    p.write("calc.txt", "broken\n");
    p.write(
        "check.sh",
        format!(
            r#"#!/bin/sh
if [ -e "$HOME/.marker" ] || [ -e "$TMPDIR/.marker" ]; then echo "helped by an earlier run"; exit 0; fi
touch "$HOME/.marker" "$TMPDIR/.marker" || exit 3
touch "$HOME/.node-spawn-wrap-$$" || exit 4
echo "the run's line" >> "$HOME/.existing" || exit 5
echo written > {tmp} || exit 6
if find {store} -path '*/rooms' -prune -o -type f -print | grep .; then echo "the store is readable"; exit 8; fi
touch {store}/planted || exit 7
grep -q fixed calc.txt
"#,
            tmp = in_tmp.display(),
            store = store.display(),
        ),
    );
    p.setup("S", "\"t\" --verify 'sh check.sh' --stall-limit 0");
    // The baseline failed on the code, not on a write: its exit is grep's 1.
    let baseline = p.last_record("init");
    assert_eq!(baseline["baseline"]["exit"], 1, "{baseline}");
    // Unfixed: the marker the baseline wrote is gone, so the run is not helped.
    p.stop("S", PROMISE).blocked();
    p.write("calc.txt", "fixed\n");
    let out = p.stop("S", PROMISE);
    assert!(
        out.json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("verified complete")),
        "{out}"
    );
    let left: Vec<String> = fs::read_dir(&home)
        .expect("the home")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".node-spawn-wrap") || name == ".marker")
        .collect();
    assert!(left.is_empty(), "the run's files reached HOME: {left:?}");
    assert_eq!(
        fs::read_to_string(home.join(".existing")).expect("the file in HOME"),
        "as the user left it\n"
    );
    assert!(!in_tmp.exists(), "the run's file reached /tmp");
    let rooms = store.join("rooms");
    let kept: Vec<_> = fs::read_dir(&rooms)
        .expect("the rooms")
        .flatten()
        .map(|room| room.path().join("tmp/.marker"))
        .filter(|marker| marker.exists())
        .collect();
    assert!(kept.is_empty(), "the run's temporary files were kept: {kept:?}");
    assert!(!store.join("planted").exists(), "the run wrote into the store");
}
