//! Issue 13: per-iteration checkpoints — taken at setup and at every stop, listed, compared, rolled back to,
//! pruned when the loop ends — through the real binary in a git work tree, and the user's git state untouched.

use serde_json::Value;

use crate::project::Project;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const GIT: &str = "git -c user.name=t -c user.email=t@t";

/// A git work tree with one commit (`a.txt`), an ignored `*.log`, a staged change and a stash.
fn repo() -> Project {
    let p = Project::new()
        .file(".gitignore", "*.log\n")
        .file("a.txt", "broken\n")
        .file("b.txt", "bee\n");
    p.sh(&format!(
        "git init -q -b main && {GIT} add -A && {GIT} commit -qm first && echo stashed > b.txt && {GIT} stash -q && echo staged >> b.txt && git add b.txt"
    ))
    .run()
    .success();
    p
}

/// The user's git state: index bytes, HEAD, branch, stash list.
fn user_view(p: &Project) -> (Vec<u8>, String) {
    let out = p
        .sh("git rev-parse HEAD && git symbolic-ref HEAD && git stash list")
        .run();
    out.success();
    (std::fs::read(p.path(".git/index")).expect("index"), out.stdout.clone())
}

fn refs(p: &Project) -> Vec<String> {
    let out = p.sh("git for-each-ref --format='%(refname)' refs/loopgate/").run();
    out.success();
    let mut names: Vec<String> = out
        .stdout
        .lines()
        .map(|l| l.rsplit('/').next().unwrap_or_default().to_string())
        .collect();
    names.sort();
    names
}

fn checkpoints_json(p: &Project) -> Value {
    let out = p.loopgate(["checkpoints", "--json"]).run();
    out.success();
    out.stdout_json()
}

#[test]
fn a_loop_checkpoints_every_stop_lists_them_and_prunes_them_at_the_end() {
    let p = repo();
    let before = user_view(&p);
    p.setup("S", "\"make a.txt say fixed\" --verify 'grep -q fixed a.txt'")
        .stdout_contains("[loopgate] Checkpoints: the working tree is saved at every stop (start = 0)");
    p.write("notes.txt", "one\ntwo\n");
    p.stop("S", "wrote notes").blocked();
    p.stop("S", "thinking").blocked();
    // Nothing changed: no git process ran, so no ref yet; the listing reads iteration 2 from the loop's state.
    assert_eq!(refs(&p), ["0", "1"]);
    let unwritten = checkpoints_json(&p);
    let names: Vec<&str> = unwritten["checkpoints"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["0", "1", "2"], "{unwritten}");
    p.write("a.txt", "still broken\n");
    p.stop("S", PROMISE).blocked();
    let report = checkpoints_json(&p);
    assert_eq!(report["running"], true, "{report}");
    assert_eq!(report["keep"], "best", "{report}");
    let rows = report["checkpoints"].as_array().expect("rows");
    let names: Vec<&str> = rows.iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(names, ["0", "1", "2", "3"], "{report}");
    assert_eq!(refs(&p), ["0", "1", "2", "3"], "2 written with 3's ref");
    assert_eq!(rows[0]["stop"], "start");
    assert_eq!(rows[1]["stop"], "continue");
    assert_eq!(rows[1]["changes"]["files"], 1, "notes.txt added: {report}");
    assert_eq!(rows[1]["changes"]["insertions"], 2, "{report}");
    assert_eq!(rows[2]["same_as"], "1", "nothing changed: reused: {report}");
    assert_eq!(rows[3]["stop"], "promise_rejected");
    assert_eq!(rows[3]["verify"]["passed"], false);
    assert_eq!(rows[3]["verify"]["exit"], 1);
    let human = p.loopgate(["checkpoints"]).run();
    human
        .success()
        .stdout_contains("(running, keep best)")
        .stdout_contains("same as 1")
        .stdout_contains("fail (exit 1, ");
    // Issue 33, item 7: the table fits an 80-column terminal.
    let wide: Vec<&str> = human.stdout.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "lines wider than 80 columns: {wide:#?}");
    let continued = p.last_record("continue");
    assert!(
        continued["checkpoint"].as_str().is_some_and(|c| c.len() == 40),
        "{continued}"
    );
    p.write("a.txt", "fixed\n");
    p.stop("S", PROMISE).allowed();
    // Ended, and the most recent loop: every checkpoint is kept (pruned once it falls out of the last three).
    assert_eq!(refs(&p), ["0", "1", "2", "3", "4"]);
    let ended = checkpoints_json(&p);
    assert_eq!(ended["running"], false);
    assert_eq!(ended["checkpoints"][4]["verify"]["passed"], true, "{ended}");
    assert_eq!(
        user_view(&p),
        before,
        "index, HEAD, branch and stash untouched throughout"
    );
}

#[test]
fn rollback_restores_an_iteration_saves_the_tree_first_and_is_recorded() {
    let p = repo();
    let before = user_view(&p);
    p.setup("S", "\"t\" --stall-limit 0");
    p.write("a.txt", "one\n");
    p.write("one.txt", "1\n");
    p.stop("S", "step one").blocked();
    p.write("a.txt", "two\n");
    p.write("dir/two.txt", "2\n");
    p.write("kept.log", "ignored\n");
    p.stop("S", "step two").blocked();
    let out = p.loopgate(["rollback", "1"]).run();
    out.success()
        .stdout_contains("restored the working tree to checkpoint 1")
        .stdout_contains("save-1");
    assert_eq!(p.read("a.txt"), "one\n");
    assert!(!p.exists("dir/two.txt") && !p.exists("dir"), "created after 1: removed");
    assert_eq!(p.read("kept.log"), "ignored\n", "ignored files stay");
    assert_eq!(user_view(&p), before);
    p.loopgate(["history"])
        .run()
        .success()
        .stdout_contains("rolled_back       to checkpoint 1, the tree before saved as save-1");
    let rolled = p.last_record("rolled_back");
    assert_eq!(
        (rolled["to"].as_str(), rolled["saved"].as_str()),
        (Some("1"), Some("save-1")),
        "{rolled}"
    );
    // The loop goes on, and the rollback's history line is no tampering.
    p.stop("S", "continuing").blocked();
    assert!(
        !p.statuses().contains(&"tamper_detected".to_string()),
        "{:?}",
        p.statuses()
    );
    // What the rollback undid, then undo it.
    let diff = p.loopgate(["diff", "1", "save-1", "--json"]).run();
    diff.success();
    let files = diff.stdout_json()["files"].clone();
    let paths: Vec<&str> = files
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(paths, ["a.txt", "dir/two.txt"], "{files}");
    assert_eq!(files[1]["status"], "A");
    p.loopgate(["rollback", "save-1"])
        .run()
        .success()
        .stdout_contains("save-2");
    assert_eq!(p.read("dir/two.txt"), "2\n");
    assert_eq!(p.read("a.txt"), "two\n");
}

#[test]
fn diff_compares_checkpoints_and_the_working_tree() {
    let p = repo();
    p.setup("S", "\"t\"");
    p.write("a.txt", "changed at one\n");
    p.stop("S", "one").blocked();
    p.write("fresh.txt", "now\n");
    let out = p.loopgate(["diff", "0"]).run();
    out.success()
        .stdout_contains("checkpoint 0 → working tree")
        .stdout_contains("+changed at one")
        .stdout_contains("fresh.txt");
    let stat = p.loopgate(["diff", "0", "1", "--stat"]).run();
    stat.success().stdout_contains("a.txt");
    assert!(!stat.stdout.contains("+changed"), "no patch with --stat\n{stat}");
    let json = p.loopgate(["diff", "1", "--json"]).run();
    json.success();
    let report = json.stdout_json();
    assert_eq!(report["to"], "working tree");
    assert!(report["patch"].as_str().is_some_and(|t| t.contains("+now")), "{report}");
}

/// A rollback refuses while a verify command runs (the Stop hook releases the project lock meanwhile).
#[test]
fn rollback_refuses_while_a_verify_runs() {
    // The verify's marker is read from the project: the run stands in the project's own tree.
    let p = repo().in_project_tree();
    p.setup(
        "S",
        "\"t\" --verify 'touch verify-started.log; sleep 3; false' --no-baseline",
    );
    std::thread::scope(|scope| {
        let stop = scope.spawn(|| p.stop("S", PROMISE));
        assert!(
            crate::project::eventually(std::time::Duration::from_secs(20), || p.exists("verify-started.log")),
            "the verify never started"
        );
        let out = p.loopgate(["rollback", "0"]).run();
        out.code(5);
        let line = out.stderr_line();
        assert!(
            line.contains("a verify command is running") && line.contains("sleep 3"),
            "{line}"
        );
        stop.join().expect("stop").blocked();
    });
    p.loopgate(["rollback", "0"]).run().success();
}

#[test]
fn bad_names_and_no_checkpoints_are_clear_errors() {
    let plain = Project::new();
    plain
        .setup("S", "\"t\"")
        .stdout_contains("Checkpoints: off, this project is not a git repository");
    let out = plain.loopgate(["checkpoints"]).run();
    out.code(3);
    assert!(out.stderr_line().contains("is not in a git repository"), "{out}");

    let p = repo();
    p.setup("S", "\"t\"");
    p.stop("S", "one").blocked();
    let out = p.loopgate(["rollback", "7"]).run();
    out.code(2);
    assert!(
        out.stderr_line().contains("has no checkpoint `7` (it has 0, 1)"),
        "{out}"
    );
    let out = p.loopgate(["diff", "latest"]).run();
    out.code(2);
    assert!(out.stderr_line().contains("`latest` is not a checkpoint"), "{out}");
    let out = p.loopgate(["checkpoints", "--loop", "lg-nope"]).run();
    out.code(3);
    assert!(out.stderr_line().contains("loop `lg-nope` has no checkpoints"), "{out}");

    let off = repo();
    off.setup("S", "\"t\" --no-checkpoints")
        .stdout_contains("Checkpoints: off (`--no-checkpoints`)");
    off.stop("S", "one").blocked();
    assert!(refs(&off).is_empty());
    off.loopgate(["checkpoints"]).run().code(3);
}

#[test]
fn keep_checkpoints_all_and_none() {
    // `all` leaves a `keep-all` marker beside the checkpoints, so later loops never prune them.
    for (keep, expected) in [("all", vec!["0", "1", "2", "keep-all"]), ("none", vec!["save-1"])] {
        let p = repo();
        p.setup("S", &format!("\"t\" --keep-checkpoints {keep}"));
        p.write("x.txt", "x\n");
        p.stop("S", "one").blocked();
        p.write("y.txt", "y\n");
        p.stop("S", "two").blocked();
        if keep == "none" {
            p.loopgate(["rollback", "1"]).run().success();
        }
        p.loopgate(["cancel"]).run().success();
        assert_eq!(refs(&p), expected, "--keep-checkpoints {keep}");
    }
}

/// Issue 23: checkpoints are kept for the loops a person is likely to come back to. Every checkpoint of the last
/// three loops stays; when a fourth ends, the oldest is pruned to its start, last and best — unless it was run
/// with `--keep-checkpoints all`.
#[test]
fn the_last_three_loops_keep_every_checkpoint_and_older_ones_are_pruned() {
    let p = repo();
    let loop_refs = |id: &str| -> Vec<String> {
        let out = p
            .sh(&format!(
                "git for-each-ref --format='%(refname:lstrip=3)' refs/loopgate/{id}/"
            ))
            .run();
        out.success();
        out.stdout.lines().map(str::to_string).collect()
    };
    p.setup("S", "\"long\" --verify 'grep -q fixed a.txt'");
    let first = p.loop_id();
    for i in 0..3 {
        p.write(&format!("n{i}.txt"), "x\n");
        p.stop("S", "working").blocked();
    }
    p.write("a.txt", "fixed\n");
    p.stop("S", PROMISE).allowed();
    assert_eq!(loop_refs(&first), ["0", "1", "2", "3", "4"], "the latest loop is whole");
    let mut later = Vec::new();
    for (n, keep) in ["all", "best", "best", "best"].iter().enumerate() {
        // Loop ids carry their start time to the second: keep them apart.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        p.setup("S", &format!("\"later {n}\" --keep-checkpoints {keep}"));
        later.push(p.loop_id());
        p.write(&format!("l{n}.txt"), "x\n");
        p.stop("S", "working").blocked();
        p.loopgate(["cancel"]).run().success();
        let expected: &[&str] = if n < 2 { &["0", "1", "2", "3", "4"] } else { &["0", "4"] };
        assert_eq!(loop_refs(&first), expected, "after later loop {n}");
    }
    // The `all` loop is out of the window too, and whole.
    assert_eq!(loop_refs(&later[0]), ["0", "1", "keep-all"]);
    assert_eq!(loop_refs(&later[3]), ["0", "1"], "the newest whole");
}
