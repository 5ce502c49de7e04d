//! The baseline run at setup and the per-test verdict (issue 20), through the real binary: what the briefing and
//! the history say, the opt-outs, a baseline cut short inside the slash command, and `loopgate allow --tests`.
//! The runners' lines are printed by small shell scripts here (the gaming suite and the e2e scenarios use the
//! real runners).

use crate::project::{Project, assert_has};

const PROMISE: &str = "Done.\n\n<promise>LOOP_DONE</promise>";

/// A verify command printing libtest's lines: `b` fails until `fixed` exists; `c` runs unless `drop-c` exists.
fn cargo_like() -> Project {
    Project::new().file(
        "check.sh",
        "echo 'test a ... ok'\n\
         if [ -e drop-c ]; then :; else echo 'test c ... ok'; fi\n\
         if [ -e fixed ]; then echo 'test b ... ok'; echo 'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'; exit 0; fi\n\
         echo 'test b ... FAILED'\n\
         echo 'test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out'\n\
         exit 101\n",
    )
}

#[test]
fn setup_runs_the_baseline_and_tells_the_agent_and_the_history() {
    let p = cargo_like();
    let out = p.setup("S", "\"fix b\" --verify 'sh check.sh'");
    assert_has(
        &out.stdout,
        "Baseline (the verify command, run once before your first turn): exit 101",
    );
    assert_has(&out.stdout, "3 test(s) ran, 1 failed: `b`");
    assert_has(
        &out.stdout,
        "A pass counts only if every test that ran here runs again and passes",
    );
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["exit"], 101, "{init}");
    assert_eq!(init["baseline"]["tests"], 3, "{init}");
    assert_eq!(init["baseline"]["failing"], serde_json::json!(["b"]), "{init}");
    assert!(
        p.exists(&format!(".claude/loopgate/verify-{}-0.log", p.loop_id())),
        "the baseline's log"
    );
}

#[test]
fn a_pass_that_drops_a_baseline_test_is_rejected_by_name_until_the_user_allows_it() {
    let p = cargo_like();
    p.setup("S", "\"fix b\" --verify 'sh check.sh'");
    p.write("fixed", "").write("drop-c", "");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "REJECTED: the verify passed, but not every test of the baseline ran and passed",
    );
    assert_has(&block.reason, "- `c` (passed at baseline; did not run now)");
    assert!(!block.reason.contains("`a`"), "a ran and passed: {}", block.reason);
    // The agent cannot; the user can, from a terminal.
    let unknown = p.loopgate(["allow", "--tests", "nope"]).run();
    assert!(
        unknown
            .stderr_line()
            .contains("`nope` is not a test of this loop's baseline"),
        "{unknown}"
    );
    p.loopgate(["allow", "--tests", "c"]).run().success();
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

#[test]
fn a_pass_without_any_result_after_a_baseline_with_results_is_rejected() {
    let p = cargo_like();
    p.setup("S", "\"fix b\" --verify 'sh check.sh'");
    // The code under test ends the run early, printing nothing: exit 0.
    p.write("check.sh", "exit 0\n");
    let block = p.stop("S", PROMISE).blocked();
    // (check.sh is the verify command's own script: the closure seal sees the edit first.)
    assert_has(&block.reason, "check.sh");
    let p = cargo_like();
    p.setup("S", "\"fix b\" --verify 'sh check.sh' --no-closure-seal");
    p.write("check.sh", "exit 0\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "no test results at all");
}

#[test]
fn a_baseline_that_already_passes_is_said_plainly() {
    let p = cargo_like().file("fixed", "");
    let out = p.setup("S", "\"fix b\" --verify 'sh check.sh'");
    assert_has(&out.stdout, "The verify command ALREADY PASSES before any change");
}

#[test]
fn no_baseline_makes_the_first_verify_the_baseline() {
    let p = cargo_like();
    let out = p.setup("S", "\"fix b\" --verify 'sh check.sh' --no-baseline");
    assert_has(&out.stdout, "Baseline: not run (`--no-baseline`)");
    assert!(!p.exists(&format!(".claude/loopgate/verify-{}-0.log", p.loop_id())));
    assert!(p.last_record("init").get("baseline").is_none());
    // The first verify (b failing, c running) is the baseline; a later pass without c falls short.
    p.stop("S", PROMISE).blocked();
    p.write("fixed", "").write("drop-c", "");
    assert_has(
        &p.stop("S", PROMISE).blocked().reason,
        "- `c` (passed at baseline; did not run now)",
    );
}

#[test]
fn no_test_verdict_judges_by_exit_code_and_totals() {
    let p = cargo_like();
    p.setup(
        "S",
        "\"fix b\" --verify 'sh check.sh' --no-test-verdict --no-count-ratchet",
    );
    p.write("fixed", "").write("drop-c", "");
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

/// Inside the slash command the baseline may not outlast what Claude Code waits for: it is cut, said so, and
/// the first verify becomes the baseline (no false rejection for a baseline without results).
#[test]
fn a_baseline_longer_than_the_slash_command_may_wait_is_cut() {
    let p = cargo_like().file("slow.sh", "sleep 30\nsh check.sh\n");
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_SLASH_COMMAND_BUDGET", "1")
        .stdin("\"fix b\" --verify 'sh slow.sh'")
        .run();
    out.success();
    assert!(out.elapsed.as_secs() < 20, "the baseline was cut: {:?}", out.elapsed);
    assert_has(
        &out.stdout,
        "Baseline: not taken — the verify command was still running after 1s",
    );
    assert_has(&out.stdout, "start the loop from a terminal");
    assert_eq!(p.last_record("init")["baseline"]["timed_out"], true);
}

/// An expected-output file under `tests/` rewritten to the buggy value: the oracle's run reads the sealed copy,
/// so the pass fails; the agent's version is back afterwards; the user can accept it with `allow PATH`.
#[test]
fn test_data_stands_as_sealed_during_the_oracles_run_until_the_user_accepts_it() {
    let p = Project::new()
        .file("tests/expected.txt", "good\n")
        .file("out.txt", "bad\n")
        .file(
            "check.sh",
            "if [ \"$(cat out.txt)\" = \"$(cat tests/expected.txt)\" ]; then echo 'test golden ... ok'; echo 'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'; exit 0; fi\n\
             echo 'test golden ... FAILED'; echo 'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out'; exit 1\n",
        );
    p.setup("S", "\"make out.txt right\" --verify 'sh check.sh'");
    p.write("tests/expected.txt", "bad\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "PROMISE REJECTED: the verify command failed");
    assert_eq!(
        p.read("tests/expected.txt"),
        "bad\n",
        "the agent's version is back after the run"
    );
    assert!(!p.exists(".claude/loopgate/stash/0"), "nothing left in the stash");
    p.loopgate(["allow", "tests/expected.txt"]).run().success();
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}
