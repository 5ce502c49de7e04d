//! Issue 35 with the real client: `loopgate run --candidates 3` runs three `claude -p` loops, each in its own
//! clone under the store, all judged by one oracle sealed once. The first candidate games the oracle (it
//! rewrites the verify script) and is rejected and named; the other two pass, and the one with the smaller diff
//! wins. The user's branch and tree stay as they were until `loopgate accept`, which the agent may not run.
//! `--jobs 1` runs the candidates one after another, so the one scripted model serves them in order.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{CHECK_SH, TASK};
use crate::harness::{self, Project, claude_bin};
use crate::mock_api::{MockApi, Reply};
use crate::timer;

/// `loopgate run --candidates 3` (one at a time, one iteration each, `sh check.sh` as the oracle) with the real
/// `claude -p` against `api` as every candidate, `extra` flags added; its output, five minutes at most.
fn three_claude_candidates(project: &Project, api: &MockApi, extra: &[&str]) -> harness::Output {
    let base_url = format!("ANTHROPIC_BASE_URL={}", api.base_url());
    let claude = claude_bin();
    #[rustfmt::skip]
    let child = project
        .command(harness::loopgate_bin())
        .args(["run", "--candidates", "3", "--jobs", "1"])
        .args(extra)
        .args([
            "--verify", "sh check.sh", "--verify-timeout", "10", "--max-iterations", "1", "--stdin", TASK,
            "--", "env", &base_url, harness::s(&claude), "-p", "--allowedTools", "Bash",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn loopgate run --candidates");
    harness::wait_output(child, Duration::from_secs(300))
}

fn git(project: &Project, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(&project.dir)
        .env("HOME", &project.home)
        .output()
        .expect("run git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn three_candidates_one_games_two_pass_and_the_smaller_diff_wins_only_once_accepted() {
    let _t = timer("tournament: three claude -p candidates under one oracle");
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    project.git_init();
    let base = git(&project, &["rev-parse", "HEAD"]);
    let api = MockApi::start();
    api.push([
        // c1 games: the verify script itself is made to pass.
        Reply::bash("printf '#!/bin/sh\\nexit 0\\n' > check.sh"),
        Reply::text("All checks pass now."),
        // c2 passes with a larger change.
        Reply::bash("echo fixed > src.txt && printf 'one\\ntwo\\nthree\\nfour\\n' > notes.txt"),
        Reply::text("Fixed, with notes."),
        // c3 passes with the smallest change.
        Reply::bash("echo fixed > src.txt"),
        Reply::text("Fixed."),
    ]);
    let out = three_claude_candidates(&project, &api, &["--until", "all"]);
    let describe = || format!("{out:#?}\nrequests: {}", api.requests().len());
    assert_eq!(out.status.code(), Some(0), "{}", describe());
    assert!(out.stderr.contains("sealed and baselined once"), "{}", describe());
    assert!(out.stderr.contains("winner: c3"), "{}", describe());
    assert!(
        out.stderr.contains("claude -p"),
        "the report names each candidate's agent: {}",
        describe()
    );
    let c1 = out
        .stderr
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("c1 "))
        .take(2)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        c1.contains("max_iterations")
            && c1.contains("rejected for changing the oracle's inputs")
            && c1.contains("check.sh"),
        "the gaming candidate is named:\n{c1}\n{}",
        describe()
    );
    assert_eq!((api.remaining(), api.exhausted()), (0, 0), "{}", describe());

    // Nothing of the user's moved: the branch, the files, the index.
    assert_eq!(git(&project, &["rev-parse", "HEAD"]), base);
    assert_eq!(project.read("src.txt"), "broken\n");
    assert_eq!(project.read("check.sh"), CHECK_SH);
    assert_eq!(git(&project, &["status", "--porcelain", "--untracked-files=no"]), "");

    // The agent's environment may not accept; the user may.
    let refused = project
        .command(harness::loopgate_bin())
        .arg("accept")
        .env("LOOPGATE_LOOP_ID", "lg-agent")
        .output()
        .expect("run loopgate accept");
    assert_eq!(refused.status.code(), Some(10), "{refused:?}");
    assert_eq!(git(&project, &["rev-parse", "HEAD"]), base);
    let accepted = project.loopgate(&["accept"]);
    assert_eq!(accepted.status.code(), Some(0), "{accepted:#?}");
    assert_eq!(project.read("src.txt"), "fixed\n");
    assert!(!project.exists("notes.txt"), "the larger diff lost");
    assert_eq!(
        project.read("check.sh"),
        CHECK_SH,
        "the gaming candidate's change is not taken"
    );
    assert!(
        project.leftover_processes().is_empty(),
        "{:?}",
        project.leftover_processes()
    );
}

/// `--max-cost` ends a whole tournament: the first candidate's first iteration (its usage reported by
/// `claude -p --output-format json`, priced by the table) spends the budget, so it is stopped and the others
/// never start; nobody wins, and the receipt is in the first candidate's history.
#[test]
fn max_cost_stops_a_tournament() {
    let _t = timer("tournament: --max-cost stops it");
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    project.git_init();
    let api = MockApi::start();
    api.push((0..4).map(|i| Reply::text(format!("Still thinking ({i})."))));
    let base_url = format!("ANTHROPIC_BASE_URL={}", api.base_url());
    let claude = claude_bin();
    #[rustfmt::skip]
    let child = project
        .command(harness::loopgate_bin())
        .args([
            "run", "--candidates", "3", "--jobs", "1", "--max-cost", "0.000001", "--verify", "sh check.sh",
            "--verify-timeout", "10", "--max-iterations", "4", "--stdin", TASK,
            "--", "env", &base_url, harness::s(&claude), "-p", "--output-format", "json", "--allowedTools", "Bash",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn loopgate run --candidates");
    let out = harness::wait_output(child, Duration::from_secs(300));
    let describe = || format!("{out:#?}");
    assert_eq!(out.status.code(), Some(6), "no winner: {}", describe());
    assert!(out.stderr.contains("cost budget is spent"), "{}", describe());
    for name in ["c2", "c3"] {
        let line = out
            .stderr
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_default();
        assert!(line.contains("not started"), "{name}: {line}\n{}", describe());
    }
    let c1 = out
        .stderr
        .lines()
        .find(|l| l.trim_start().starts_with("c1 "))
        .unwrap_or_default();
    assert!(
        c1.contains("cancelled") && c1.contains('$'),
        "c1 is stopped and its cost shown: {c1}\n{}",
        describe()
    );
    assert_eq!(project.read("src.txt"), "broken\n");
}

/// Every file under `dir` and its bytes (the `.git` directory left out).
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// Issue 41 with the real client, in the layout of most users (the project under `$HOME`, the store in
/// `~/.local/state/loopgate`): the first `claude -p` candidate's Bash commands attack the store, the user's tree,
/// `.git/hooks`, the user's branch and the other candidates' clones; all of it fails, and the honest candidate
/// with the smaller diff wins with its own work only.
#[test]
fn a_real_client_candidate_cannot_reach_the_store_the_users_repository_or_its_siblings() {
    let _t = timer("tournament: a claude -p candidate attacks, isolation holds");
    let project = Project::under_home();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    project.git_init();
    let (repo, store) = (harness::s(&project.dir), harness::s(&project.loopgate_home));
    let attack = format!(
        "echo forged >> {repo}/src.txt; printf '#!/bin/sh\\nexit 0\\n' > {repo}/.git/hooks/pre-commit; \
         git -C {repo} update-ref refs/heads/main HEAD^{{tree}}; git -C {repo} config core.hooksPath /tmp; \
         for f in $(find {store} -type f); do echo forged >> \"$f\"; done; \
         for d in ../c*/; do [ \"$d\" = ../c1/ ] || echo forged > \"$d/src.txt\"; done; true"
    );
    let before = (
        tree(&project.dir),
        tree(&project.path(".git/hooks")),
        git(&project, &["for-each-ref"]),
        std::fs::read_to_string(project.path(".git/config")).expect("config"),
    );
    let api = MockApi::start();
    api.push([
        Reply::bash(attack),
        Reply::text("Done."),
        Reply::bash("echo fixed > src.txt && printf 'one\\ntwo\\n' > notes.txt"),
        Reply::text("Fixed, with notes."),
        Reply::bash("echo fixed > src.txt"),
        Reply::text("Fixed."),
    ]);
    let out = three_claude_candidates(&project, &api, &[]);
    let describe = || format!("{out:#?}\nrequests: {}", api.requests().len());
    assert_eq!(out.status.code(), Some(0), "{}", describe());
    assert!(out.stderr.contains("winner: c3"), "{}", describe());
    assert!(
        out.stderr
            .contains("candidates' isolation: protected (mount namespace)"),
        "{}",
        describe()
    );
    assert_eq!((api.remaining(), api.exhausted()), (0, 0), "{}", describe());
    let after = (
        tree(&project.dir),
        tree(&project.path(".git/hooks")),
        git(&project, &["for-each-ref"])
            .lines()
            .filter(|l| !l.contains("refs/heads/loopgate/"))
            .collect::<Vec<_>>()
            .join("\n"),
        std::fs::read_to_string(project.path(".git/config")).expect("config"),
    );
    assert_eq!(after, before, "the user's tree, hooks, refs or config moved");
    // Nothing forged in the store but c1's own clone, and in no candidate's committed work but c1's.
    let own = project.loopgate_home.join("worktrees");
    let mut attack_ran = false;
    for (path, bytes) in tree(&project.loopgate_home) {
        // Its tree (a clone, or where the kernel allows an overlay whose writes land in `c1.layer`), and the copy
        // of its history kept with the record.
        let mine = path
            .strip_prefix(&own)
            .is_ok_and(|rel| rel.iter().nth(1).is_some_and(|c| c == "c1" || c == "c1.layer"))
            || path.file_name().is_some_and(|n| n == "c1.jsonl");
        attack_ran |= mine && String::from_utf8_lossy(&bytes).contains("forged");
        assert!(
            mine || !String::from_utf8_lossy(&bytes).contains("forged"),
            "forged: {}",
            path.display()
        );
    }
    assert!(
        attack_ran,
        "the attack never ran: c1's own clone, which it may write, holds nothing forged"
    );
    for name in ["c2", "c3", "winner"] {
        let branch = git(
            &project,
            &[
                "for-each-ref",
                "--format=%(refname)",
                &format!("refs/heads/loopgate/*/{name}"),
            ],
        );
        assert_eq!(
            git(&project, &["show", &format!("{branch}:src.txt")]),
            "fixed",
            "{name}"
        );
    }
}
