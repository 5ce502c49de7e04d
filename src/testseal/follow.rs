//! A helper extracted from an existing test file, followed: judged by what the test file ends up loading, not by
//! its lines.
//!
//! Moving a test file's loads into a new helper it loads (`require "minitest/autorun"` and `require "calc"`
//! replaced by `require "test_helper"`; bats' `load ../lib/calc.sh` in `setup` replaced by `load test_helper`)
//! changes the file's lines but not what its tests run with. So where a changed test file has findings, each of
//! its lines that loads a project file made **only of loads** (comments and blank lines aside) is replaced by that
//! file's loads, followed in turn ([`MAX_DEPTH`], each file once), and the result is compared again: when it
//! has no findings, neither has the file. The loads compared are then the ones the tests get, so a helper that
//! loads one more thing reads as an added import (free, as in the test file itself) and one that drops a load
//! leaves the import removed. A helper with anything else in it — a method, a monkey-patch, a `Minitest::Test`
//! reopened, a bats function — is not followed: the line that loads it stays an import changed, judged as code.
//! A second reading ([`expanded_with_functions`], tried where the first leaves findings) also follows a helper in
//! the test file's directory or below it that defines functions, where the language keeps the rule (bats:
//! `Language::helper_functions`), each named like no command, none of the runner's own and no function defined
//! by the test file or any other file its loads reach (the code under test, the other helpers): such a function
//! runs only where a test calls it by that name, which no existing test did (`shell/sourced.rs`'s rule for the
//! code a script sources). The helper stands for its loads alone; its functions are the agent's. A helper
//! redefining `add` of the code under test, or outside the test directory (the code under test itself), is not
//! followed.
//! A load that names its file relative to the file it is written in (Ruby's `require_relative`) is followed out
//! of a helper only when the helper sits in the test file's directory, where it names the same file.
//!
//! This decides a finding only. In the oracle's run the existing test file stands as sealed and the new helper
//! sits out (`testswap`), so whatever a followed helper loads never reaches the baseline's tests there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use crate::testsig::{Lang, Language};

/// How deep helpers are followed into helpers.
const MAX_DEPTH: usize = 4;

/// `text` (the test file `path`, project-relative, as it is now) with every line that loads a helper made only
/// of loads replaced by those loads; `None` when no line was.
pub(crate) fn expanded(root: &Path, path: &str, lang: Lang, text: &str) -> Option<String> {
    reading(root, path, lang, text, false)
}

/// [`expanded`], following too the test-side helpers that define free functions (module docs).
pub(crate) fn expanded_with_functions(root: &Path, path: &str, lang: Lang, text: &str) -> Option<String> {
    reading(root, path, lang, text, true)
}

fn reading(root: &Path, path: &str, lang: Lang, text: &str, functions: bool) -> Option<String> {
    let language = crate::testsig::language(lang);
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let mut reached = Reached {
        functions,
        test: language.defined_functions(text).into_iter().collect(),
        files: BTreeMap::new(),
    };
    reach(root, dir, language, text, &mut reached.files, 0);
    let mut seen = BTreeSet::from([PathBuf::from(path)]);
    let out = expand(root, dir, language, text, &mut seen, 0, &reached);
    (out != text).then_some(out)
}

/// The functions the test file defines, and those of each project file its loads reach.
struct Reached {
    /// Whether helpers that define functions are followed at all.
    functions: bool,
    test: BTreeSet<String>,
    files: BTreeMap<PathBuf, Vec<String>>,
}

impl Reached {
    /// Whether a function of the helper `file` is named like one of the test file or of another file reached.
    fn taken(&self, file: &Path, name: &str) -> bool {
        self.test.contains(name)
            || self
                .files
                .iter()
                .any(|(f, names)| f != file && names.iter().any(|n| n == name))
    }
}

/// Every project file `text`'s loads reach, in turn, with the functions each defines.
fn reach(
    root: &Path,
    dir: &Path,
    language: &dyn Language,
    text: &str,
    files: &mut BTreeMap<PathBuf, Vec<String>>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for line in text.lines() {
        let Some(file) = language.load_line(line.trim(), dir).and_then(|load| found(root, &load)) else {
            continue;
        };
        if files.contains_key(&file) {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        files.insert(file, language.defined_functions(&text));
        reach(root, dir, language, &text, files, depth + 1);
    }
}

/// The project file a load reads: its first candidate that is a file.
fn found(root: &Path, load: &crate::testsig::Load) -> Option<PathBuf> {
    load.candidates
        .iter()
        .filter_map(|candidate| normalize(candidate))
        .find(|candidate| std::fs::symlink_metadata(root.join(candidate)).is_ok_and(|meta| meta.file_type().is_file()))
}

fn expand(
    root: &Path,
    dir: &Path,
    language: &dyn Language,
    text: &str,
    seen: &mut BTreeSet<PathBuf>,
    depth: usize,
    reached: &Reached,
) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let helper = (depth < MAX_DEPTH)
            .then(|| helper_of(root, dir, language, line, seen, reached))
            .flatten();
        match helper {
            Some((file, loads)) => {
                seen.insert(file);
                out.push_str(&expand(root, dir, language, &loads, seen, depth + 1, reached));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The project file `line` loads and its loads, one a line, when it holds nothing else.
fn helper_of(
    root: &Path,
    dir: &Path,
    language: &dyn Language,
    line: &str,
    seen: &BTreeSet<PathBuf>,
    reached: &Reached,
) -> Option<(PathBuf, String)> {
    let load = language.load_line(line, dir)?;
    let file = found(root, &load)?;
    if seen.contains(&file) {
        return None;
    }
    let text = std::fs::read_to_string(root.join(&file)).ok()?;
    let beside = file.parent() == Some(dir);
    let mut loads = String::new();
    let mut rest = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some(inner) = language.load_line(trimmed, dir) else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        if inner.relative_to_loader && !beside {
            return None;
        }
        loads.push_str(trimmed);
        loads.push('\n');
    }
    if !rest.is_empty() {
        if !reached.functions || !file.starts_with(dir) {
            return None;
        }
        let functions = language.helper_functions(&rest)?;
        if functions
            .iter()
            .any(|name| language.names_a_command(name) || reached.taken(&file, name))
        {
            return None;
        }
    }
    // A helper of free functions alone stands for nothing the tests get: it expands to no line.
    (!loads.is_empty() || !rest.is_empty()).then_some((file, loads))
}

/// `path` with `.` and `..` resolved, or `None` when it leaves the project.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::expanded;
    use crate::closure::derive::tests::project;
    use crate::testsig::Lang;

    #[test]
    fn a_ruby_helper_of_requires_is_followed_wherever_the_load_path_finds_it() {
        let dir = project(&[
            (
                "test/test_helper.rb",
                "# frozen_string_literal: true\n\nrequire \"minitest/autorun\"\nrequire 'calc'\n",
            ),
            ("test/models/calc_test.rb", ""),
        ]);
        for line in [
            "require \"test_helper\"",
            "require_relative \"../test_helper\"",
            "require(\"test_helper\")",
        ] {
            let text = format!("{line}\n\nclass CalcTest\nend\n");
            assert_eq!(
                expanded(dir.path(), "test/models/calc_test.rb", Lang::Ruby, &text).as_deref(),
                Some("require \"minitest/autorun\"\nrequire 'calc'\n\nclass CalcTest\nend\n"),
                "{line}"
            );
        }
    }

    #[test]
    fn a_helper_with_code_a_relative_load_from_elsewhere_or_a_cycle_is_not_followed() {
        let dir = project(&[
            ("test/code_helper.rb", "require \"calc\"\nmodule Minitest; end\n"),
            ("test/patch_helper.rb", "require \"calc\" # and a comment\n"),
            ("test/nested/rel_helper.rb", "require_relative \"../lib/calc\"\n"),
            ("test/a.rb", "require \"b\"\n"),
            ("test/b.rb", "require \"a\"\n"),
        ]);
        let text = "require \"code_helper\"\nrequire \"patch_helper\"\nrequire \"nested/rel_helper\"\n";
        assert_eq!(expanded(dir.path(), "test/calc_test.rb", Lang::Ruby, text), None);
        // A cycle stops where it closes: `a` is `b`'s load of `a`, left as it is.
        assert_eq!(
            expanded(dir.path(), "test/calc_test.rb", Lang::Ruby, "require \"a\"\n"),
            None
        );
    }

    #[test]
    fn a_bats_helper_of_loads_is_followed_with_or_without_its_extension() {
        let dir = project(&[
            ("test/test_helper.bash", "#!/usr/bin/env bash\nload ../lib/calc.sh\n"),
            ("test/other", "source lib/util.sh\n"),
            ("test/code.bash", "load ../lib/calc.sh\nadd() { echo 3; }\n"),
            ("lib/calc.sh", "add() {\n  echo $(($1 + $2))\n}\n"),
            (
                "test/helpers/assertions.bash",
                "assert_number() {\n  [ \"${1}\" -eq \"$2\" ]\n}\n",
            ),
            ("test/split.bash", "load ../lib/calc.sh\nload helpers/assertions\n"),
            ("test/shadow.bash", "load ../lib/calc.sh\nload helpers/shadow\n"),
            (
                "test/helpers/shadow.bash",
                "assert_number() { :; }\nadd() { echo 3; }\n",
            ),
            ("test/helpers/command.bash", "run() { :; }\n"),
            (
                "test/helpers/early.bash",
                "helper() {\n  echo }\n}\nadd() { echo 3; }\n",
            ),
        ]);
        for line in ["load test_helper", "load test_helper.bash", "load 'test_helper'"] {
            let text = format!("setup() {{\n  {line}\n}}\n");
            assert_eq!(
                expanded(dir.path(), "test/calc.bats", Lang::Shell, &text).as_deref(),
                Some("setup() {\nload ../lib/calc.sh\n}\n"),
                "{line}"
            );
        }
        assert_eq!(
            expanded(dir.path(), "test/calc.bats", Lang::Shell, "load other\n").as_deref(),
            Some("source lib/util.sh\n")
        );
        assert_eq!(expanded(dir.path(), "test/calc.bats", Lang::Shell, "load code\n"), None);
        // A helper of functions named like no command and nothing the tests load is followed; one that redefines
        // the code under test, a command or bats' own, or that this reading cannot delimit, is not.
        assert_eq!(
            super::expanded_with_functions(dir.path(), "test/calc.bats", Lang::Shell, "load split\n").as_deref(),
            Some("load ../lib/calc.sh\n")
        );
        assert_eq!(
            super::expanded_with_functions(dir.path(), "test/calc.bats", Lang::Shell, "load shadow\n").as_deref(),
            Some("load ../lib/calc.sh\nload helpers/shadow\n")
        );
        for helper in ["helpers/command", "helpers/early"] {
            assert_eq!(
                super::expanded_with_functions(dir.path(), "test/calc.bats", Lang::Shell, &format!("load {helper}\n")),
                None,
                "{helper}"
            );
        }
        // A function the test file defines itself is taken too.
        assert_eq!(
            super::expanded_with_functions(
                dir.path(),
                "test/calc.bats",
                Lang::Shell,
                "assert_number() {\n  true\n}\nload helpers/assertions\n"
            ),
            None
        );
        // The first reading follows loads alone.
        assert_eq!(
            expanded(dir.path(), "test/calc.bats", Lang::Shell, "load split\n").as_deref(),
            Some("load ../lib/calc.sh\nload helpers/assertions\n")
        );
        assert_eq!(
            expanded(dir.path(), "test/calc.bats", Lang::Shell, "load \"$HELPER\"\n"),
            None
        );
    }
}
