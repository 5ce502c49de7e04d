//! loopgate's start hooks (issue 29, item 2, for the runners with no private report of their own): small files
//! the room installs, which the oracle's runs load through the environment alone — `PYTHONPATH` for Python's
//! `sitecustomize` (`ecosystem/python/sitecustomize.py`: unittest, Django's `manage.py test`), `NODE_OPTIONS=--require`
//! for node (`ecosystem/js/report.cjs`: mocha), `RUBYOPT=-r` for Ruby (`ecosystem/ruby/report.rb`: minitest and RSpec,
//! whose events are also where their tests are named: [`add_named`]), `PHP_INI_SCAN_DIR` for PHP
//! (`ecosystem/php/prepend.php`, an `auto_prepend_file` that has every PHPUnit process write its own JUnit report to
//! `report/`: `php_report`) — so the sealed command and the project's files stay as the user wrote them. Each hook
//! records the runner's own per-test events (not its printed lines) to [`PLACE`] in the room,
//! one JSON line per event, found from where the hook itself stands (no variable names it), and — in the
//! runner's own process, before any test file is loaded — takes itself out of the variable that loaded it
//! (`NODE_OPTIONS`, `PYTHONPATH`; Go's and cargo's shims out of the test binary's `GOFLAGS` and
//! `CARGO_TARGET_<triple>_RUNNER`), so the code under test sees the user's values and the processes it starts
//! load no hook. Ruby's hook stays in `RUBYOPT` (a `rake test` runs its tests in a child `ruby`), PHP's in
//! `PHP_INI_SCAN_DIR`. For `go test` the
//! hook is the program `GOFLAGS=-exec=…` runs each test binary through (`ecosystem/go/go-exec.sh`): it records runs,
//! not tests — a binary whose `M.Run` did not finish (its memory profile, written only then, is missing) is a
//! run cut short, whatever it printed. The verdict then
//! reads the events beside the output (see `report`), where the baseline showed they name every test the output
//! did — or alone, where the output names none (unittest's `-q`, a runner behind `make`): a failure they hold in a
//! run that exited 0 is then no pass.
//!
//! What stays forgeable: code under test runs in the runner's own process, so it can find the path (the hook's
//! own place in `NODE_OPTIONS` or `sys.path` before it takes itself out, `/proc/self/fd`, the room's directory) or the runner's objects and write plausible events;
//! that takes knowing loopgate's hook, which printing a runner's report does not. A Go test binary's code can
//! still print `--- PASS` lines for tests that did not run and then let `M.Run` finish: its exit status is then
//! the real one, but the names are read from its output. A run that turns the hook off (`python -I` or `-E`,
//! `node` started with an empty `NODE_OPTIONS`, a `GOFLAGS` of its own with `-exec`) writes no events, and its
//! loop's verdict reads the output alone, as `status` says.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// Where the hooks write their events, in the room; each hook finds it from where it stands (`hook/<kind>/FILE`,
/// two directories below the room), so no variable names it.
pub(crate) const PLACE: &str = "report/events.jsonl";

include!(concat!(env!("OUT_DIR"), "/ecosystem/room/hook.rs"));

/// One ecosystem's start hook, in its folder (`src/ecosystem/<name>/hook.rs`, beside the hook's own script):
/// the files it writes into the room and the variables that load it. Registered by one line of [`HOOKS`].
trait StartHook: Sync {
    /// Writes its files into the room at `room`.
    fn install(&self, room: &Path) -> io::Result<()>;

    /// Points a run's variables at its files in the room at `room`, after what the run's own variables hold.
    /// A hook loaded by no variable of its own (cargo's, named by `cargo_hook`) leaves them as they are.
    fn set(&self, _room: &Path, _vars: &mut BTreeMap<String, OsString>) {}
}

/// Every start hook, one line per ecosystem that has one, in the order their variables are set.
const HOOKS: &[&dyn StartHook] = &[
    &python::Hook,
    &js::Hook,
    &ruby::Hook,
    &php::Hook,
    &go::Hook,
    &rust::Hook,
];

/// Writes the hooks into the room at `room` (again before every run: what a run finds there is loopgate's).
pub(crate) fn install(room: &Path) -> io::Result<()> {
    HOOKS.iter().try_for_each(|hook| hook.install(room))
}

/// Points a run's variables at the hooks of the room at `room`, after what the run's own variables hold (each
/// hook's `set` says where it goes in its variable).
pub(crate) fn set(room: &Path, vars: &mut BTreeMap<String, OsString>) {
    for hook in HOOKS {
        hook.set(room, vars);
    }
}

/// Writes a hook's file `text` at `place` in the room at `room`, its directory private; a program (`executable`)
/// only its owner may run. A file already holding `text` is left as it is: its modification time then stays the
/// baseline's, so what a runtime cached of it at the baseline (Python's bytecode of `sitecustomize.py`, in the
/// room's bytecode cache under the promise's overlay) is still valid and no process of the run writes it again —
/// a step of the run (`oracle::steps`) that starts Python would otherwise write the hook's bytecode, which the
/// runner then reads.
fn write(room: &Path, place: &str, text: &str, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let file = room.join(place);
    super::private_dir(file.parent().unwrap_or(room))?;
    if std::fs::read(&file).is_ok_and(|held| held == text.as_bytes()) {
        return Ok(());
    }
    std::fs::write(&file, text)?;
    if executable {
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Appends `word` to the variable `name` of `vars`, after a space where it already holds something (the
/// variables that are split at spaces: `NODE_OPTIONS`, `RUBYOPT`, `GOFLAGS`).
fn push_word(vars: &mut BTreeMap<String, OsString>, name: &str, word: impl AsRef<std::ffi::OsStr>) {
    let mut value = vars.get(name).cloned().unwrap_or_default();
    if !value.is_empty() {
        value.push(" ");
    }
    value.push(word);
    vars.insert(name.to_string(), value);
}

/// Adds to `results` (read from a run's output) the tests the events at `events` name, for the runners whose output
/// names only failures (`runner::Report::HookNamed`: minitest, RSpec), where the verify command runs one of them
/// (`runners`, the closure's): elsewhere events can only confirm the output's passes, so code under test that
/// writes events of its own names no test. Events cut short or missing add nothing: the run then has no names
/// beyond its output's, and the verdict's check of the events (`Recorded::report_problem`) says why.
pub(crate) fn add_named(events: &Path, runners: &[crate::runner::Runner], results: &mut crate::readout::TestResults) {
    if !runners
        .iter()
        .any(|r| r.row().report == crate::runner::Report::HookNamed)
    {
        return;
    }
    if let Ok(report) = super::report::Report::read_events(events) {
        report.add_named(results);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hooks_come_after_the_runs_own_variables() {
        let mut vars = BTreeMap::from([
            ("PYTHONPATH".to_string(), OsString::from("/src")),
            ("NODE_OPTIONS".to_string(), OsString::from("--max-old-space-size=4096")),
            ("GOFLAGS".to_string(), OsString::from("-count=1")),
            ("RUBYOPT".to_string(), OsString::from("-W0")),
        ]);
        set(Path::new("/rooms/my room"), &mut vars);
        assert_eq!(vars["PYTHONPATH"], "/rooms/my room/hook/python:/src");
        assert_eq!(
            vars["NODE_OPTIONS"],
            "--max-old-space-size=4096 --require \"/rooms/my room/hook/node/loopgate-report.cjs\""
        );
        assert!(
            !vars.keys().any(|name| name.starts_with("LOOPGATE")),
            "no variable of loopgate's own: the hooks find the events from where they stand"
        );
        assert_eq!(vars["GOFLAGS"], "-count=1", "GOFLAGS cannot hold a path with a space");
        assert_eq!(vars["RUBYOPT"], "-W0", "nor can RUBYOPT");
        vars.insert("RUBYOPT".to_string(), OsString::new());
        assert_eq!(
            vars["PHP_INI_SCAN_DIR"], ":/rooms/my room/hook/php",
            "PHP's own directory stays first"
        );
        set(Path::new("/rooms/r"), &mut vars);
        assert_eq!(vars["GOFLAGS"], "-count=1 -exec=/rooms/r/hook/go/loopgate-go-exec");
        let before = vars["GOFLAGS"].clone();
        set(Path::new("/rooms/s"), &mut vars);
        assert_eq!(vars["GOFLAGS"], before, "a `-exec` already there stays");
        assert_eq!(
            vars["RUBYOPT"],
            "-r/rooms/r/hook/ruby/loopgate_report.rb -r/rooms/s/hook/ruby/loopgate_report.rb"
        );
        let mut theirs = BTreeMap::from([("PHP_INI_SCAN_DIR".to_string(), OsString::from("/etc/php/extra"))]);
        set(Path::new("/rooms/r"), &mut theirs);
        assert_eq!(theirs["PHP_INI_SCAN_DIR"], "/etc/php/extra:/rooms/r/hook/php");
    }

    /// minitest's and RSpec's events name the tests their output does not, where the command runs one of them;
    /// unittest's (whose output names them) and events cut short add none.
    #[test]
    fn the_events_name_the_tests_of_runners_whose_output_names_only_failures() {
        use crate::readout::{TestOutcome, TestResults};
        let dir = tempfile::tempdir().expect("tempdir");
        let events = dir.path().join("events.jsonl");
        let line = |runner: &str, event: &str, name: &str| {
            format!("{{\"runner\":\"{runner}\",\"pid\":7,\"event\":\"{event}\",\"name\":\"{name}\"}}\n")
        };
        let text = [
            line("minitest", "begin", ""),
            line("minitest", "pass", "CalcTest#test_add"),
            line("minitest", "fail", "CalcTest#test_div"),
            line("minitest", "skip", "CalcTest#test_later"),
            line("minitest", "end", ""),
            line("unittest", "begin", ""),
            line("unittest", "pass", "test_x (t.T.test_x)"),
            line("unittest", "end", ""),
        ]
        .concat();
        std::fs::write(&events, &text).expect("write");
        let mut results = TestResults::default();
        results.record("CalcTest#test_div", TestOutcome::Failed);
        add_named(&events, &[crate::runner::Runner::Pytest], &mut results);
        assert_eq!(
            results.tests.len(),
            1,
            "a verify command that runs no such runner takes no names from events"
        );
        add_named(&events, &[crate::runner::Runner::Minitest], &mut results);
        assert_eq!(results.get("CalcTest#test_add"), Some(TestOutcome::Passed));
        assert_eq!(results.get("CalcTest#test_div"), Some(TestOutcome::Failed));
        assert_eq!(results.get("CalcTest#test_later"), None, "a skipped test did not run");
        assert_eq!(
            results.get("test_x (t.T.test_x)"),
            None,
            "unittest's output names its tests"
        );
        std::fs::write(&events, &text[..text.find("\"end\"").unwrap_or(0)]).expect("write");
        let mut cut = TestResults::default();
        add_named(&events, &[crate::runner::Runner::Minitest], &mut cut);
        assert!(cut.is_empty(), "a run cut short names nothing: {cut:?}");
    }

    #[test]
    fn the_php_hook_is_left_out_where_an_ini_string_cannot_name_it() {
        assert_eq!(
            php::ini("/rooms/my room/hook/php/p.php").as_deref(),
            Some("auto_prepend_file = \"/rooms/my room/hook/php/p.php\"\n")
        );
        assert_eq!(php::ini("/rooms/a\"b/p.php"), None);
        assert_eq!(php::ini("/rooms/$HOME/p.php"), None);
    }
}
