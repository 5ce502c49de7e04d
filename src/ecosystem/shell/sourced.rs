//! A shell file that a script sources (`. lib/calc.sh`), key by key: what of it changes how the script runs, and
//! what is the code the script's tests call.
//!
//! A sourced file runs in the sourcing shell, so it can change everything after it: a variable (`PATH`,
//! `PYTEST_ADDOPTS`), a top-level command, a function named like a command the script runs (`python3() { … }`
//! wraps the interpreter). Those are sealed. A function whose name is no command — not a shell builtin or keyword,
//! not a program on `PATH` — cannot stand in for anything the script runs: it runs only where the script calls it
//! by that name, which is what a shell project's tests do with the code under test (`add() { … }`). Its
//! definition is the agent's; its name is not (a function that appears, or becomes a command, moves the rest).
//! One top-level statement is free too: appending options that change only what a runner prints to the
//! variable it reads more options from (`export PYTEST_ADDOPTS="$PYTEST_ADDOPTS -ra"`), judged option by option
//! against that runner's table (`closure::options`), as its configuration's `addopts` is. Read beside the
//! values the run inherited at setup ([`sealed_text_beside`]), so is an assignment that replaces a runner's
//! options variable the start channel completes (`export PYTEST_ADDOPTS="--tb=short"`): the room's own words
//! come back at the runner's start whatever the file does, and the user's words it drops and the words it adds
//! are judged as a make recipe's setting is (`closure::recipe_line::steers_beside`): `--tb=short` over nothing
//! is free, `-k add`, or dropping the user's `-W error`, counts.
//!
//! The reading is by lines: a function starts at `name() {` (or `function name {`) at the start of a line and
//! ends where its braces balance. Text this reading cannot follow (braces that never balance) is sealed whole.

use std::collections::BTreeMap;

pub(crate) use crate::testsig::lex::shell::{BUILTINS, function_name, is_command};

/// The text of `source` that is sealed: every line but those of the functions that are no command, with each
/// such function's name kept (so a new one, or one renamed, still moves the part).
pub(crate) fn sealed_text(source: &str) -> String {
    sealed_text_with(source, &appends_free_options)
}

/// [`sealed_text`], with an assignment that replaces a runner's options variable free where its words are beside
/// `inherited`, the values of those variables the run inherited at setup ([`replaces_freely`]).
pub(crate) fn sealed_text_beside(source: &str, inherited: &BTreeMap<String, String>) -> String {
    sealed_text_with(source, &|line| {
        appends_free_options(line) || replaces_freely(line, inherited)
    })
}

/// The sealed text of `source`, its lines for which `free` holds left out.
fn sealed_text_with(source: &str, free: &dyn Fn(&str) -> bool) -> String {
    let mut out = Vec::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(name) = function_name(line).filter(|n| !is_command(n)) else {
            if !free(line) {
                out.push(line.to_string());
            }
            continue;
        };
        out.push(format!("{name}() {{ … }}"));
        let mut depth = braces(line);
        while depth > 0 {
            let Some(next) = lines.next() else {
                // Braces that never balance: this reading cannot tell where the function ends.
                return source.to_string();
            };
            depth += braces(next);
        }
    }
    out.join("\n")
}

/// An environment variable a runner reads more command-line options from, and its runner's free options.
pub(crate) type OptionsVariable = (&'static str, fn() -> Vec<String>);

/// The runners' options variables, each declared in its ecosystem's folder.
const OPTIONS_VARIABLES: &[OptionsVariable] = &[crate::closure::derive::python::OPTIONS_VARIABLE];

/// Whether `line` only appends free options to a runner's options variable — `NAME="$NAME WORDS…"`, or with
/// `export`, `${NAME}` — so that it is as if absent. Appending keeps what was there: the user's own options,
/// and the report option loopgate adds for its readout; an assignment that replaces the value can drop them,
/// so it counts, as does any other expansion in the value (`--tb=$(…)` would run a command here).
fn appends_free_options(line: &str) -> bool {
    let text = line.trim();
    let text = text.strip_prefix("export ").map_or(text, str::trim_start);
    let Some((name, value)) = text.split_once('=') else {
        return false;
    };
    let Some(free) = OPTIONS_VARIABLES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, free)| free())
    else {
        return false;
    };
    let Some(content) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
        return false;
    };
    let appended = [format!("${name}"), format!("${{{name}}}")]
        .iter()
        .find_map(|own| content.strip_prefix(own.as_str()))
        .filter(|rest| rest.is_empty() || rest.starts_with(' '));
    let Some(appended) = appended.filter(|rest| !rest.contains(['$', '`', '"', '\\'])) else {
        return false;
    };
    crate::closure::options::shell_words(appended)
        .is_some_and(|words| crate::closure::options::sealed(&words, &free, true).is_empty())
}

/// Whether `line` only assigns a runner's options variable that the start channel completes
/// (`room::hook::completed_vars`) a plain value — `NAME=WORDS`, `export NAME="WORDS…"` or in single quotes, with
/// nothing the shell expands or runs — whose words, beside what the run inherited (`inherited`), change neither
/// what runs nor what counts (`closure::recipe_line::steers_beside`).
fn replaces_freely(line: &str, inherited: &BTreeMap<String, String>) -> bool {
    let text = line.trim();
    let text = text.strip_prefix("export ").map_or(text, str::trim_start);
    let Some((name, value)) = text.split_once('=') else {
        return false;
    };
    if !crate::room::hook::completed_vars().any(|var| var == name) {
        return false;
    }
    let words = match value.as_bytes().first() {
        Some(b'"') => value[1..].strip_suffix('"'),
        Some(b'\'') => value[1..].strip_suffix('\''),
        _ => Some(value).filter(|v| !v.contains(char::is_whitespace)),
    };
    let Some(words) = words.filter(|w| !w.contains(['$', '`', '"', '\'', '\\', ';', '&', '|', '<', '>', '(', ')']))
    else {
        return false;
    };
    let before = inherited.get(name).map(String::as_str);
    !crate::closure::recipe_line::steers_beside(name, words, before, &crate::schema::EnvReads::default())
}

/// Opening minus closing braces on a line, outside quotes and comments.
fn braces(line: &str) -> i64 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (_, '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') => break,
            (None, '{') => depth += 1,
            (None, '}') => depth -= 1,
            _ => {}
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testsig::lex::shell::only_functions;

    #[test]
    fn only_functions_read_plainly_are_functions_alone() {
        let plain = "# assertions\nassert_number() {\n  [ \"${1}\" -eq \"$2\" ]\n}\n\nfunction check { true; }\n";
        assert_eq!(
            only_functions(plain),
            Some(vec!["assert_number".into(), "check".into()])
        );
        for code in [
            "assert_number() {\n  echo }\n}\nadd() { echo 3; }\n",
            "f() { :; }; add() { echo 3; }\n",
            "f() {\n  :\n}; add() { echo 3; }\n",
            "f() {\n  if true; then { :; }; fi\n}\n",
            "export PATH=shim:$PATH\n",
            "f() {\n  :\n",
        ] {
            assert_eq!(only_functions(code), None, "{code}");
        }
    }

    /// Beside what the run inherited, a replacing assignment of a completed options variable is judged by the
    /// words it drops and adds; the reading without them (a seal made before) keeps every replacement.
    #[test]
    fn a_replacing_assignment_is_judged_beside_what_the_run_inherited() {
        let before = "# settings
add() {
  echo $(($1 - $2))
}
";
        let none = BTreeMap::new();
        let strict = BTreeMap::from([("PYTEST_ADDOPTS".to_string(), "-W error".to_string())]);
        let with = |line: &str| format!("{before}{line}\n");
        for free in [
            "export PYTEST_ADDOPTS=\"--tb=short\"",
            "export PYTEST_ADDOPTS='--tb=short -ra'",
            "PYTEST_ADDOPTS=--tb=line",
            "export NODE_OPTIONS=\"--max-old-space-size=4096\"",
        ] {
            assert_eq!(
                sealed_text_beside(before, &none),
                sealed_text_beside(&with(free), &none),
                "{free}"
            );
            assert_ne!(sealed_text(before), sealed_text(&with(free)), "{free}");
        }
        for counts in [
            "export PYTEST_ADDOPTS=\"-k add\"",
            "export PYTEST_ADDOPTS=\"--tb=$(sh plant.sh)\"",
            "export PYTEST_ADDOPTS=\"-p helper\"",
            "export PYTEST_ADDOPTS=--tb=short; exit 0",
            "export PYTEST_ADDOPTS=--tb=short -x",
            "export NODE_OPTIONS=\"--require ./patch.js\"",
            "export PATH=\"bin\"",
        ] {
            assert_ne!(
                sealed_text_beside(before, &none),
                sealed_text_beside(&with(counts), &none),
                "{counts}"
            );
        }
        // Dropping the user's `-W error` weakens the run; keeping it beside a free word does not.
        let dropped = with("export PYTEST_ADDOPTS=\"--tb=short\"");
        assert_ne!(
            sealed_text_beside(before, &strict),
            sealed_text_beside(&dropped, &strict)
        );
        let kept = with("export PYTEST_ADDOPTS=\"-W error --tb=short\"");
        assert_eq!(sealed_text_beside(before, &strict), sealed_text_beside(&kept, &strict));
    }

    #[test]
    fn functions_that_are_no_command_are_the_code_under_test() {
        let before = "# the calculator\nadd() {\n  echo $(($1 - $2))\n}\n";
        let fixed = "# the calculator\nadd() {\n  # sum\n  echo $(($1 + $2))\n}\n";
        assert_eq!(sealed_text(before), sealed_text(fixed));
        // A function that shadows a command, a new variable, a new statement: each moves the sealed text.
        for gamed in [
            format!("{before}python3() {{ command python3 shim.py \"$@\"; }}\n"),
            format!("{before}function test {{\n  return 0\n}}\n"),
            format!("PYTEST_ADDOPTS='-k not add'\n{before}"),
            format!("{before}trap 'exit 0' EXIT\n"),
            before.replace("add()", "sum()"),
        ] {
            assert_ne!(sealed_text(before), sealed_text(&gamed), "{gamed}");
        }
        // Free options appended to pytest's options variable are as if absent; any other value counts.
        let quieter = format!("{before}export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS -ra --durations=5\"\n");
        assert_eq!(sealed_text(before), sealed_text(&quieter));
        assert_eq!(
            sealed_text(before),
            sealed_text(&format!("{before}PYTEST_ADDOPTS=\"${{PYTEST_ADDOPTS}} -v\"\n"))
        );
        for gamed in [
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS -k zero\"",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS --deselect tests/test_calc.py::test_add\"",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS -p helper\"",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS --co\"",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS -v -- tests/test_zero.py\"",
            "export PYTEST_ADDOPTS=\"-ra\"",
            "export PYTEST_ADDOPTS='$PYTEST_ADDOPTS -ra'",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS --tb=$(sh plant.sh)\"",
            "export PYTEST_ADDOPTS=\"$PYTEST_ADDOPTS -v\"; exit 0",
            "export PYTEST_ADDOPTSX=\"$PYTEST_ADDOPTS -v\"",
            "export PYTHONPATH=\"$PYTHONPATH -v\"",
        ] {
            assert_ne!(
                sealed_text(before),
                sealed_text(&format!("{before}{gamed}\n")),
                "{gamed}"
            );
        }
        // Braces that never balance: the whole text is sealed.
        assert_eq!(sealed_text("add() {\n  echo\n"), "add() {\n  echo\n");
    }
}
