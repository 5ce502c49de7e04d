//! Issue 44: best-of-N as a CI matrix, round trip. `--emit-matrix` seals and baselines once and prints the jobs;
//! each of three scripted candidates runs in its own clone with `--oracle` (the shipped oracle, not one of its
//! own); `--collect` ranks their results and picks the honest one — not the one that rewrote the verify script,
//! not the one that did nothing.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::support::{Output, Project, TASK, s};

const GIT: &str = "git -c user.name=t -c user.email=t@t";

/// `sh -c SCRIPT` in `dir`, which must succeed.
#[track_caller]
fn sh(p: &Project, dir: &Path, script: &str) {
    let out = p
        .program("sh")
        .args(["-c", script])
        .current_dir(dir)
        .output()
        .expect("sh");
    assert!(out.status.success(), "{script}: {out:?}");
}

/// A project committed on `main`, the sandbox's directory beside it, and the oracle `--emit-matrix` wrote there
/// for `n` candidates (`sh check.sh`, at most two iterations each); the command's output.
fn emitted(n: &str) -> (Project, PathBuf, PathBuf, Output) {
    let p = Project::new();
    let base = p.dir.parent().expect("the sandbox").to_path_buf();
    let committed = format!("git init -q -b main && {GIT} add -A && {GIT} commit -qm base");
    sh(&p, &p.dir, &committed);
    let oracle = base.join("oracle");
    let out = p.loopgate(&[
        "run",
        "--emit-matrix",
        s(&oracle),
        "--candidates",
        n,
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "2",
        TASK,
        "--",
        "true",
    ]);
    (p, base, oracle, out)
}

#[test]
fn emit_run_each_candidate_in_its_own_clone_and_collect_picks_the_honest_one() {
    let (p, base, oracle, out) = emitted("3");
    out.code(0);
    let matrix: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:#?}"));
    let jobs: Vec<&str> = matrix["include"]
        .as_array()
        .expect("include")
        .iter()
        .filter_map(|j| j["candidate"].as_str())
        .collect();
    assert_eq!(jobs, ["c1", "c2", "c3"], "{matrix}");
    assert!(
        !p.exists(".claude/pua-loop.local.md"),
        "the user's checkout holds no loop"
    );

    // c1 rewrites the oracle's script, c2 does the work, c3 does nothing.
    // Each job's `loopgate run` ends as a loop does: c2 complete (0), the others at the iteration limit (6).
    let agents = [
        ("c1", "printf '#!/bin/sh\\nexit 0\\n' > check.sh", 6),
        ("c2", "echo fixed > src.txt", 0),
        ("c3", "true", 6),
    ];
    let results = base.join("results");
    for (name, body, exit) in agents {
        let clone = base.join(name);
        sh(&p, &base, &format!("git clone -q {} {name}", s(&p.dir)));
        let agent = base.join(format!("{name}.sh"));
        crate::common::write_file(&agent, format!("#!/bin/sh\n{body}\n"));
        let mut cmd = p.command(&["run", "--oracle", s(&oracle), "--quiet", "--", s(&agent)]);
        cmd.current_dir(&clone);
        let ran = p.start_with(cmd).wait(Duration::from_secs(60));
        ran.code(exit);
        let into = results.join(name);
        std::fs::create_dir_all(&into).expect("results dir");
        std::fs::copy(clone.join(".claude/pua-loop-history.jsonl"), into.join("history.jsonl"))
            .unwrap_or_else(|e| panic!("{name}'s history: {e}: {ran:#?}"));
        sh(
            &p,
            &clone,
            &format!(
                "git add -A -- . ':!.claude' && git diff --cached > {}",
                s(&into.join("change.patch"))
            ),
        );
    }
    let out = p.loopgate(&["run", "--collect", s(&results)]);
    out.code(0);
    let collected: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:#?}"));
    assert_eq!(collected["winner"], "c2", "{collected:#}");
    let c1 = &collected["candidates"][0];
    assert_eq!(c1["moved_the_oracle"], true, "{collected:#}");
    assert_eq!(collected["candidates"][2]["passed"], false, "{collected:#}");
}

#[test]
fn a_job_on_another_commit_is_refused_and_collect_without_results_is_bad_input() {
    let (p, base, oracle, out) = emitted("2");
    out.code(0);
    sh(
        &p,
        &p.dir,
        &format!("echo more > more.txt && {GIT} add -A && {GIT} commit -qm later"),
    );
    p.loopgate(&["run", "--oracle", s(&oracle), "--", "true"])
        .code(2)
        .stderr_has("was sealed on commit");
    assert!(!p.exists(".claude/pua-loop.local.md"));
    // A checkout that already runs a loop keeps it.
    let clone = base.join("c1");
    sh(&p, &base, &format!("git clone -q {} c1", s(&p.dir)));
    sh(&p, &clone, "git checkout -q HEAD~1");
    let mut started = p.command(&["setup", "--verify", "true", "--no-baseline", "mine"]);
    started.current_dir(&clone);
    p.start_with(started).wait(Duration::from_secs(60)).code(0);
    let mut adopt = p.command(&["run", "--oracle", s(&oracle), "--", "true"]);
    adopt.current_dir(&clone);
    p.start_with(adopt)
        .wait(Duration::from_secs(60))
        .code(2)
        .stderr_has("already has one");
    std::fs::create_dir_all(base.join("empty")).expect("dir");
    p.loopgate(&["run", "--collect", s(&base.join("empty"))])
        .code(2)
        .stderr_has("holds no candidate's result");
}

/// `--emit-matrix` stopped by SIGINT while the baseline runs: the baseline is stopped, no oracle is left that a
/// job could take for a whole one, and loopgate's home holds no seal or room of the scratch clone.
#[test]
fn emit_matrix_interrupted_during_the_baseline_leaves_no_oracle_and_nothing_in_the_store() {
    let p = Project::new();
    let base = p.dir.parent().expect("the sandbox").to_path_buf();
    sh(
        &p,
        &p.dir,
        &format!("git init -q -b main && {GIT} add -A && {GIT} commit -qm base"),
    );
    let pid_file = p.signal_path("baseline.pid");
    let verify = format!("echo $$ > '{}'; exec sleep 300", s(&pid_file));
    let oracle = base.join("oracle");
    let run = p.start(&[
        "run",
        "--emit-matrix",
        s(&oracle),
        "--candidates",
        "2",
        "--verify",
        &verify,
        TASK,
        "--",
        "true",
    ]);
    let baseline = p.wait_pid_at(&pid_file);
    run.signal(libc::SIGINT);
    let out = run.wait(Duration::from_secs(60));
    out.interrupted();
    assert!(
        crate::common::eventually(Duration::from_secs(30), || !crate::common::alive(baseline)),
        "the baseline was left running: {out:#?}"
    );
    assert!(
        !oracle.join("matrix.json").exists(),
        "a half-made oracle looks whole: {out:#?}"
    );
    for dir in ["seals", "rooms"] {
        let left: Vec<_> = std::fs::read_dir(p.store().join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "loopgate's {dir} keep {left:?}: {out:#?}");
    }
}
