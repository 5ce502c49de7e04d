//! A `CMakeLists.txt`'s test side, command by command (`closure::parts::Scope::Read` with [`READING`]).
//!
//! Sealing the whole file would refuse honest work — a new source file, a new library, a new test target are
//! all lines of it — while ctest runs only what its test-side commands say. So a CMake file is read as commands
//! (`name(args)`, `#` comments and `#[[ … ]]` blocks dropped, quoted and bracket arguments kept whole), and a
//! part is sealed for each *test or test target the baseline had* (named by `add_test`, `gtest_discover_tests`,
//! `gtest_add_tests`, `catch_discover_tests`, or run by an `add_test`'s `COMMAND`): the digest of every
//! test-side command that names it. A test turned `DISABLED` or `WILL_FAIL` (`set_tests_properties`,
//! `set_property(TEST …)`), a `TEST_FILTER` or `--gtest_filter` added, a test target's sources swapped
//! (`add_executable`, `target_sources`: the code linked into it, its test files being judged by their tests) or its
//! compile definitions changed, a registration removed: each changes that name's part. A property that changes
//! neither whether a test runs nor how its end counts — its `TIMEOUT`, `LABELS`, scheduling ([`FREE_PROPERTIES`])
//! — is cut from the command before it is digested, so a longer timeout is honest while `WILL_FAIL` beside it is
//! not. One more part, [`TESTING`], holds `enable_testing()` and `include(CTest)`. A new test
//! target names nothing of the baseline's, so adding tests stays honest.

use std::collections::BTreeSet;

/// The label of the part that turns testing on.
pub(crate) const TESTING: &str = "enable_testing()";

/// A name among a seal's names (never a test's: it holds spaces and parentheses) saying that the file is read with
/// `include(CTest)` as the `enable_testing()` it calls ([`testing`]). Seals taken before it read the commands as
/// written, and keep doing so.
pub(crate) const CTEST_ENABLES_TESTING: &str = "(include(CTest) is enable_testing())";

/// A CMake file read for the tests and test targets it registered at the baseline, one part each, and
/// [`TESTING`] (`closure::READERS`): stored as `cmake`.
pub(crate) const READING: super::parts::Reading = super::parts::Reading {
    kind: "cmake",
    parts,
    labels: |names| {
        std::iter::once(TESTING.to_string())
            .chain(names.iter().filter(|n| *n != CTEST_ENABLES_TESTING).cloned())
            .collect()
    },
    resolves: None,
};

/// Commands that register tests, and the argument that names the test or target.
const REGISTER: &[&str] = &[
    "add_test",
    "gtest_discover_tests",
    "gtest_add_tests",
    "catch_discover_tests",
];

/// Commands that change a named test or test target; sealed where they name one of the baseline's.
const TEST_SIDE: &[&str] = &[
    "add_test",
    "gtest_discover_tests",
    "gtest_add_tests",
    "catch_discover_tests",
    "set_tests_properties",
    "set_property",
    "add_executable",
    "target_sources",
    "target_compile_definitions",
    "target_compile_options",
];

/// Test properties that change neither whether a test runs nor how its end counts: how long it may take, how
/// ctest schedules it (cost, processors, serial runs, resource locks) and its labels (a selection by label on
/// the verify's command line that drops a baseline test is the per-test verdict's: the test did not run). Every
/// other property (`WILL_FAIL`, `DISABLED`, `ENVIRONMENT`, `PASS_REGULAR_EXPRESSION`, `SKIP_RETURN_CODE`,
/// `WORKING_DIRECTORY`, …) and one this list does not know stays in the test's part.
const FREE_PROPERTIES: &[&str] = &["TIMEOUT", "LABELS", "COST", "PROCESSORS", "RUN_SERIAL", "RESOURCE_LOCK"];

/// One command: its name (lower case: CMake's are case-insensitive) and its arguments.
#[derive(Debug, PartialEq, Eq)]
struct Command {
    name: String,
    args: Vec<String>,
}

/// The tests and test targets a CMake file registers, as the seal's names for its parts.
pub(crate) fn registered(text: &str) -> Vec<String> {
    let mut names = BTreeSet::new();
    for command in commands(text) {
        if !REGISTER.contains(&command.name.as_str()) {
            continue;
        }
        let args = &command.args;
        match args.iter().position(|a| a == "NAME") {
            Some(at) if command.name == "add_test" => names.extend(args.get(at + 1).cloned()),
            _ => names.extend(args.first().cloned()),
        }
        if let Some(at) = args.iter().position(|a| a == "COMMAND") {
            names.extend(args.get(at + 1).map(|program| target_of(program).to_string()));
        }
    }
    names.into_iter().filter(|n| !n.is_empty()).collect()
}

/// The parts of a CMake file for the baseline's `names`: label → the text of the commands that make it.
pub(crate) fn parts(text: &str, names: &[String]) -> Vec<(String, String)> {
    let commands = commands(text);
    let mut out = Vec::new();
    let testing = testing(&commands, names.iter().any(|n| n == CTEST_ENABLES_TESTING));
    if !testing.is_empty() {
        out.push((TESTING.to_string(), testing.join("\n")));
    }
    for name in names {
        let naming: Vec<String> = commands
            .iter()
            .filter(|c| TEST_SIDE.contains(&c.name.as_str()))
            .filter(|c| c.args.iter().any(|a| a == name || target_of(a) == name))
            .filter_map(render_test_side)
            .collect();
        if !naming.is_empty() {
            out.push((name.clone(), naming.join("\n")));
        }
    }
    out
}

/// The commands that turn testing on, as the [`TESTING`] part holds them. Read `as_called` (a seal with
/// [`CTEST_ENABLES_TESTING`]), `include(CTest)` is the `enable_testing()` CTest's module calls while
/// `BUILD_TESTING` is on, its default, beside dashboard targets that run nothing of the tests; so where the file
/// names no `BUILD_TESTING`, the two spellings, one or both, are one part. Where the file names it (an
/// `option(BUILD_TESTING OFF)`, a `set`), `include(CTest)` stays as written. A `BUILD_TESTING` turned off from
/// elsewhere (the command line, a preset) registers no test, which the per-test verdict names.
fn testing(commands: &[Command], as_called: bool) -> Vec<String> {
    let turns_on = |c: &&Command| {
        c.name == "enable_testing"
            || c.name == "include" && c.args.first().is_some_and(|a| a == "CTest" || a == "GoogleTest")
    };
    let named_off = commands
        .iter()
        .any(|c| c.args.iter().any(|a| a.contains("BUILD_TESTING")));
    let mut out: Vec<String> = Vec::new();
    for command in commands.iter().filter(turns_on) {
        let ctest = command.name == "include" && command.args == ["CTest"];
        let text = if as_called && ctest && !named_off {
            TESTING.to_string()
        } else {
            render(command)
        };
        if !(as_called && out.contains(&text)) {
            out.push(text);
        }
    }
    out
}

/// The target a program argument names: `$<TARGET_FILE:calc_test>` is `calc_test`.
fn target_of(program: &str) -> &str {
    program
        .strip_prefix("$<TARGET_FILE:")
        .and_then(|rest| rest.strip_suffix('>'))
        .unwrap_or(program)
}

/// A test-side command as its part holds it: a target's sources without its test files, which are judged by
/// their tests, by name, wherever they sit (`testsig::by_name`) — a test file added to the target, or a test moved
/// into a new one, is honest; a test that vanishes or changes is caught there. Every other source (code linked
/// into the test binary, an object file) stays.
/// A `target_sources` left with no source at all adds nothing to the target, and holds no part.
fn render_test_side(command: &Command) -> Option<String> {
    if matches!(command.name.as_str(), "set_tests_properties" | "set_property") {
        return without_free_properties(command);
    }
    if !matches!(command.name.as_str(), "add_executable" | "target_sources") {
        return Some(render(command));
    }
    let kept: Vec<&str> = command
        .args
        .iter()
        .filter(|a| !crate::testsig::is_test_file(std::path::Path::new(a.as_str())))
        .map(String::as_str)
        .collect();
    let sources_left = kept
        .iter()
        .skip(1)
        .any(|a| !matches!(*a, "PRIVATE" | "PUBLIC" | "INTERFACE"));
    (command.name == "add_executable" || sources_left).then(|| format!("{}({})", command.name, kept.join(" ")))
}

/// A command that sets test properties, without the [`FREE_PROPERTIES`] it sets; none when it sets no other
/// (a `TIMEOUT` alone holds no part). `set_tests_properties(T… PROPERTIES P V …)` sets pairs;
/// `set_property(TEST T… [APPEND] PROPERTY P V…)` one property; `set_property` of anything but tests is kept.
fn without_free_properties(command: &Command) -> Option<String> {
    let free = |p: &str| FREE_PROPERTIES.contains(&p.to_ascii_uppercase().as_str());
    let args = &command.args;
    if command.name == "set_property" {
        let at = args.iter().position(|a| a == "PROPERTY");
        let testing = args.first().is_some_and(|a| a == "TEST");
        if testing && at.and_then(|at| args.get(at + 1)).is_some_and(|p| free(p)) {
            return None;
        }
        return Some(render(command));
    }
    let Some(at) = args.iter().position(|a| a == "PROPERTIES") else {
        return Some(render(command));
    };
    let pairs: Vec<&[String]> = args[at + 1..].chunks(2).filter(|pair| !free(&pair[0])).collect();
    if pairs.is_empty() {
        return None;
    }
    let kept: Vec<&str> = args[..=at]
        .iter()
        .chain(pairs.into_iter().flatten())
        .map(String::as_str)
        .collect();
    Some(format!("{}({})", command.name, kept.join(" ")))
}

fn render(command: &Command) -> String {
    format!("{}({})", command.name, command.args.join(" "))
}

/// The commands of a CMake file, in order. Anything that is not a command (a stray word, a file cut short) is
/// passed over rather than refused: the seal compares what it can read.
fn commands(text: &str) -> Vec<Command> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => i = comment_end(b, i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = text[start..i].to_ascii_lowercase();
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                if b.get(i) == Some(&b'(') {
                    let (args, end) = arguments(text, i + 1);
                    out.push(Command { name, args });
                    i = end;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The end of a comment at `i`: `#[[ … ]]` (any number of `=`) or to the line's end.
fn comment_end(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'[')
        && let Some(end) = bracket_end(b, i + 1)
    {
        return end;
    }
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |at| i + at)
}

/// The end of a bracket argument opened at `i` (`[[`, `[=[`, …), past its closing; `None` if `i` opens none.
fn bracket_end(b: &[u8], i: usize) -> Option<usize> {
    let level = b[i + 1..].iter().take_while(|&&c| c == b'=').count();
    if b.get(i + 1 + level) != Some(&b'[') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b']')
        .chain(std::iter::repeat_n(b'=', level))
        .chain(std::iter::once(b']'))
        .collect();
    let from = i + level + 2;
    Some(
        b[from..]
            .windows(close.len())
            .position(|w| w == close.as_slice())
            .map_or(b.len(), |at| from + at + close.len()),
    )
}

/// The arguments of a command whose `(` ends before `i`, and the index past its `)`.
fn arguments(text: &str, mut i: usize) -> (Vec<String>, usize) {
    let b = text.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b')' if depth == 0 => return (args, i + 1),
            b')' => {
                depth -= 1;
                i += 1;
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b'#' => i = comment_end(b, i),
            c if c.is_ascii_whitespace() => i += 1,
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                args.push(text[start..i].to_string());
            }
            b'[' if bracket_end(b, i).is_some() => {
                let end = bracket_end(b, i).unwrap_or(b.len());
                args.push(text[i..end].to_string());
                i = end;
            }
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'(' | b')' | b'"' | b'#') {
                    i += 1;
                }
                args.push(text[start..i].to_string());
            }
        }
    }
    (args, b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTS: &str = r#"cmake_minimum_required(VERSION 3.14)
project(calc CXX)
find_package(GTest REQUIRED)
enable_testing()
add_library(calc src/calc.cc) # the code under test
target_include_directories(calc PUBLIC src)
add_executable(calc_test tests/calc_test.cc)
target_link_libraries(calc_test calc GTest::gtest_main)
include(GoogleTest)
gtest_discover_tests(calc_test)
add_test(NAME smoke COMMAND $<TARGET_FILE:calc_cli> --version)
#[[ add_test(NAME commented COMMAND x) ]]
"#;

    fn digest(text: &str) -> Vec<(String, String)> {
        parts(text, &registered(LISTS))
    }

    #[test]
    fn the_registered_tests_and_targets_name_the_parts() {
        assert_eq!(registered(LISTS), vec!["calc_cli", "calc_test", "smoke"]);
        let labels: Vec<String> = digest(LISTS).into_iter().map(|(label, _)| label).collect();
        assert_eq!(labels, vec![TESTING, "calc_cli", "calc_test", "smoke"]);
    }

    /// Every way a test-side command can move the baseline's tests changes a part; the code's own commands and
    /// a new test target do not.
    #[test]
    fn test_side_edits_move_a_part_and_honest_edits_do_not() {
        let before = digest(LISTS);
        let moved = [
            "set_tests_properties(smoke PROPERTIES DISABLED TRUE)\n",
            "set_tests_properties(smoke PROPERTIES WILL_FAIL ON)\n",
            "set_property(TEST smoke PROPERTY ENVIRONMENT GTEST_FILTER=Calc.Zero)\n",
            "target_sources(calc_test PRIVATE src/fake.cc)\n",
            "target_compile_definitions(calc_test PRIVATE NDEBUG)\n",
            "set_tests_properties(smoke PROPERTIES TIMEOUT 60 WILL_FAIL TRUE)\n",
            "set_tests_properties(smoke PROPERTIES LABELS unit SKIP_RETURN_CODE 1)\n",
            "set_property(TEST smoke APPEND PROPERTY ENVIRONMENT GTEST_FILTER=Calc.Zero)\n",
        ];
        for extra in moved {
            assert_ne!(digest(&format!("{LISTS}{extra}")), before, "{extra}");
        }
        for (from, to) in [
            (
                "gtest_discover_tests(calc_test)",
                "gtest_discover_tests(calc_test TEST_FILTER Calc.Zero)",
            ),
            (
                "add_executable(calc_test tests/calc_test.cc)",
                "add_executable(calc_test tests/calc_test.cc src/other.cc)",
            ),
            ("enable_testing()", ""),
            ("gtest_discover_tests(calc_test)", "# gone"),
        ] {
            assert_ne!(digest(&LISTS.replace(from, to)), before, "{to}");
        }
        let honest = [
            "add_library(more src/more.cc)\ntarget_link_libraries(calc more)\n",
            "add_executable(neg_test tests/neg_test.cc)\ntarget_link_libraries(neg_test calc GTest::gtest_main)\ngtest_discover_tests(neg_test)\n",
            "# a comment naming calc_test\n",
            "target_link_libraries(calc_test m)\n",
            "target_sources(calc_test PRIVATE tests/more_test.cc)\n",
            "set_tests_properties(smoke calc_test PROPERTIES TIMEOUT 60 LABELS unit)\n",
            "set_property(TEST smoke PROPERTY LABELS slow)\n",
            "set_tests_properties(smoke PROPERTIES timeout 5 RUN_SERIAL ON COST 2)\n",
        ];
        for extra in honest {
            assert_eq!(digest(&format!("{LISTS}{extra}")), before, "{extra}");
        }
        assert_eq!(
            digest(&LISTS.replace(
                "add_library(calc src/calc.cc)",
                "add_library(calc src/calc.cc src/more.cc)"
            )),
            before
        );
        // The test target's test files are judged by their tests, by name: one added (a test file split in two)
        // or renamed moves no part.
        for to in [
            "add_executable(calc_test tests/calc_test.cc tests/calc_mul_test.cc)",
            "add_executable(calc_test tests/calc_tests.cc)",
        ] {
            assert_eq!(
                digest(&LISTS.replace("add_executable(calc_test tests/calc_test.cc)", to)),
                before,
                "{to}"
            );
        }
        assert_eq!(
            digest(&LISTS.replace("enable_testing()", "ENABLE_TESTING ( )")),
            before.iter().map(|(l, t)| (l.clone(), t.clone())).collect::<Vec<_>>(),
            "case and spacing are CMake's, not a change"
        );
    }

    /// Read as a seal taken now reads it, `include(CTest)` is the `enable_testing()` it calls, alone or beside
    /// it; not where the file names `BUILD_TESTING`, nor under a seal taken before.
    #[test]
    fn include_ctest_is_the_enable_testing_it_calls() {
        let mut names = registered(LISTS);
        let before_this = parts(LISTS, &names);
        names.push(CTEST_ENABLES_TESTING.to_string());
        let read = |text: &str| parts(text, &names);
        let before = read(LISTS);
        for to in [
            "include(CTest)",
            "include(CTest)\nenable_testing()",
            "INCLUDE ( CTest )",
        ] {
            assert_eq!(read(&LISTS.replace("enable_testing()", to)), before, "{to}");
        }
        for to in [
            "option(BUILD_TESTING \"tests\" OFF)\ninclude(CTest)",
            "set(BUILD_TESTING OFF)\ninclude(CTest)",
            "include(CTest OPTIONAL)",
            "include(CTestUseLaunchers)",
            "",
        ] {
            assert_ne!(read(&LISTS.replace("enable_testing()", to)), before, "{to}");
        }
        assert_ne!(
            parts(&LISTS.replace("enable_testing()", "include(CTest)"), &registered(LISTS)),
            before_this
        );
        let labels: Vec<String> = (READING.labels)(&names);
        assert!(!labels.contains(&CTEST_ENABLES_TESTING.to_string()), "{labels:?}");
    }

    #[test]
    fn odd_text_reads_without_panicking() {
        for text in [
            "add_test(",
            "#[[",
            "x(\"",
            "[=[",
            "add_test(NAME",
            ")",
            "set(x [==[ a ]=] )",
        ] {
            let _ = parts(text, &registered(text));
        }
    }
}
