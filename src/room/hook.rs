//! loopgate's start hooks (issue 29, item 2, for the runners with no private report of their own): small files
//! the room installs, which the oracle's runs load through the environment alone — `PYTHONPATH` for Python's
//! `sitecustomize` (`ecosystem/python/sitecustomize.py`: unittest, Django's `manage.py test`), `NODE_OPTIONS=--require`
//! for node (`ecosystem/js/report.cjs`: mocha), `RUBYOPT=-r` for Ruby (`ecosystem/ruby/report.rb`: minitest and RSpec,
//! whose events are also where their tests are named: [`add_named`]), `PHP_INI_SCAN_DIR` for PHP
//! (`ecosystem/php/prepend.php`, an `auto_prepend_file` that has every PHPUnit process write its own JUnit report to
//! `report/`: `php_report`) — so the sealed command and the project's files stay as the user wrote them. Each hook
//! records the runner's own per-test events (not its printed lines), one JSON line per event, found from where the
//! hook itself stands (no variable names it): node's and Python's over the room's socket, each line signed, to a
//! record only they can write ([`record`]); Ruby's hook and Go's and cargo's shims to [`PLACE`] in the room,
//! where only their runners' lines are read. And — in the
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
//! What stays forgeable: code under test runs in the runner's own process, so it can patch the runner's objects
//! or the hook's (the key is in the hook's memory), which is the reviewer's ([`record`] says what the socket
//! stops). The events file the shims and Ruby's hook write is a file of the room: code that knows loopgate's hook
//! can find it (the hook's own place in `RUBYOPT`, the room's directory) and append plausible events of those
//! runners; printing a runner's report does not. A Go test binary's code can
//! still print `--- PASS` lines for tests that did not run and then let `M.Run` finish: its exit status is then
//! the real one, but the names are read from its output. A run that turns the hook off (`python -I` or `-E`,
//! `node` started by its full path with an empty `NODE_OPTIONS`) writes no events, and its loop's verdict reads
//! the output alone, as `status` says.
//!
//! **The start channel** ([`complete`]): the room's words in a runner's options variable (`PYTEST_ADDOPTS`,
//! `NODE_OPTIONS`, `GOFLAGS`, `RUBYOPT`) are also kept in a file of the room and put back last where the runner
//! starts — at the runner's binary where the run stands in a mount namespace ([`binary`]: a stand-in bound over
//! each runner binary the baseline executed, so a full path, `env -i`, another `PATH` or a wrapper script all
//! start the runner through it), and besides by a stand-in of `node`, `go` and `ruby` first on the run's `PATH`
//! (`complete.sh`) and by the Python hook before pytest reads its variable — so a makefile's `=`, a recipe's
//! `VAR=… cmd`, a package.json script or a script's `export` replaces only the user's words, which are judged as
//! the user's ([`theirs`]). Where the channel stands on `PATH` alone (no namespace, no trace, no bash: `status`
//! says so), a `go` or `node` started by its full path, or under a `PATH` that leaves out the room's first entry,
//! bypasses the stand-in; the variable then holds what the process tree gave it, as before this channel.

pub(crate) mod binary;
pub(crate) mod record;

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

    /// The runner's options variable whose room's words the start channel puts back at the runner's start
    /// (see [`complete`]), and the program whose start by name does it (`None`: the hook itself does, in the
    /// runner's process).
    fn completes(&self) -> Option<Completed> {
        None
    }
}

/// A runner's options variable the room adds words of its own to (its hook, its caches, its report, its
/// naming option), and where they are put back (see [`complete`]).
struct Completed {
    var: &'static str,
    /// The program started by name (`node`, `go`) that the channel's file stands in front of on `PATH`; `None`
    /// where the hook loaded by another variable does it (Python's `sitecustomize`, for `PYTEST_ADDOPTS`).
    program: Option<&'static str>,
    /// The names of the runner's binaries (a version may follow: `python3.12`, `ruby3.1`) whose executed files
    /// the channel stands in at, where the room's namespace can cover a file ([`at_binaries`]).
    binaries: &'static [&'static str],
    /// Whether a word of the variable is one of the room's own (it names the hook, or the room's cache or report
    /// for the runner): what [`theirs`] leaves out.
    ours: fn(&str) -> bool,
}

/// The room's words of each completed variable, one file per variable, read by the channel at a runner's start.
const WORDS: &str = "hook/words";
/// The channel's programs, first on the run's `PATH`.
const BIN: &str = "hook/bin";
const COMPLETE: &str = include_str!("complete.sh");

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
/// hook's `set` says where it goes in its variable), and puts the start channel's programs first on `PATH`.
pub(crate) fn set(room: &Path, vars: &mut BTreeMap<String, OsString>) {
    for hook in HOOKS {
        hook.set(room, vars);
    }
    if let Some(path) = vars.get("PATH").filter(|p| !p.is_empty()) {
        let mut first = room.join(BIN).into_os_string();
        first.push(":");
        first.push(path);
        vars.insert("PATH".to_string(), first);
    }
}

/// The start channel (issue 39): the room delivers its words for a runner (pytest's `-o cache_dir=…`, its
/// report, its naming option; node's `--require` of its report hook; go's `-exec` hook, `-v` and `-shuffle=off`) through the
/// runner's options variable, after the user's, and a makefile's `export NODE_OPTIONS = …`, a recipe's
/// `GOFLAGS=… go test`, a script's `export`, replace that variable. So the room also keeps its words where no
/// assignment in the verify's process tree reaches: a file per variable (`hook/words/VAR`, the words `vars`,
/// the run's, holds after `theirs`, the run's own), read where the runner starts — by a program of the runner's
/// name first on `PATH` (`complete.sh`, for node and go: every start of the program by name), or by the hook
/// in the runner's own process (Python's `sitecustomize`, before pytest reads `PYTEST_ADDOPTS`) — which takes
/// them out of the variable wherever they stand and puts them back last. What the variable held before is the
/// user's, judged word by word as the user's alone (`ecosystem::make::plan::unseen`): a makefile's
/// `export PYTEST_ADDOPTS = --tb=short` no longer drops anything that counts. A program the run's `PATH` does
/// not find gets no stand-in, so a run looking for it finds nothing, as it would have.
pub(crate) fn complete(
    room: &Path,
    theirs: &BTreeMap<String, OsString>,
    vars: &BTreeMap<String, OsString>,
) -> io::Result<()> {
    let path = theirs.get("PATH").cloned().unwrap_or_default();
    for completed in HOOKS.iter().filter_map(|hook| hook.completes()) {
        let ours = room_words(theirs.get(completed.var), vars.get(completed.var));
        let file = room.join(WORDS).join(completed.var);
        if ours.is_empty() {
            remove(&file)?;
        } else {
            write(room, &format!("{WORDS}/{}", completed.var), &ours, false)?;
        }
        if let Some(program) = completed.program {
            let found = std::env::split_paths(&path).any(|dir| is_program(&dir.join(program)));
            if found && !ours.is_empty() {
                write(room, &format!("{BIN}/{program}"), COMPLETE, true)?;
            } else {
                remove(&room.join(BIN).join(program))?;
            }
        }
    }
    Ok(())
}

/// Whether the start channel restores the room's words of `name` (a runner's options variable), so a setting of
/// it in the verify's process tree can replace only the user's words.
pub(crate) fn completed(name: &str) -> bool {
    HOOKS.iter().any(|hook| hook.completes().is_some_and(|c| c.var == name))
}

/// The runners' options variables the start channel completes ([`completed`]): a `package.json` script's setting
/// of one is judged beside the value the run inherits (`closure::recipe_line`), recorded for each of them.
pub(crate) fn completed_vars() -> impl Iterator<Item = &'static str> {
    HOOKS.iter().filter_map(|hook| hook.completes()).map(|c| c.var)
}

/// The words `run` (a variable as the room sets it) holds after `theirs` (the run's own value), trimmed.
fn room_words(theirs: Option<&OsString>, run: Option<&OsString>) -> String {
    let run = run.map(|v| v.to_string_lossy().into_owned()).unwrap_or_default();
    let theirs = theirs.map(|v| v.to_string_lossy().into_owned()).unwrap_or_default();
    run.strip_prefix(theirs.as_str()).unwrap_or(&run).trim().to_string()
}

/// Whether `file` is a program a shell's lookup would run.
fn is_program(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Removes `file`, which may be missing.
fn remove(file: &Path) -> io::Result<()> {
    match std::fs::remove_file(file) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// `value`, a run's `name` as the room set it, without the room's own words (its hooks', caches' and reports'
/// words, which name places in a room, and the option the room adds so the runner names every test,
/// `runner::NAMING_OPTIONS`): what the user's environment held. The start channel puts the room's words back at
/// the runner's start whatever a makefile does to the variable, so only these are the user's to keep or drop.
pub(crate) fn theirs(name: &str, value: &str) -> String {
    let naming = crate::runner::NAMING_OPTIONS
        .iter()
        .find(|(var, _)| *var == name)
        .map(|(_, word)| *word);
    let ours = |word: &str| {
        let word = word.trim_matches('"');
        Some(word) == naming
            || HOOKS
                .iter()
                .any(|hook| hook.completes().is_some_and(|c| c.var == name && (c.ours)(word)))
    };
    let words: Vec<&str> = value.split_whitespace().collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let word = words[at];
        if matches!(word, "-o" | "--require") && words.get(at + 1).is_some_and(|next| ours(next)) {
            at += 2;
            continue;
        }
        if !ours(word) {
            kept.push(word);
        }
        at += 1;
    }
    kept.join(" ")
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
/// names only failures or names them as its reporter prints them (`runner::Report::HookNamed`: minitest, RSpec,
/// cargo, mocha), where the verify command runs one of them (`runners`, the closure's): elsewhere events can only
/// confirm the output's passes, so code under test that writes events of its own names no test. Events cut short or missing add nothing: the run then has no names
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
        assert_eq!(
            vars["GOFLAGS"], "-count=1 -shuffle=off",
            "GOFLAGS cannot hold a path with a space; the tests' order is the room's"
        );
        assert_eq!(vars["RUBYOPT"], "-W0", "nor can RUBYOPT");
        vars.insert("RUBYOPT".to_string(), OsString::new());
        assert_eq!(
            vars["PHP_INI_SCAN_DIR"], ":/rooms/my room/hook/php",
            "PHP's own directory stays first"
        );
        set(Path::new("/rooms/r"), &mut vars);
        assert_eq!(
            vars["GOFLAGS"],
            "-count=1 -shuffle=off -exec=/rooms/r/hook/go/loopgate-go-exec"
        );
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

    /// The room's words are the user's value's tail; what the channel writes is those words, and a stand-in
    /// only for a program the run's `PATH` finds.
    #[test]
    fn the_channel_keeps_the_rooms_words_and_stands_in_only_for_programs_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin");
        std::fs::write(bin.join("go"), "").expect("go");
        std::fs::set_permissions(bin.join("go"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("mode");
        let room = dir.path().join("room");
        let theirs = BTreeMap::from([
            ("PATH".to_string(), bin.clone().into_os_string()),
            ("GOFLAGS".to_string(), OsString::from("-count=1")),
            ("PYTEST_ADDOPTS".to_string(), OsString::from("--tb=short")),
        ]);
        let mut vars = theirs.clone();
        set(&room, &mut vars);
        crate::verify::reporting::env(|name| vars.get(name).cloned())
            .into_iter()
            .for_each(|(name, value)| drop(vars.insert(name.to_string(), value)));
        complete(&room, &theirs, &vars).expect("complete");
        let words = |name: &str| std::fs::read_to_string(room.join(WORDS).join(name)).expect("words");
        assert_eq!(
            words("GOFLAGS"),
            format!("-exec={}/hook/go/loopgate-go-exec -shuffle=off -v", room.display())
        );
        assert_eq!(words("PYTEST_ADDOPTS"), "-rap");
        assert!(words("NODE_OPTIONS").starts_with("--require "));
        assert!(room.join(BIN).join("go").exists(), "go is on the run's PATH");
        assert!(!room.join(BIN).join("node").exists(), "node is not");
        assert!(
            vars["PATH"]
                .to_string_lossy()
                .starts_with(&format!("{}:", room.join(BIN).display())),
            "{vars:?}"
        );
        assert_eq!(theirs_of(&vars, "GOFLAGS"), "-count=1");
        assert_eq!(theirs_of(&vars, "PYTEST_ADDOPTS"), "--tb=short");
        assert_eq!(theirs_of(&vars, "NODE_OPTIONS"), "");
    }

    fn theirs_of(vars: &BTreeMap<String, OsString>, name: &str) -> String {
        theirs(name, &vars[name].to_string_lossy())
    }

    /// The room's pytest options come out of a value wherever they stand, with their `-o`; a user's own `-o`
    /// and words stay.
    #[test]
    fn the_users_words_are_the_value_without_the_rooms() {
        assert_eq!(
            theirs(
                "PYTEST_ADDOPTS",
                "-o log_cli=true -x -o cache_dir=/r/pytest-cache --junitxml=/r/report/pytest.xml -rap"
            ),
            "-o log_cli=true -x"
        );
        assert_eq!(
            theirs("GOFLAGS", "-count=1 -exec=/r/hook/go/loopgate-go-exec -v"),
            "-count=1"
        );
        assert_eq!(theirs("GOFLAGS", "-exec=/usr/bin/qemu"), "-exec=/usr/bin/qemu");
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
