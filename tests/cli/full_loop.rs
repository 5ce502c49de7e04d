//! One whole loop, driven by hook JSON from the command line exactly as Claude Code would drive it.

use crate::project::{HISTORY, Project, STATE, assert_has};

const TASK: &str = "make it pass";
const VERIFY: &str = r#"test -f done.txt || { echo "check: done.txt is missing"; exit 1; }"#;
const PROMISE: &str = "All done.\n\n<promise>LOOP_DONE</promise>";

/// Setup → a stop without a signal → a promise the oracle rejects → the work → a promise it accepts.
/// Run with `--nocapture` to read the loop as a transcript (paths and loop ids redacted).
#[test]
fn full_loop_transcript() {
    let p = Project::new().echo();
    println!("=== loopgate: one full loop driven by hook JSON ===\n");

    // 1. The slash command starts the loop.
    let text = format!("\"{TASK}\" --verify '{VERIFY}' --max-iterations 5\n");
    let setup = p.setup("S", &text);
    for needle in [TASK, VERIFY, "<promise>LOOP_DONE</promise>"] {
        setup.stdout_contains(needle);
    }
    let loop_id = p.loop_id();

    // 2. The agent stops without claiming anything: sent back with the task, iteration 2 of 5.
    let block = p.stop("S", "I looked around and made a start.").blocked();
    assert!(block.reason.starts_with("[loopgate] iteration 2/5"), "{}", block.reason);
    assert_has(&block.reason, &format!("\n{TASK}\n"));
    assert_has(&block.system_message, "iteration 2/5");

    // 3. The agent promises, but done.txt does not exist: the sealed verify command rejects the claim.
    let block = p.stop("S", PROMISE).blocked();
    let reason = &block.reason;
    assert!(reason.contains("PROMISE REJECTED"), "{reason}");
    assert!(reason.contains("iteration 3/5"), "{reason}");
    assert!(
        reason.contains("check: done.txt is missing"),
        "the verify output tail reaches the model: {reason}"
    );
    assert!(reason.contains("exit 1"), "{reason}");
    let log = log_path_in(reason);
    assert!(log.starts_with(".claude/loopgate/") && log.contains(&loop_id), "{log}");
    assert!(
        p.read(&log).contains("check: done.txt is missing"),
        "the full log is where the reason says"
    );
    assert!(
        reason.contains(&format!("Your task (unchanged):\n{TASK}\n")),
        "the task verbatim: {reason}"
    );
    assert!(reason.contains("<promise>LOOP_DONE</promise>"), "{reason}");
    assert_has(&block.system_message, "promise rejected");

    // 4. The agent does the work and promises again: the oracle passes, the loop ends.
    p.write("done.txt", "");
    let message = p.stop("S", PROMISE).allowed();
    assert!(message.contains("verified complete"), "{message}");
    assert!(message.contains("1 rejected promise"), "{message}");
    assert!(!p.exists(STATE), "state file removed when the loop ends");
    assert!(p.seal_paths().is_empty(), "seal removed when the loop ends");

    // 5. The history tells the story, in order, with the fields the README names (see "Files").
    let history = p.history();
    println!("$ cat .claude/pua-loop-history.jsonl");
    print!("{}", p.redact(&p.read(HISTORY)));
    assert_eq!(p.statuses(), ["init", "continue", "promise_rejected", "complete"]);
    assert!(history.iter().all(|r| r["loop_id"] == loop_id.as_str()));
    let (init, cont, rejected, complete) = (&history[0], &history[1], &history[2], &history[3]);
    assert_eq!(init["iteration"], 1);
    assert_eq!(init["verify_command"], VERIFY);
    assert_eq!(cont["iteration"], 1);
    assert_eq!(rejected["iteration"], 2);
    assert_eq!(rejected["verify_exit"], 1);
    assert_eq!(rejected["timed_out"], false);
    assert_eq!(rejected["rejections"], 1);
    assert!(rejected["duration_ms"].is_u64(), "{rejected}");
    assert!(
        rejected["verify_tail"]
            .as_str()
            .is_some_and(|t| t.contains("check: done.txt is missing")),
        "{rejected}"
    );
    assert!(
        rejected["fingerprint"].as_str().is_some_and(|f| !f.is_empty()),
        "{rejected}"
    );
    assert_eq!(complete["iteration"], 3);
    assert_eq!(complete["promise_rejections"], 1);
}

/// The log path a block reason points at: `… full log: PATH):`.
#[track_caller]
pub fn log_path_in(reason: &str) -> String {
    let start = reason
        .find("full log: ")
        .unwrap_or_else(|| panic!("no log path in the reason: {reason}"))
        + "full log: ".len();
    let len = reason[start..].find(')').expect("log path ends with `)`");
    reason[start..start + len].to_string()
}
