//! What make's dry run cannot show, kept in the plan so that the plan alone can judge a plain `make` call and
//! the Makefile's text need not be sealed beside it.
//!
//! The dry run (`make -n -p --trace`) shows what every compared recipe will run and make's whole database, but
//! two things can differ between it and the verify's own run without either showing:
//!
//! - **the recipes' environment.** Make's database does not say which variables it exports: an `export` line,
//!   or an assignment to a name that came from the environment (`HOME = /x`, `PYTHONPATH = …`: make exports
//!   those again with the makefile's value), changes what a recipe's programs see and not a line make prints.
//!   A variable is data to every program a recipe runs; what matters is whether one of them reads it to decide
//!   what runs or counts, which one place decides by name (`runner::steers`: the loader's, the shell's start-up,
//!   `PATH` and `HOME`, each ecosystem's runtime and runners). So every `export` / `unexport` line of every
//!   makefile make read that names such a variable (or every variable, or a computed name) is kept, and so is
//!   the value of every such variable a makefile sets whose name is in the run's environment (every one under
//!   `.EXPORT_ALL_VARIABLES`); `export LOG_LEVEL ?= info`, `export TZ = UTC` or `export NO_COLOR` are free, as
//!   the same variable set in the code under test would be;
//! - **how make was called.** A dry run has `n` in `MAKEFLAGS`, and a makefile that reads it (or reads its
//!   parent's command line through `$(shell …)`) can show the dry run one plan and the run another. So every line
//!   of every makefile make read that can read the call is kept: one naming `MAKEFLAGS`, `MFLAGS`, `GNUMAKEFLAGS`,
//!   `MAKEOVERRIDES`, make's list of command-line variables or of all variables, one running `$(shell …)` (or a
//!   `!=` assignment), one building text make then reads (`$(eval …)`), and one with a reference whose name is
//!   itself computed (`$(MAKE$(E)FLAGS)`, `$(value $(X))`), which no list of names could see through.
//!
//! A recipe line that sets a runner's options variable for its command alone (`PYTEST_ADDOPTS=--tb=short
//! pytest`, `env GOFLAGS=-trimpath go test ./...`) is compared without that setting where its words are free
//! beside the user's ([`without_free_settings`]): the room's own words come back at the runner's start. So is one
//! that starts its program through a plain `env`, or chooses a runner's built-in reporter: the reading is
//! `closure::recipe_line`'s, which a `package.json` script's text shares.
//!
//! Each kept line is a part of the makefile it is in, so a rejection names that file. The makefiles are the ones
//! make itself lists as read (`MAKEFILE_LIST`), read where the dry run ran: a new `include` of a makefile that
//! sets only variables no recipe uses (`PREFIX ?= /usr/local`) changes no part, while one that exports a
//! variable, or tests how make was called, is named. Recipe lines are not read here: a compared target's recipe
//! as written is in its own part already.

use std::collections::BTreeMap;

use crate::recipes::join_continued;
use crate::schema::EnvReads;

/// A recipe line is read as the program it starts, as a `package.json` script is: one reading for both.
pub(super) use crate::closure::recipe_line::{steers_beside, without_free_settings};

/// Variables that say how make was called.
const CALL: &[&str] = &[
    "MAKEFLAGS",
    "MFLAGS",
    "GNUMAKEFLAGS",
    "MAKEOVERRIDES",
    "-*-command-variables-*-",
    ".VARIABLES",
];
/// Functions that run a program or read text built at run time.
const RUNS_OR_BUILDS: &[&str] = &["shell", "eval", "guile"];
/// Functions whose first argument names a variable.
const NAMES_A_VARIABLE: &[&str] = &["value", "origin", "flavor", "call"];
/// Make's own variables, set by make itself and judged elsewhere (`SHELL` and `MAKEFLAGS` in how every recipe
/// runs) or the same in both runs.
const MAKES_OWN: &[&str] = &[
    "MAKEFILE_LIST",
    "MAKEFLAGS",
    "CURDIR",
    "SHELL",
    ".SHELLFLAGS",
    "MAKE_RESTARTS",
    "MAKELEVEL",
    ".DEFAULT_GOAL",
];

/// Label of a makefile's lines the dry run cannot judge.
pub(super) const LINES: &str = "its exports and reads of how make was called";

/// The part label of a variable a makefile sets in the recipes' environment.
pub(super) fn environment_label(name: &str) -> String {
    format!("`{name}` in the recipes' environment")
}

/// The lines of `text` (a makefile) that the dry run cannot judge, joined; empty when there are none.
pub(super) fn lines(text: &str, reads: &EnvReads) -> String {
    let kept: Vec<String> = join_continued(text)
        .into_iter()
        .filter(|line| !line.starts_with('\t'))
        .map(|line| line.trim().to_string())
        .filter(|line| {
            !line.is_empty() && !line.starts_with('#') && telling(line, reads) && !super::printing::quiets_make(line)
        })
        .collect();
    kept.join("\n")
}

/// Whether one makefile line (not a recipe line) can change the recipes' environment or read how make was
/// called (see the module doc).
fn telling(line: &str, reads: &EnvReads) -> bool {
    exports_what_steers(line, reads)
        || CALL.iter().any(|name| line.contains(name))
        || line.contains("!=")
        || references(line).any(|(name, first_argument)| {
            RUNS_OR_BUILDS.contains(&name)
                || name.contains('$')
                || (NAMES_A_VARIABLE.contains(&name) && first_argument.contains('$'))
        })
}

/// Whether `line` exports (or unexports) a variable that can change what the recipes' programs run or count
/// (`runner::steers`: `PYTHONPATH`, `BASH_ENV`, `RUSTFLAGS`, …), every variable (a bare `export`), or one whose
/// name is computed (`export $(VARS)`). `export LOG_LEVEL ?= info` exports data the code under test may read,
/// which is the agent's: it is free, as the same variable set in any other way would be. A variable exported
/// with its value is judged with it (`runner::steers_as`): `export PYTEST_ADDOPTS = --tb=short` only changes
/// how the run prints.
fn exports_what_steers(line: &str, reads: &EnvReads) -> bool {
    let (head, value) = line
        .split_once('=')
        .map_or((line, None), |(head, value)| (head, Some(value.trim())));
    let words: Vec<&str> = head.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| *w == "export" || *w == "unexport") else {
        return false;
    };
    let names: Vec<&str> = words[at + 1..]
        .iter()
        .filter(|w| !matches!(**w, "define" | "override"))
        .map(|w| w.trim_end_matches(['?', ':', '+', '!']))
        .filter(|w| !w.is_empty())
        .collect();
    let one = names.len() == 1;
    names.is_empty()
        || names.iter().any(|name| {
            !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                || match value {
                    Some(value) if one => crate::runner::steers_as(name, value, reads),
                    _ => crate::runner::steers_in(name, reads),
                }
        })
}

/// Each reference of `line` (`$(NAME …)` or `${NAME …}`, `$$` skipped): its name and its first argument.
fn references(line: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = line;
    std::iter::from_fn(move || {
        loop {
            let at = rest.find('$')?;
            let after = &rest[at + 1..];
            if let Some(skipped) = after.strip_prefix('$') {
                rest = skipped;
                continue;
            }
            rest = after;
            let close = match after.chars().next() {
                Some('(') => ')',
                Some('{') => '}',
                _ => continue,
            };
            let inner = &after[1..];
            // The name ends at white space, `:` (a substitution reference), `,` or the closing bracket; a `$`
            // before that makes the name computed.
            let end = inner
                .find(|c: char| c.is_whitespace() || c == ':' || c == ',' || c == close)
                .unwrap_or(inner.len());
            let (name, tail) = inner.split_at(end);
            let argument = tail.trim_start().split([',', close]).next().unwrap_or_default();
            return Some((name, argument));
        }
    })
}

/// What the makefiles set in the recipes' environment: `label → NAME = value` per variable a makefile sets
/// (origin `makefile` or `override` in make's database) whose name is in the run's environment (`inherited`
/// gives its value there), or every one when `export_all`; with the makefile each comes from.
///
/// A variable read as words (`runner::steers_as`) is judged by what the makefile does to the user's words of
/// the value the run inherited ([`steers_beside`]): the words it adds and the words it drops must each be free
/// (`--tb=short`; a user's `-W error` dropped counts). The room's own words in it are not weighed: the start
/// channel puts them back where the runner starts (`room::hook::complete`), so `export NODE_OPTIONS =
/// --max-old-space-size=4096` and `export NODE_OPTIONS += --max-old-space-size=4096` are alike.
pub(super) fn environment<'a>(
    variables: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
    inherited: &dyn Fn(&str) -> Option<String>,
    export_all: bool,
    reads: &EnvReads,
) -> Vec<(String, String, String)> {
    variables
        .filter(|(name, value, _)| {
            let before = inherited(name);
            !MAKES_OWN.contains(name)
                && steers_beside(name, value, before.as_deref(), reads)
                && (export_all || before.is_some())
        })
        .filter_map(|(name, value, origin)| {
            let from = origin
                .strip_prefix("# makefile")
                .or_else(|| origin.strip_prefix("# 'override' directive"))?;
            let file = from
                .split_once("(from '")
                .and_then(|(_, rest)| rest.split_once('\''))
                .map_or("Makefile", |(file, _)| file);
            Some((environment_label(name), format!("{name} = {value}"), file.to_string()))
        })
        .collect()
}

/// The lines of each makefile in `texts` the dry run cannot judge: `(label, lines, file)` per makefile that has
/// any.
pub(super) fn makefile_parts(texts: &BTreeMap<String, String>, reads: &EnvReads) -> Vec<(String, String, String)> {
    texts
        .iter()
        .filter_map(|(file, text)| {
            let kept = lines(text, reads);
            (!kept.is_empty()).then(|| (format!("{file}: {LINES}"), kept, file.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_export_or_read_the_call_are_kept_others_are_not() {
        for kept in [
            "export PYTHONPATH = src",
            "unexport HOME",
            "override export PYTHONSTARTUP := 1",
            "test: export RUSTFLAGS = --cfg lenient",
            "export BASH_ENV ?= tools/env.sh",
            "export",
            "export LOG_LEVEL PATH",
            "export $(VARS)",
            "export define NODE_OPTIONS",
            "ifneq (,$(findstring n,$(MAKEFLAGS)))",
            "DRY := $(filter n,$(MFLAGS))",
            "WHO := $(shell ps -o args= $$PPID)",
            "WHO != cat /proc/$$PPID/cmdline",
            "$(eval $(subst X,,$$(MAKEXFLAGS)))",
            "X := $(MAKE$(E)FLAGS)",
            "Y := $($(NAME))",
            "Z := ${value ${NAME}}",
            "W := $(call $(F),1)",
            "ALL := $(.VARIABLES)",
        ] {
            assert_eq!(lines(kept, &EnvReads::default()), kept, "{kept}");
        }
        for honest in [
            "PREFIX ?= /usr/local",
            "SRC := $(wildcard src/*.c)",
            "OBJ = $(patsubst %.c,%.o,$(SRC))",
            "OBJ2 = $(SRC:.c=.o)",
            "-include local.mk",
            "W := $(call f,$(X))",
            "V := $(value X)",
            "# export nothing: a comment",
            "\texport X=1; make",
            "EXPORTS = a b",
            "export LOG_LEVEL ?= info",
            "export TZ = UTC",
            "export NO_COLOR := 1",
            "test: export CALC_MODE = strict",
            "override export LANG := C.UTF-8",
            "unexport LOG_LEVEL",
            "export RUST_BACKTRACE=1",
        ] {
            assert_eq!(lines(honest, &EnvReads::default()), "", "{honest}");
        }
    }

    #[test]
    fn continued_lines_are_judged_whole() {
        let kept = lines("X = a \\\n  $(shell id)\nY = b\n", &EnvReads::default());
        assert!(kept.starts_with("X = a") && kept.ends_with("$(shell id)"), "{kept}");
    }

    #[test]
    fn a_makefile_variable_in_the_environment_is_kept_with_its_file() {
        let vars = [
            ("HOME", "/x", "# makefile (from 'local.mk', line 2)"),
            ("PREFIX", "/usr/local", "# makefile (from 'local.mk', line 1)"),
            ("PATH", "/bin", "# environment"),
            ("CURDIR", "/p", "# makefile"),
            ("PYTHONPATH", "src", "# 'override' directive (from 'Makefile', line 1)"),
            ("LOG_LEVEL", "debug", "# makefile (from 'Makefile', line 3)"),
        ];
        let env = |name: &str| {
            ["HOME", "PATH", "PYTHONPATH", "CURDIR", "LOG_LEVEL"]
                .contains(&name)
                .then(|| "inherited".to_string())
        };
        let kept = environment(vars.iter().copied(), &env, false, &EnvReads::default());
        assert_eq!(
            kept,
            vec![
                (environment_label("HOME"), "HOME = /x".into(), "local.mk".into()),
                (
                    environment_label("PYTHONPATH"),
                    "PYTHONPATH = src".into(),
                    "Makefile".into()
                ),
            ]
        );
        let all = environment(vars.iter().copied(), &env, true, &EnvReads::default());
        // Under `.EXPORT_ALL_VARIABLES` too, only what steers a run counts: `PREFIX` and `LOG_LEVEL` are data.
        assert_eq!(all.len(), 2, "{all:?}");
    }

    /// A variable read as words is judged by what the makefile does to the user's words of the value the run
    /// inherited (the room's own words come back at the runner's start, `room::hook::complete`): free words
    /// added or dropped are free, dropping or adding an option that selects or loads code is kept; with nothing
    /// inherited, its words alone decide.
    #[test]
    fn a_variable_read_as_words_is_judged_beside_what_the_run_inherited() {
        let origin = "# makefile (from 'Makefile', line 1)";
        let hook = "-o cache_dir=/room/pytest-cache --junitxml=/room/report/pytest.xml -rap";
        let kept = |value: &str, before: Option<&str>| {
            let vars = [("PYTEST_ADDOPTS", value, origin)];
            let env = |_: &str| before.map(str::to_string);
            !environment(vars.iter().copied(), &env, false, &EnvReads::default()).is_empty()
        };
        assert!(!kept(&format!("{hook} --tb=short"), Some(hook)));
        assert!(!kept(&format!("-v {hook}"), Some(hook)));
        assert!(!kept("--tb=short", Some(hook)), "only the room's words are dropped");
        assert!(
            !kept("--tb=short", Some(&format!("-ra {hook}"))),
            "and a free word of the user's"
        );
        assert!(
            kept("--tb=short", Some(&format!("-W error {hook}"))),
            "a word that counts dropped"
        );
        assert!(kept("-k add", Some(hook)));
        assert!(kept("", Some(hook)), "an empty value");
        assert!(kept(&format!("{hook} -p lenient"), Some(hook)));
        assert!(kept(&format!("{hook} $(OPTS)"), Some(hook)));
        assert!(
            kept(&format!("{hook} --junitxml=/x/report/pytest.xml"), Some(hook)),
            "a word that only looks like the room's"
        );
        let all = |value: &str| {
            let vars = [("PYTEST_ADDOPTS", value, origin)];
            !environment(vars.iter().copied(), &|_| None, true, &EnvReads::default()).is_empty()
        };
        assert!(!all("--tb=short"));
        assert!(all("-p lenient"));
        assert_eq!(lines("export PYTEST_ADDOPTS += --tb=short", &EnvReads::default()), "");
        assert_eq!(
            lines("export PYTEST_ADDOPTS = -p lenient", &EnvReads::default()),
            "export PYTEST_ADDOPTS = -p lenient"
        );
    }

    /// A program's own variable is free, unless the sealed tests read it: then its export is kept.
    #[test]
    fn an_export_of_a_name_the_tests_read_is_kept() {
        let mut reads = EnvReads::default();
        reads.names.insert("CALC_QUICK".to_string());
        assert_eq!(lines("export CALC_QUICK = 1", &EnvReads::default()), "");
        assert_eq!(lines("export CALC_QUICK = 1", &reads), "export CALC_QUICK = 1");
        assert_eq!(lines("export LOG_LEVEL = debug", &reads), "");
        reads.wholesale = true;
        assert_eq!(lines("export LOG_LEVEL = debug", &reads), "export LOG_LEVEL = debug");
    }
}
