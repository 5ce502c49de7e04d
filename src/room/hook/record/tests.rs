use std::collections::BTreeMap;
use std::io::Write;

use super::*;
use crate::room::report::{Problem, Report};

/// A hook's connection: its key, what it sends, and its process id as its lines say.
struct Hook {
    stream: UnixStream,
    key: String,
    pid: u32,
    seq: u64,
}

impl Hook {
    fn connect(room: &Path, runner: bool) -> Hook {
        let mut stream = UnixStream::connect(room.join(SOCKET)).expect("connect");
        let key = "0123456789abcdef0123456789abcdef".to_string();
        writeln!(stream, "{{\"hello\":\"mocha\",\"key\":\"{key}\",\"runner\":{runner}}}").expect("hello");
        Hook {
            stream,
            key,
            pid: std::process::id(),
            seq: 0,
        }
    }

    /// Sends `event` for `name`, signed as the hook signs it.
    fn send(&mut self, event: &str, name: &str) {
        let json = format!(
            "{{\"runner\":\"mocha\",\"pid\":{},\"seq\":{},\"event\":\"{event}\",\"name\":\"{name}\"}}",
            self.pid, self.seq
        );
        writeln!(self.stream, "{} {json}", signature(&self.key, self.seq, &json)).expect("send");
        self.seq += 1;
    }

    fn raw(&mut self, line: &str) {
        writeln!(self.stream, "{line}").expect("send");
    }
}

/// A room with its record being taken, and the environment of a run that loads its hooks.
fn room() -> (tempfile::TempDir, Vec<(OsString, OsString)>) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("report")).expect("report");
    listen(dir.path()).expect("listen");
    let env = vec![(
        OsString::from("NODE_OPTIONS"),
        OsString::from(format!(
            "--require {}/hook/node/loopgate-report.cjs",
            dir.path().display()
        )),
    )];
    (dir, env)
}

/// What the verdict reads of the record once the run is over.
fn read(dir: &Path, env: &[(OsString, OsString)], hooks: Vec<Hook>) -> Result<Report, Problem> {
    drop(hooks);
    finish(Some(env));
    assert!(!dir.join(SOCKET).exists(), "the socket is removed once the run is over");
    Report::read_events(&dir.join(crate::room::hook::PLACE))
}

#[test]
fn a_hooks_signed_run_is_read_as_sent() {
    let (dir, env) = room();
    let mut hook = Hook::connect(dir.path(), true);
    hook.send("begin", "");
    hook.send("pass", "calc > adds");
    hook.send("fail", "calc > divides");
    hook.send("end", "");
    let report = read(dir.path(), &env, vec![hook]).expect("a whole record");
    assert_eq!(
        report.tests.keys().collect::<Vec<_>>(),
        ["calc > adds", "calc > divides"]
    );
    assert_eq!(report.tests["calc > divides"], crate::readout::TestOutcome::Failed);
}

#[test]
fn a_line_no_hook_signed_voids_the_record() {
    let (dir, env) = room();
    let mut hook = Hook::connect(dir.path(), true);
    hook.send("begin", "");
    hook.raw(r#"{"runner":"mocha","pid":7,"seq":1,"event":"pass","name":"calc > divides"}"#);
    hook.send("end", "");
    assert!(matches!(read(dir.path(), &env, vec![hook]), Err(Problem::Forged(_))));
}

#[test]
fn a_line_signed_with_another_key_or_out_of_its_count_voids_the_record() {
    let (dir, env) = room();
    let mut hook = Hook::connect(dir.path(), true);
    hook.send("begin", "");
    hook.seq += 1; // a line kept from being sent
    hook.send("end", "");
    assert!(matches!(read(dir.path(), &env, vec![hook]), Err(Problem::Forged(_))));

    let (dir, env) = room();
    let mut hook = Hook::connect(dir.path(), true);
    hook.key = "f".repeat(32);
    hook.send("begin", "");
    hook.send("end", "");
    assert!(matches!(read(dir.path(), &env, vec![hook]), Err(Problem::Forged(_))));
}

/// Code under test that connects for itself, in a process whose hook already did, sends a whole passing run of
/// its own: the second connection from the process voids the record, whatever it holds.
#[test]
fn a_second_connection_from_one_process_voids_the_record() {
    let (dir, env) = room();
    let mut hook = Hook::connect(dir.path(), false);
    let mut forger = Hook::connect(dir.path(), false);
    forger.send("begin", "");
    forger.send("pass", "calc > divides");
    forger.send("end", "");
    hook.send("begin", "");
    hook.send("fail", "calc > divides");
    assert!(matches!(
        read(dir.path(), &env, vec![hook, forger]),
        Err(Problem::Forged(_))
    ));
}

/// A runner's process ended before its run began (code under test that exits as it loads): its runner wrote no
/// report (another process's whole run beside it changes nothing: `hook_record_moves.rs`).
#[test]
fn a_runners_process_with_no_run_wrote_no_report() {
    let (dir, env) = room();
    let hook = Hook::connect(dir.path(), true);
    assert!(matches!(read(dir.path(), &env, vec![hook]), Err(Problem::Missing)));
    let (dir, env) = room();
    let other = Hook::connect(dir.path(), false);
    assert!(
        matches!(read(dir.path(), &env, vec![other]), Err(Problem::Missing)),
        "a process that runs no runner owes no run"
    );
}

/// The events file still holds the shims' lines (Go's, cargo's, Ruby's hook's); a line there for a runner whose
/// hook reports over the socket is none of its own.
#[test]
fn the_files_lines_count_only_for_the_runners_that_write_it() {
    let (dir, env) = room();
    let events = dir.path().join(crate::room::hook::PLACE);
    std::fs::write(
        &events,
        "{\"runner\":\"mocha\",\"pid\":7,\"event\":\"begin\",\"name\":\"\"}\n\
         {\"runner\":\"mocha\",\"pid\":7,\"event\":\"pass\",\"name\":\"calc > divides\"}\n\
         {\"runner\":\"mocha\",\"pid\":7,\"event\":\"end\",\"name\":\"\"}\n",
    )
    .expect("events");
    assert!(matches!(read(dir.path(), &env, Vec::new()), Err(Problem::Missing)));
    std::fs::write(
        &events,
        "{\"runner\":\"minitest\",\"pid\":7,\"event\":\"begin\",\"name\":\"\"}\n\
         {\"runner\":\"minitest\",\"pid\":7,\"event\":\"pass\",\"name\":\"CalcTest#test_add\"}\n\
         {\"runner\":\"minitest\",\"pid\":7,\"event\":\"end\",\"name\":\"\"}\n",
    )
    .expect("events");
    let report = Report::read_events(&events).expect("minitest's lines");
    assert!(report.tests.contains_key("CalcTest#test_add"));
}

/// A run whose environment loads another room's hooks leaves this room's record alone.
#[test]
fn a_run_ends_only_the_record_of_the_room_it_loads() {
    let (dir, env) = room();
    let (other, _) = room();
    finish(Some(&env));
    assert!(!dir.path().join(SOCKET).exists());
    assert!(
        other.path().join(SOCKET).exists(),
        "another room's record is still being taken"
    );
    let mut hook = Hook::connect(other.path(), true);
    hook.send("begin", "");
    hook.send("end", "");
    drop(hook);
    finish(Some(&[(
        OsString::from("PATH"),
        other.path().join("hook/bin").into_os_string(),
    )]));
    assert!(other.path().join(PLACE).exists());
}

/// Runs `python3 ARGS` in `project` with the room at `room`'s hooks loaded, as an oracle's run would.
fn python_in_room(room: &Path, project: &Path, args: &[&str]) {
    let mut vars = BTreeMap::new();
    crate::room::hook::set(room, &mut vars);
    let status = std::process::Command::new("python3")
        .args(args)
        .current_dir(project)
        .env("PYTHONPATH", &vars["PYTHONPATH"])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("this test needs python3 on PATH");
    assert!(status.code().is_some(), "python3 {args:?} ran");
}

/// A project whose `tests/test_calc.py` holds a unittest class with the test methods `methods`.
fn unittest_project(methods: &str) -> tempfile::TempDir {
    let project = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(project.path().join("tests")).expect("tests");
    std::fs::write(project.path().join("tests/__init__.py"), "").expect("init");
    std::fs::write(
        project.path().join("tests/test_calc.py"),
        format!("import unittest\n\n\nclass CalcTest(unittest.TestCase):\n{methods}"),
    )
    .expect("test");
    project
}

/// Python's hook as the room installs it, in real interpreters: a unittest run's record names its tests, each
/// line signed as loopgate checks; a process that runs no tests owes no run; one that says as it loads that it
/// runs them (`-m unittest`) and ends before its run began wrote no report.
#[test]
fn pythons_hook_sends_a_signed_run_and_a_declared_runner_owes_one() {
    let project = unittest_project(
        "    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n\n    def test_sub(self):\n        self.assertEqual(1 - 1, 1)\n",
    );
    let run = |args: &[&str]| {
        let (dir, env) = room();
        crate::room::hook::install(dir.path()).expect("install");
        python_in_room(dir.path(), project.path(), args);
        let read = read(dir.path(), &env, Vec::new());
        (dir, read)
    };

    let (dir, report) = run(&["-m", "unittest", "discover", "-s", "tests", "-t", "."]);
    let report = report.expect("a whole record");
    let events = dir.path().join(crate::room::hook::PLACE);
    let (ran, idle) = crate::room::report::hooked_commands(&events);
    assert!(
        ran.iter()
            .any(|argv| argv.ends_with("-m unittest discover -s tests -t .")),
        "the process that ran the run, by its command line: {ran:?}"
    );
    assert!(idle.is_empty(), "{idle:?}");
    assert_eq!(
        report.tests.get("tests.test_calc.CalcTest.test_add"),
        Some(&crate::readout::TestOutcome::Passed)
    );
    assert_eq!(
        report.tests.get("tests.test_calc.CalcTest.test_sub"),
        Some(&crate::readout::TestOutcome::Failed)
    );

    let (dir, report) = run(&["-c", "import json"]);
    assert!(matches!(report, Err(Problem::Missing)), "no run, none owed: {report:?}");
    let (ran, idle) = crate::room::report::hooked_commands(&dir.path().join(crate::room::hook::PLACE));
    assert!(
        ran.is_empty() && idle.iter().any(|argv| argv.ends_with("-c import json")),
        "{idle:?}"
    );

    std::fs::write(project.path().join("tests/test_calc.py"), "import os\n\nos._exit(0)\n").expect("test");
    let (dir, report) = run(&["-m", "unittest", "discover", "-s", "tests", "-t", "."]);
    assert!(matches!(report, Err(Problem::Missing)), "{report:?}");
    let record = std::fs::read_to_string(dir.path().join(PLACE)).expect("the record");
    assert!(record.contains(UNRUN), "the runner's process owes its run: {record}");
}

/// Where no socket could be made (Claude Code's sandbox refuses Unix sockets to the agent's own `loopgate
/// verify`), Python's hook writes the events file, and the verdict reads it whole; where a socket was made, the
/// same lines in the file are none of the hook's.
#[test]
fn without_a_socket_the_hook_writes_the_file_and_it_is_read_whole() {
    let project = unittest_project("    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n");
    let room = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(room.path().join("report")).expect("report");
    crate::room::hook::install(room.path()).expect("install");
    std::fs::write(room.path().join(OFF), "").expect("off");
    python_in_room(
        room.path(),
        project.path(),
        &["-m", "unittest", "discover", "-s", "tests", "-t", "."],
    );
    let events = room.path().join(crate::room::hook::PLACE);
    let report = Report::read_events(&events).expect("the file, read whole");
    assert!(
        report.tests.contains_key("tests.test_calc.CalcTest.test_add"),
        "{report:?}"
    );
    std::fs::remove_file(room.path().join(OFF)).expect("on");
    assert!(matches!(Report::read_events(&events), Err(Problem::Missing)));
}
