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
//! A load that names its file relative to the file it is written in (Ruby's `require_relative`) is followed out
//! of a helper only when the helper sits in the test file's directory, where it names the same file.
//!
//! This decides a finding only. In the oracle's run the existing test file stands as sealed and the new helper
//! sits out (`testswap`), so whatever a followed helper loads never reaches the baseline's tests there.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use crate::testsig::{Lang, Language};

/// How deep helpers are followed into helpers.
const MAX_DEPTH: usize = 4;

/// `text` (the test file `path`, project-relative, as it is now) with every line that loads a helper made only
/// of loads replaced by those loads; `None` when no line was.
pub(crate) fn expanded(root: &Path, path: &str, lang: Lang, text: &str) -> Option<String> {
    let language = crate::testsig::language(lang);
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let mut seen = BTreeSet::from([PathBuf::from(path)]);
    let out = expand(root, dir, language, text, &mut seen, 0);
    (out != text).then_some(out)
}

fn expand(
    root: &Path,
    dir: &Path,
    language: &dyn Language,
    text: &str,
    seen: &mut BTreeSet<PathBuf>,
    depth: usize,
) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let helper = (depth < MAX_DEPTH)
            .then(|| helper_of(root, dir, language, line, seen))
            .flatten();
        match helper {
            Some((file, loads)) => {
                seen.insert(file);
                out.push_str(&expand(root, dir, language, &loads, seen, depth + 1));
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
) -> Option<(PathBuf, String)> {
    let load = language.load_line(line, dir)?;
    let file = load
        .candidates
        .iter()
        .filter_map(|candidate| normalize(candidate))
        .find(|candidate| {
            std::fs::symlink_metadata(root.join(candidate)).is_ok_and(|meta| meta.file_type().is_file())
        })?;
    if seen.contains(&file) {
        return None;
    }
    let text = std::fs::read_to_string(root.join(&file)).ok()?;
    let beside = file.parent() == Some(dir);
    let mut loads = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let inner = language.load_line(line, dir)?;
        if inner.relative_to_loader && !beside {
            return None;
        }
        loads.push_str(line);
        loads.push('\n');
    }
    (!loads.is_empty()).then_some((file, loads))
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
        assert_eq!(
            expanded(dir.path(), "test/calc.bats", Lang::Shell, "load \"$HELPER\"\n"),
            None
        );
    }
}
