//! Issue 35 at the command line: `/pua-loop … --candidates N` starts no loop and names the terminal command;
//! `loopgate run --candidates` needs a git repository; `loopgate accept` is the user's and needs a tournament.
//! `loopgate tournament list|show|clean` say what is missing, and `clean` is the user's (issue 41). The tournament
//! itself runs end to end in `tests/run/tournament.rs` (scripted agents) and `tests/e2e/tournament.rs` (real
//! `claude -p`).

use crate::project::{Project, STATE};

#[test]
fn pua_loop_with_candidates_starts_no_loop_and_prints_the_terminal_command() {
    let p = Project::new();
    let out = p.setup(
        "S",
        "fix it's parser --verify 'sh check.sh' --max-iterations 4 --candidates 3\n",
    );
    assert!(!p.exists(STATE), "no loop was started\n{out}");
    assert!(out.stdout.contains("No loop was started"), "{out}");
    assert!(
        out.stdout.contains(
            "loopgate run --candidates 3 --verify 'sh check.sh' --max-iterations 4 'fix it'\\''s parser' -- claude -p"
        ),
        "the command, quoted for a shell:\n{out}"
    );
}

#[test]
fn candidates_need_a_git_repository_and_accept_needs_a_tournament() {
    let p = Project::new();
    p.write("check.sh", "exit 0\n");
    let out = p
        .loopgate([
            "run",
            "--candidates",
            "2",
            "--verify",
            "sh check.sh",
            "task",
            "--",
            "true",
        ])
        .run();
    let line = out.code(2).stderr_line();
    assert!(line.contains("`--candidates` needs a git repository"), "{line}");
    assert!(!p.exists(STATE));
    let out = p.loopgate(["accept"]).run();
    assert!(
        out.code(2).stderr_line().contains("is not in a git repository"),
        "{out}"
    );
}

#[test]
fn accept_refuses_inside_claude_code_and_inside_a_loops_agent() {
    let p = Project::new();
    for (key, value) in [
        ("CLAUDECODE", "1"),
        ("LOOPGATE_LOOP_ID", "lg-1"),
        ("LOOPGATE_CONFINED", "landlock"),
    ] {
        let out = p.loopgate(["accept"]).env(key, value).run();
        let line = out.code(10).stderr_line();
        assert!(line.contains(key), "{line}");
    }
}

#[test]
fn tournament_subcommands_name_what_is_missing_and_clean_is_the_users() {
    let p = Project::new();
    let out = p.loopgate(["tournament", "list"]).run();
    assert!(
        out.code(2).stderr_line().contains("is not in a git repository"),
        "{out}"
    );
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(p.root())
            .env("HOME", p.root())
            .output()
            .expect("git");
        assert!(status.status.success(), "{status:?}");
    };
    git(&["init", "--quiet"]);
    let out = p.loopgate(["tournament", "list"]).run();
    assert!(out.code(0).stdout.contains("no tournament in"), "{out}");
    for args in [["tournament", "show", "t-none"], ["tournament", "clean", "t-none"]] {
        let out = p.loopgate(args).run();
        assert!(out.code(2).stderr_line().contains("no tournament `t-none`"), "{out}");
    }
    let out = p
        .loopgate(["tournament", "clean"])
        .env("LOOPGATE_LOOP_ID", "lg-1")
        .run();
    assert!(out.code(10).stderr_line().contains("LOOPGATE_LOOP_ID"), "{out}");
}
