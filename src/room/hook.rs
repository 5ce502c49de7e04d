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

/// The Python hook's directory in the room (first on `PYTHONPATH`) and its one file.
const PYTHON_DIR: &str = "hook/python";
const SITECUSTOMIZE: &str = include_str!("../ecosystem/python/sitecustomize.py");

/// The node hook, in the room.
const NODE_FILE: &str = "hook/node/loopgate-report.cjs";
const NODE: &str = include_str!("../ecosystem/js/report.cjs");

/// The PHP hook, in the room: a directory added to `PHP_INI_SCAN_DIR` holding one ini file, whose
/// `auto_prepend_file` is the prepended script beside it.
const PHP_DIR: &str = "hook/php";
const PHP_INI: &str = "loopgate.ini";
const PHP_PREPEND: &str = "loopgate-prepend.php";
const PREPEND: &str = include_str!("../ecosystem/php/prepend.php");

/// The Go hook, in the room: the program `go test -exec` runs every test binary through.
const GO_FILE: &str = "hook/go/loopgate-go-exec";
const GO: &str = include_str!("../ecosystem/go/go-exec.sh");

/// The cargo hook, in the room: the runner cargo runs every test binary through
/// (`CARGO_TARGET_<triple>_RUNNER`, set by `cargo_hook` where the project has no runner of its own).
pub(crate) const RUST_FILE: &str = "hook/rust/loopgate-test-runner";
const RUST: &str = include_str!("../ecosystem/rust/test-runner.sh");

/// The Ruby hook, in the room: loaded by every Ruby process of a run (`RUBYOPT=-r…`), it finds the events file
/// from where it stands ([`PLACE`] is two directories up).
const RUBY_FILE: &str = "hook/ruby/loopgate_report.rb";
const RUBY: &str = include_str!("../ecosystem/ruby/report.rb");

/// Writes the hooks into the room at `room` (again before every run: what a run finds there is loopgate's).
pub(crate) fn install(room: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let python = room.join(PYTHON_DIR);
    super::private_dir(&python)?;
    std::fs::write(python.join("sitecustomize.py"), SITECUSTOMIZE)?;
    for (place, text) in [(NODE_FILE, NODE), (GO_FILE, GO), (RUST_FILE, RUST), (RUBY_FILE, RUBY)] {
        let file = room.join(place);
        super::private_dir(file.parent().unwrap_or(room))?;
        std::fs::write(&file, text)?;
    }
    for program in [GO_FILE, RUST_FILE] {
        std::fs::set_permissions(room.join(program), std::fs::Permissions::from_mode(0o700))?;
    }
    let php = room.join(PHP_DIR);
    super::private_dir(&php)?;
    let prepend = php.join(PHP_PREPEND);
    std::fs::write(&prepend, PREPEND)?;
    // An ini string cannot hold a path with `"` (nor `$`, which it expands): the hook is then left out, and the
    // run's names are its output's.
    match php_ini(&prepend.display().to_string()) {
        Some(ini) => std::fs::write(php.join(PHP_INI), ini),
        None => Ok(()),
    }
}

/// The PHP hook's ini file, naming the prepended script at `prepend`; `None` where no ini string can hold it.
fn php_ini(prepend: &str) -> Option<String> {
    (!prepend.contains(['"', '$', '\n'])).then(|| format!("auto_prepend_file = \"{prepend}\"\n"))
}

/// Points a run's variables at the hooks of the room at `room`, after what the run's own variables hold:
/// the Python hook first on `PYTHONPATH`, the node hook last in `NODE_OPTIONS` (where `report.cjs` looks for
/// itself to take itself out).
pub(crate) fn set(room: &Path, vars: &mut BTreeMap<String, OsString>) {
    let mut path = room.join(PYTHON_DIR).into_os_string();
    if let Some(theirs) = vars.get("PYTHONPATH").filter(|v| !v.is_empty()) {
        path.push(":");
        path.push(theirs);
    }
    vars.insert("PYTHONPATH".to_string(), path);
    let mut options = vars.get("NODE_OPTIONS").cloned().unwrap_or_default();
    if !options.is_empty() {
        options.push(" ");
    }
    options.push("--require ");
    options.push(node_word(&room.join(NODE_FILE).display().to_string()));
    vars.insert("NODE_OPTIONS".to_string(), options);
    // `RUBYOPT` is split at spaces with no quoting too.
    let ruby = room.join(RUBY_FILE).into_os_string();
    if !ruby.to_string_lossy().contains(char::is_whitespace) {
        let mut options = vars.get("RUBYOPT").cloned().unwrap_or_default();
        if !options.is_empty() {
            options.push(" ");
        }
        options.push("-r");
        options.push(ruby);
        vars.insert("RUBYOPT".to_string(), options);
    }
    // An empty first entry of `PHP_INI_SCAN_DIR` keeps PHP's own directory (its extensions' ini files).
    let mut scan = vars.get("PHP_INI_SCAN_DIR").cloned().unwrap_or_default();
    scan.push(":");
    scan.push(room.join(PHP_DIR));
    vars.insert("PHP_INI_SCAN_DIR".to_string(), scan);
    // `GOFLAGS` is split at spaces with no quoting, and a user's own `-exec` (an emulator, a device) stays theirs.
    let go = room.join(GO_FILE).into_os_string();
    let mut flags = vars.get("GOFLAGS").cloned().unwrap_or_default();
    if !flags.to_string_lossy().contains("-exec") && !go.to_string_lossy().contains(char::is_whitespace) {
        if !flags.is_empty() {
            flags.push(" ");
        }
        flags.push("-exec=");
        flags.push(go);
        vars.insert("GOFLAGS".to_string(), flags);
    }
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

/// `word` as one word of `NODE_OPTIONS` (node splits it at spaces, and reads `"…"` with `\` escapes as one).
fn node_word(word: &str) -> String {
    if !word.contains([' ', '"', '\\', '\t']) {
        return word.to_string();
    }
    format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
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
            php_ini("/rooms/my room/hook/php/p.php").as_deref(),
            Some("auto_prepend_file = \"/rooms/my room/hook/php/p.php\"\n")
        );
        assert_eq!(php_ini("/rooms/a\"b/p.php"), None);
        assert_eq!(php_ini("/rooms/$HOME/p.php"), None);
    }
}
