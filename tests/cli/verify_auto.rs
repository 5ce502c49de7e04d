//! Issue 13: `--verify auto` picks the project's test command at setup, says why, seals it like a typed one,
//! and refuses clearly when nothing fits.

use crate::project::{Project, assert_has};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// The detected command is printed with its reason, sealed, recorded, and run by the oracle at a promise.
#[test]
fn auto_picks_the_makefile_test_target_and_seals_it() {
    let p = Project::new()
        .file(
            "Makefile",
            "test:\n\t@grep -q fixed src.txt || { echo MAKE-TEST-RAN; exit 1; }\n",
        )
        .file("src.txt", "broken\n");
    let out = p.setup("S", "\"make src.txt say fixed\" --verify auto");
    out.stdout_contains("[loopgate] --verify auto chose `make test`: Makefile has a `test` target.")
        .stdout_contains("Verify command (sealed; editing files cannot change it): `make test`");
    assert_eq!(p.state_field("verify_command"), "make test");
    assert_eq!(p.seal()["fields"]["verify_command"], "make test");
    let init = p.last_record("init");
    assert_eq!(init["verify_command"], "make test", "{init}");
    assert_eq!(init["verify_detected"], "Makefile has a `test` target", "{init}");
    // The oracle runs it: a failure comes back with its output, a pass completes the loop.
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "MAKE-TEST-RAN");
    p.write("src.txt", "fixed\n");
    p.stop("S", PROMISE).allowed();
    assert_eq!(p.statuses(), ["init", "promise_rejected", "complete"]);
}

/// The Chinese briefing says it in Chinese; other candidates are named.
#[test]
fn auto_names_the_other_candidates_in_the_loop_s_language() {
    let p = Project::new()
        .file("go.mod", "module example.com/x\n")
        .file("justfile", "check:\n    go vet ./...\n");
    let out = p.setup("S", "\"修复\" --verify auto --lang zh");
    out.stdout_contains("--verify auto 选择了 `go test ./...`:存在 go.mod。")
        .stdout_contains("还找到了:`just check`。");
}

/// Nothing to detect: refused with one line that says what was looked for and which flag fixes it; no loop.
#[test]
fn auto_refuses_when_nothing_fits_and_starts_no_loop() {
    let p = Project::new().file("notes.txt", "hello\n");
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .stdin("\"do it\" --verify auto")
        .run();
    out.code(2);
    let line = out.stderr_line();
    assert!(
        line.contains("`--verify auto` found no test command in") && line.contains("--verify 'CMD'"),
        "{line}"
    );
    assert!(!p.exists(".claude/pua-loop.local.md"), "no state file");
    assert!(p.seal_paths().is_empty(), "no seal");
}

/// Any other value of `--verify` is a command, even one that starts with the word.
#[test]
fn only_the_bare_word_auto_is_detection() {
    let p = Project::new();
    // No baseline: `auto` is no program here, and a verify command that cannot start is refused at the baseline.
    p.setup("S", "\"t\" --no-baseline --verify 'auto --fix'");
    assert_eq!(p.state_field("verify_command"), "auto --fix");
}
