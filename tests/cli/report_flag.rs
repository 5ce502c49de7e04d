//! `--report junit:PATH` (issue 40, item 3): a runner loopgate has no reader for is judged test by test from the
//! JUnit XML the verify command writes at PATH. Here the "runner" is a small shell script writing the XML (the
//! gaming suite runs a real one, `gaming/report_moves.rs`); what is checked is the flag itself: its bad input,
//! the baseline and the verdict read from the report, a stale report that cannot stand in for the run's, the
//! seal holding it against a state-file edit, and `status`.

use crate::project::{HISTORY, Project, STATE, assert_has};

const PROMISE: &str = "Done.\n\n<promise>LOOP_DONE</promise>";

/// A runner that prints nothing loopgate reads and writes `out/report.xml`: `adds` fails until `calc.txt` says
/// `fixed`, `muls` passes, `later` is skipped; `drop-muls` leaves `muls` out. Without `calc.txt` it writes no
/// report and exits 0.
fn junit_runner() -> Project {
    Project::new().file("calc.txt", "broken\n").file(
        "check.sh",
        "[ -f calc.txt ] || exit 0\n\
         mkdir -p out\n\
         if grep -q fixed calc.txt; then f=''; else f='<failure message=\"1 != 3\">boom</failure>'; fi\n\
         m='<testcase classname=\"calc\" name=\"muls\"/>'\n\
         [ -e drop-muls ] && m=''\n\
         printf '<?xml version=\"1.0\"?>\\n<testsuites>\\n<testsuite name=\"calc\">\\n<testcase classname=\"calc\" name=\"adds\">%s</testcase>\\n%s\\n<testcase classname=\"calc\" name=\"later\"><skipped/></testcase>\\n</testsuite>\\n</testsuites>\\n' \"$f\" \"$m\" > out/report.xml\n\
         echo 'ran the calc checks'\n\
         [ -z \"$f\" ]\n",
    )
}

const SETUP: &str = "\"fix adds\" --verify 'sh check.sh' --report junit:out/report.xml";

#[test]
fn bad_report_values_are_one_line_naming_the_flag() {
    let cases: &[(&str, &str)] = &[
        ("task --verify true --report junit:", "no path after `junit:`"),
        ("task --verify true --report 'junit:  '", "no path after `junit:`"),
        (
            "task --verify true --report tap:out.tap",
            "`tap` is not a kind of report",
        ),
        (
            "task --verify true --report out.xml",
            "give the kind of report and its path",
        ),
        (
            "task --verify true --report junit:/elsewhere/report.xml",
            "outside the project",
        ),
        ("task --verify true --report junit:../report.xml", "leaves the project"),
        ("task --report junit:out/report.xml", "needs a `--verify` command"),
        ("task --verify true --report", "--report"),
    ];
    for (text, problem) in cases {
        let p = Project::new();
        let out = p
            .loopgate(["setup", "--args-stdin", "--session-id", "S"])
            .stdin(*text)
            .run();
        out.code(2).stdout_empty();
        let first = out.stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains("--report") && first.contains(problem),
            "{text:?}: the first stderr line should name `--report` and {problem:?}\n{out}"
        );
        assert_eq!(out.stderr.lines().count(), 1, "{text:?}: one line\n{out}");
        assert!(!p.exists(STATE) && !p.exists(HISTORY), "{text:?}: a loop was created");
    }
}

#[test]
fn an_absolute_path_inside_the_project_is_taken_relative() {
    let p = junit_runner();
    let inside = p.root().join("out/report.xml");
    p.setup(
        "S",
        &format!(
            "\"fix adds\" --verify 'sh check.sh' --report junit:{}",
            inside.display()
        ),
    );
    assert_eq!(p.state_field("report"), "junit:out/report.xml");
}

#[test]
fn the_baseline_and_the_verdict_read_the_report_by_name() {
    let p = junit_runner();
    let out = p.setup("S", SETUP);
    assert_has(&out.stdout, "2 test(s) ran, 1 failed: `calc::adds`");
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["tests"], 2, "a skipped test did not run: {init}");
    assert_eq!(init["baseline"]["failing"], serde_json::json!(["calc::adds"]), "{init}");

    let status = p.loopgate(["status"]).run();
    status.success();
    assert_has(&status.stdout, "report:      junit:out/report.xml");
    assert_eq!(
        p.loopgate(["status", "--json"]).run().stdout_json()["report"],
        "junit:out/report.xml"
    );

    // A passing test left out of the report (the output says nothing either way) is missing by name.
    p.write("calc.txt", "fixed\n");
    p.write("drop-muls", "");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "REJECTED: the verify passed, but not every test of the baseline ran and passed",
    );
    assert_has(&block.reason, "`calc::muls` (passed at baseline; did not run now)");

    std::fs::remove_file(p.path("drop-muls")).expect("remove drop-muls");
    p.stop("S", PROMISE).allowed();
    assert_eq!(p.statuses().last().map(String::as_str), Some("complete"));
}

/// In every place a run can stand (the room's tree mounted at the project's path, the copy at its own path, the
/// project itself) the report is read where this run wrote it, and one left there before cannot stand in.
#[test]
fn a_report_the_run_did_not_write_cannot_stand_in() {
    for tree in ["", "copy", "0"] {
        let p = junit_runner();
        p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
            .env("LOOPGATE_ROOM_TREE", tree)
            .stdin(SETUP)
            .run()
            .success();
        stale_report_is_rejected(&p);
        p.write("calc.txt", "fixed\n");
        p.stop("S", PROMISE).allowed();
        assert_eq!(
            p.statuses().last().map(String::as_str),
            Some("complete"),
            "tree {tree:?}"
        );
    }
}

fn stale_report_is_rejected(p: &Project) {
    // The agent makes the run exit 0 before the runner writes anything, and leaves a passing report in place.
    std::fs::remove_file(p.path("calc.txt")).expect("remove calc.txt");
    p.write(
        "out/report.xml",
        "<testsuites><testsuite><testcase classname=\"calc\" name=\"adds\"/><testcase classname=\"calc\" name=\"muls\"/></testsuite></testsuites>\n",
    );
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "wrote no JUnit report at `out/report.xml` (`--report`)");
    // Where the run stands in the project itself, clearing the stale report removed the planted one already.
    let _ = std::fs::remove_file(p.path("out/report.xml"));
}

#[test]
fn a_report_holding_a_failure_is_no_pass_though_the_run_exited_0() {
    let p = Project::new().file(
        "check.sh",
        "mkdir -p out\n\
         printf '<testsuites><testsuite><testcase classname=\"c\" name=\"a\"/><testcase classname=\"c\" name=\"new\"><failure/></testcase></testsuite></testsuites>\\n' > out/report.xml\n\
         [ -f fixed ] || exit 1\n",
    );
    p.setup("S", "\"fix\" --verify 'sh check.sh' --report junit:out/report.xml");
    p.write("fixed", "");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "holds 1 failed test(s)");
}

#[test]
fn a_state_file_edit_does_not_move_the_report() {
    let p = junit_runner();
    p.setup("S", SETUP);
    p.edit_state(|text| text.replace("report: junit:out/report.xml", "report: junit:elsewhere.xml"));
    p.write("calc.txt", "fixed\n");
    p.write("elsewhere.xml", "<testsuites></testsuites>\n");
    // The sealed report is read (the edited one names no test, which would be no pass), and the user is told.
    let message = p.stop("S", PROMISE).allowed();
    assert_has(&message, "TAMPERING DETECTED: the state file's `report` changed");
    assert_eq!(p.statuses().last().map(String::as_str), Some("complete"));
}

/// A path the verify command does not write (a typo) is said at setup, not found out at the first promise.
#[test]
fn a_report_the_baseline_did_not_write_is_said_at_setup() {
    let p = junit_runner();
    let out = p.setup("S", "\"fix adds\" --verify 'sh check.sh' --report junit:out/reprot.xml");
    assert_has(
        &out.stdout,
        "The baseline run wrote no readable JUnit report at `out/reprot.xml` (`--report`)",
    );
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "T", "--force"])
        .stdin(SETUP)
        .run();
    out.success();
    assert!(!out.stdout.contains("no readable JUnit report"), "{out}");
}
