//! Held-out tests (issue 30) through the real binary: setup moves them out (or copies an outside directory),
//! the promise runs them in a private copy and names only the failing ones, and every end puts them back —
//! cancel, completion, a new setup, and the next command after a crash. The runner's lines are printed by a
//! small shell script (libtest's format); the e2e scenario uses pytest and the real client.

use std::time::Duration;

use crate::project::{Project, assert_has};

const PROMISE: &str = "Done.\n\n<promise>LOOP_DONE</promise>";
const HELD: &str = "tests/acceptance/big.sh";
/// What only the held-out test prints when it fails: must never reach the model.
const SECRET: &str = "SECRET_ASSERTION_91c2";

/// `impl` says how `add` is written: `wrong`, `special` (fitted to the visible test's inputs) or `general`.
/// The visible test passes with `special` and `general`; the held-out one only with `general`. With `quit` the
/// code under test ends the suite (exit 0) after the visible test.
fn project() -> Project {
    Project::new()
        .file("impl", "wrong\n")
        .file(
            "check.sh",
            "pass=0; fail=0\n\
             ok() { echo \"test $1 ... ok\"; pass=$((pass+1)); }\n\
             ko() { echo \"test $1 ... FAILED\"; fail=$((fail+1)); }\n\
             if grep -qE 'special|general' impl; then ok visible; else ko visible; fi\n\
             if grep -q quit impl; then echo \"test result: ok. $pass passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\"; exit 0; fi\n\
             for f in tests/acceptance/*.sh; do if [ -e \"$f\" ]; then . \"./$f\"; fi; done\n\
             if [ $fail = 0 ]; then echo \"test result: ok. $pass passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\"; exit 0; fi\n\
             echo \"test result: FAILED. $pass passed; $fail failed; 0 ignored; 0 measured; 0 filtered out\"; exit 101\n",
        )
        .file(
            HELD,
            format!("if grep -q general impl; then ok big; else ko big; echo 'assertion failed: {SECRET}'; fi\n"),
        )
}

const SETUP: &str = "\"fix add\" --verify 'sh check.sh' --holdout 'tests/acceptance/**'";

#[test]
fn setup_moves_the_held_out_files_out_status_shows_them_and_cancel_puts_them_back() {
    let p = project();
    let held = p.read(HELD);
    let out = p.setup("S", SETUP);
    assert_has(
        &out.stdout,
        "Held-out tests: the user keeps 1 acceptance test file(s) from you",
    );
    assert!(!p.exists(HELD), "moved out of the project");
    let status = p.loopgate(["status"]).run();
    assert_has(
        &status.stdout,
        "held out:    1 file(s) kept from the agent (tests/acceptance/**)",
    );
    assert_has(&status.stdout, "at setup: 1 held-out test(s) ran, 1 failed");
    let json: serde_json::Value = serde_json::from_str(&p.loopgate(["status", "--json"]).run().stdout).expect("json");
    assert_eq!(json["holdout"]["files"], 1, "{json}");
    assert_eq!(json["holdout"]["moved"], serde_json::json!([HELD]), "{json}");
    let cancel = p.loopgate(["cancel"]).run();
    cancel.success();
    assert_has(&cancel.stdout, "1 held-out file(s) put back in the project");
    assert_eq!(p.read(HELD), held, "back, unchanged");
}

#[test]
fn a_special_cased_fix_is_rejected_by_the_held_out_test_name_alone_and_a_general_fix_completes() {
    let p = project();
    let held = p.read(HELD);
    p.setup("S", SETUP);
    p.write("impl", "special\n");
    let block = p.stop_cmd("S", PROMISE).deadline(WALK_DEADLINE).run().blocked();
    assert_has(
        &block.reason,
        "PROMISE REJECTED: the verify passed, but held-out tests failed",
    );
    assert_has(&block.reason, "PROMISE REJECTED by the held-out tests");
    assert_has(&block.reason, "1 held-out test(s) failed or did not run.");
    assert!(
        !block.reason.contains("big"),
        "a held-out test's name reached the model: {}",
        block.reason
    );
    assert!(
        !block.reason.contains(SECRET),
        "the held-out output reached the model: {}",
        block.reason
    );
    assert!(
        !p.history_bytes().windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
        "nor the history"
    );
    let status = p.loopgate(["status"]).run();
    assert_has(&status.stdout, "held-out run: iteration 1: fail (big)");
    p.write("impl", "general\n");
    let done = p.stop("S", PROMISE);
    done.success();
    assert_has(&done.stdout, "verified complete");
    assert_has(&done.stdout, "1 held-out file(s) put back in the project");
    assert_eq!(p.statuses().last().map(String::as_str), Some("complete"));
    assert_eq!(p.read(HELD), held, "back after the completion");
}

#[test]
fn a_held_out_test_that_does_not_run_at_the_promise_is_a_failure() {
    let p = project();
    p.setup("S", SETUP);
    // The code under test ends the suite before the held-out test reports, yet exits 0.
    p.write("impl", "general quit\n");
    let block = p.stop_cmd("S", PROMISE).deadline(WALK_DEADLINE).run().blocked();
    assert_has(&block.reason, "1 held-out test(s) failed or did not run.");
}

#[test]
fn a_glob_that_matches_nothing_is_a_one_line_usage_error_and_nothing_moves() {
    let p = project();
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .stdin("\"fix add\" --verify 'sh check.sh' --holdout 'acceptance/**'")
        .run();
    out.code(2);
    assert_has(&out.stderr, "`--holdout acceptance/**`: matched no file");
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(p.exists(HELD) && p.state_text().is_none());
}

#[test]
fn an_outside_directory_is_copied_not_moved_and_runs_at_the_promise() {
    let p = Project::new();
    let q = project();
    // The outside directory mirrors the project's layout.
    let outside = p.outside("acceptance");
    std::fs::create_dir_all(outside.join("tests/acceptance")).expect("dir");
    std::fs::write(outside.join(HELD), q.read(HELD)).expect("write");
    std::fs::remove_file(q.path(HELD)).expect("rm");
    q.setup(
        "S",
        &format!("\"fix add\" --verify 'sh check.sh' --holdout '{}'", outside.display()),
    );
    assert!(outside.join(HELD).exists(), "never moved");
    q.write("impl", "special\n");
    let block = q.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "1 held-out test(s) failed or did not run.");
    assert!(!block.reason.contains(SECRET), "{}", block.reason);
}

#[test]
fn a_held_out_file_is_not_sealed_as_a_visible_test_even_when_a_seal_glob_matches_it() {
    let p = project();
    p.setup("S", &format!("{SETUP} --seal 'tests/**'"));
    let seal = p.seal();
    assert!(!seal["files"].to_string().contains("acceptance"), "{seal}");
    assert!(!seal["test_files"].to_string().contains("acceptance"), "{seal}");
}

#[test]
fn a_new_setup_puts_the_replaced_loops_files_back_first() {
    let p = project();
    p.setup("S", SETUP);
    p.setup("S", "\"another task\" --verify 'sh check.sh'");
    assert!(p.exists(HELD), "the replaced loop's held-out file is back");
}

#[test]
fn after_a_crash_that_lost_the_seal_the_next_command_puts_them_back() {
    let p = project();
    let held = p.read(HELD);
    p.setup("S", SETUP);
    for path in p.seal_paths() {
        std::fs::remove_file(path).expect("lose the seal");
    }
    p.loopgate(["status"]).run().success();
    assert_eq!(p.read(HELD), held);
}

#[test]
fn a_path_recreated_during_the_loop_is_kept_aside_and_the_user_is_told() {
    let p = project();
    let held = p.read(HELD);
    p.setup("S", SETUP);
    p.write(HELD, "the agent's own\n");
    let cancel = p.loopgate(["cancel"]).run();
    assert_has(&cancel.stdout, "was recreated during the loop");
    assert_eq!(p.read(HELD), held);
    assert_eq!(p.read(&format!("{HELD}.loopgate-recreated")), "the agent's own\n");
}

#[test]
fn a_loop_ended_by_its_iteration_limit_puts_them_back() {
    let p = project();
    let held = p.read(HELD);
    p.setup("S", &format!("{SETUP} --max-iterations 1"));
    p.stop("S", "still working").success();
    assert_eq!(p.statuses().last().map(String::as_str), Some("max_iterations"));
    assert_eq!(p.read(HELD), held);
}

#[test]
fn the_guard_keeps_the_agent_from_reading_the_held_out_store_but_not_the_project() {
    let p = project();
    p.setup("S", SETUP);
    let store = p.loopgate_home().join("holdout");
    let read = p.tool_call(
        "S",
        "Read",
        serde_json::json!({"file_path": store.join("x").display().to_string()}),
    );
    assert_has(&read.stdout, "held-out test material");
    let bash = p.tool_call(
        "S",
        "Bash",
        serde_json::json!({"command": format!("ls -R {}", store.display())}),
    );
    assert_has(&bash.stdout, "held-out test material");
    let ordinary = p.tool_call(
        "S",
        "Read",
        serde_json::json!({"file_path": p.path("check.sh").display().to_string()}),
    );
    assert!(!ordinary.stdout.contains("deny"), "{}", ordinary.stdout);
}

#[test]
fn a_verify_command_that_does_not_collect_the_held_out_tests_is_pointed_out_at_setup() {
    let p = project().file("acceptance-notes/big.txt", "not a test the command runs\n");
    let out = p.setup(
        "S",
        "\"fix add\" --verify 'sh check.sh' --holdout 'acceptance-notes/**'",
    );
    assert_has(
        &out.stdout,
        "the held-out run at setup reported no held-out test by name",
    );
}

#[test]
fn a_held_out_file_in_git_history_is_pointed_out_and_git_may_not_show_it() {
    let p = project();
    p.sh("git init -q && git add -A && git -c user.name=u -c user.email=u@example.com commit -qm init")
        .run()
        .success();
    let out = p.setup("S", SETUP);
    assert_has(&out.stderr, "git history holds 1 of the held-out files");
    assert!(
        !out.stdout.contains(HELD),
        "the model is not told which: {}",
        out.stdout
    );
    assert_has(
        &p.loopgate(["status"]).run().stdout,
        &format!("git history holds {HELD}"),
    );
    let show = p.tool_call(
        "S",
        "Bash",
        serde_json::json!({"command": format!("git show HEAD:{HELD}")}),
    );
    assert_has(&show.stdout, "is a held-out test");
    let diff = p.tool_call("S", "Bash", serde_json::json!({"command": "git diff"}));
    assert_has(&diff.stdout, "could print a held-out test from history");
    let narrowed = p.tool_call("S", "Bash", serde_json::json!({"command": "git diff -- impl"}));
    assert!(!narrowed.stdout.contains("deny"), "{}", narrowed.stdout);
}

/// What only the held-out test of [`walked_project`] holds, joined at run time: neither this test's binary nor
/// the project's check script contains it whole, so a walk that finds it found a held-out test's text. It ends
/// in this process's id: another copy of the suite running at once (another work tree's), or one that left its
/// sandbox behind, holds a text of its own, which this walk does not look for.
fn walked_secret() -> String {
    ["HELDOUT", "TEXT", &std::process::id().to_string()].join("_")
}

/// [`project`] whose check script, once the code under test says `walk` (never at setup, whose traced baseline
/// run would record the walk's every read), also walks everything a process can read — `$HOME`, loopgate's store,
/// the temporary directories, the project — and prints `LEAK: FILE` for each file that holds the held-out text.
fn walked_project() -> Project {
    let p = project();
    let walk = format!(
        "if grep -q walk impl; then S=HELDOUT_\"TEXT\"_{}; {WALK}; fi\n{}",
        std::process::id(),
        p.read("check.sh")
    );
    p.write("check.sh", walk);
    p.write(
        HELD,
        format!(
            "if grep -q general impl; then ok big; else ko big; echo 'assertion failed: {}'; fi\n",
            walked_secret()
        ),
    );
    p
}

/// The walk, in `sh`: `$S` is the text to look for, `$MARK` (when set) a file older than anything the test made
/// in the shared `/tmp`, which is walked only for files newer than it (a machine's `/tmp` can hold gigabytes).
/// The other tests' sandboxes (`$OTHERS`, a pattern), which the suite fills with new files while this test runs
/// and which nothing of this loop's can name, are left out: grepping them made a walk outlast its deadline on a
/// busy machine.
const WALK: &str = "for d in \"$HOME\" \"$LOOPGATE_HOME\" ${TMPDIR:+\"$TMPDIR\"} \"$PWD\"; do \
     find \"$d\" -type f -size -4M -print0 2>/dev/null | xargs -0r grep -lsF -- \"$S\" 2>/dev/null | sed 's/^/LEAK: /'; done; \
     if [ -n \"$MARK\" ]; then find /tmp -xdev \\( -path \"$OTHERS\" ! -path \"$OWN\" \\) -prune -o \
     -type f -newer \"$MARK\" -size -4M -print0 2>/dev/null | \
     xargs -0r grep -lsF -- \"$S\" 2>/dev/null | sed 's/^/LEAK: /'; fi";

/// How long one walk may take: it reads every new file in `/tmp`, which on a busy machine is minutes, not seconds.
const WALK_DEADLINE: Duration = Duration::from_secs(300);

#[test]
fn no_process_the_agent_runs_and_no_visible_verify_run_reads_a_held_out_test_before_or_after_the_oracle() {
    let p = walked_project();
    let mark = p.tmp_dir().join("walk-mark");
    std::fs::write(&mark, "").expect("mark");
    p.setup("S", SETUP);
    // Held out: the text is in loopgate's store, nowhere else.
    let store = p.loopgate_home().join("holdout");
    let found = p
        .sh(&format!("grep -rlsF -- '{}' '{}'", walked_secret(), store.display()))
        .run();
    assert!(
        !found.stdout.trim().is_empty(),
        "the walk looks for text that is there: {found}"
    );
    let base = p.loopgate_home().parent().expect("the sandbox").to_path_buf();
    let others = base.with_file_name("loopgate-cli-*");
    let walk = |cmd: crate::project::Cmd<'_>| {
        cmd.env("MARK", &mark)
            .env("OWN", &base)
            .env("OTHERS", &others)
            .deadline(WALK_DEADLINE)
            .run()
    };
    let confined = |when: &str| {
        let out = walk(p.loopgate(["confine", "--", "sh", "-c", &format!("S='{}'; {WALK}", walked_secret())]));
        out.success();
        assert!(
            !out.stdout.contains("LEAK"),
            "{when}, a confined script read held-out text:\n{}",
            out.stdout
        );
    };
    confined("before the oracle ran");
    // The agent's own `loopgate verify`: the visible run of the verify command walks too.
    p.write("impl", "special walk\n");
    let check = walk(p.loopgate(["verify"]));
    assert!(check.stdout.contains("test visible"), "the verify ran: {check}");
    assert!(
        !check.stdout.contains("LEAK"),
        "the verify's own run read held-out text:\n{}",
        check.stdout
    );
    // A promise: the visible run passes, the held-out run fails (and its own walk finds the test beside it).
    let block = p.stop_cmd("S", PROMISE).deadline(WALK_DEADLINE).run().blocked();
    assert_has(&block.reason, "1 held-out test(s) failed or did not run.");
    assert!(
        !block.reason.contains("LEAK") && !block.reason.contains(&walked_secret()),
        "{}",
        block.reason
    );
    confined("after the oracle ran");
    assert!(
        !store.join("scratch").exists() && std::fs::read_dir(&store).is_ok_and(|mut d| d.next().is_some()),
        "the held-out run's scratch is gone after it"
    );
}
