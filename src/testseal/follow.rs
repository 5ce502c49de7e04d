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
//! The second reading also follows a line that requires every file of a literal glob (RSpec's
//! `Dir[File.join(__dir__, "support", "**", "*.rb")].sort.each { |f| require f }`, Rails' `Rails.root.glob(…)`:
//! `Language::glob_load`) in the file compared, judging each file it matches as a test-side helper ([`support`]):
//! one of loads stands for its loads; one new module of plain methods (`Language::support_module`), named like
//! no constant another Ruby file of the project defines or reopens, its methods named like nothing an example
//! answers to (`Language::names_a_command`) and nothing the project's other non-test files use, stands for
//! nothing, and `config.include` of it is dropped (`Language::without_includes`); any other file (a reopened
//! `Calc`, `RSpec::Matchers`, a `def self.`, a hook, a file outside `support/` the glob reaches) leaves the line
//! as it is, judged as code.
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
    let mut out = String::with_capacity(text.len());
    let mut modules = Vec::new();
    for line in text.split_inclusive('\n') {
        // A literal glob required file by file (the second reading only): its files, each a helper of loads or
        // one new module of methods (`support`).
        let support = functions
            .then(|| language.glob_load(line, dir))
            .flatten()
            .and_then(|glob| support(root, path, language, &glob, &mut seen, &reached));
        match support {
            Some((loads, defined)) => {
                out.push_str(&loads);
                modules.extend(defined);
            }
            None => out.push_str(&expand(root, dir, language, line, &mut seen, 0, &reached)),
        }
    }
    if !modules.is_empty() {
        out = language.without_includes(&out, &modules);
    }
    (out != text).then_some(out)
}

/// The files a literal glob require (`glob`, project-relative) loads, read as test-side helpers: each a helper
/// of loads (followed like one) or one new module of plain methods (`Language::support_module`) — named like no
/// constant any other Ruby file of the project defines or reopens (`Calc` of the code under test, `RSpec`,
/// `Minitest`), and its methods named like nothing an example already answers to (a matcher, `subject`,
/// `Object`'s own: `Language::names_a_command`) and nothing the other files of the project use (the code under
/// test's methods, the sealed specs' calls, the helper's own top-level methods). Such a module runs nothing where
/// it is loaded: its methods run only where a new test calls them, so it stands for nothing the existing tests
/// get, and mixing it into the examples (`config.include`) adds names no existing example calls. The loads of
/// the helpers of loads and the modules' names; `None` when a file is neither, the glob matches nothing, leaves
/// the project or reaches a link.
fn support(
    root: &Path,
    path: &str,
    language: &dyn Language,
    glob: &str,
    seen: &mut BTreeSet<PathBuf>,
    reached: &Reached,
) -> Option<(String, Vec<String>)> {
    let pattern = normalize(Path::new(glob))?;
    let pattern = pattern.to_string_lossy().replace('\\', "/");
    let matcher = globset::GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
        .ok()?
        .compile_matcher();
    let base: PathBuf = pattern
        .split('/')
        .take_while(|part| !part.contains(['*', '?', '[', '{']))
        .collect();
    let mut matched = Vec::new();
    let mut others = Vec::new();
    let mut linked = false;
    let _ = crate::walk::Walker::skipping(&[".git"]).sorted().walk(root, |file| {
        let of_language = Lang::of(Path::new(file.relative)) == Some(language.lang());
        if file.kind.is_symlink() && Path::new(file.relative).starts_with(&base) {
            linked = true;
        } else if matcher.is_match(file.relative) {
            matched.push(PathBuf::from(file.relative));
        } else if of_language {
            others.push(PathBuf::from(file.relative));
        }
        Ok(crate::walk::until(false))
    });
    if matched.is_empty() || linked {
        return None;
    }
    let other_texts: Vec<String> = others
        .iter()
        .filter_map(|file| std::fs::read_to_string(root.join(file)).ok())
        .collect();
    // The names the other files use, but test files' own (`*_spec.rb`): a new spec calls the new helpers by
    // name, and a sealed spec that calls one it never had defined runs in the oracle's run with the sealed
    // helper, which requires no support file.
    let used: BTreeSet<String> = others
        .iter()
        .zip(&other_texts)
        .filter(|(file, _)| !test_named(language, file))
        .flat_map(|(_, text)| language.names_used(text))
        .collect();
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let mut loads = String::new();
    let mut modules = Vec::new();
    for file in matched {
        let text = std::fs::read_to_string(root.join(&file)).ok()?;
        if let Some((name, methods)) = language.support_module(&text) {
            let fresh = !other_texts.iter().any(|other| language.defines_constant(other, &name));
            let free = methods
                .iter()
                .all(|method| !language.names_a_command(method) && !used.contains(method));
            if !(fresh && free) {
                return None;
            }
            seen.insert(file);
            modules.push(name);
            continue;
        }
        // A helper of loads: followed as the line `require "FILE"` would be.
        let line = format!("require \"./{}\"\n", file.to_string_lossy());
        let (file, inner) = helper_of(root, dir, language, &line, seen, reached)?;
        seen.insert(file);
        loads.push_str(&expand(root, dir, language, &inner, seen, 1, reached));
    }
    Some((loads, modules))
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
/// Whether `file` is named as a test file of `language` (`Language::is_test_name`).
pub(super) fn test_named(language: &dyn Language, file: &Path) -> bool {
    let part = |part: Option<&std::ffi::OsStr>| part.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    language.is_test_name(&part(file.file_name()), &part(file.file_stem()))
}

pub(super) fn normalize(path: &Path) -> Option<PathBuf> {
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

    /// `spec_helper.rb` with a glob require of `support/` and `config.include CalcHelpers`.
    const GLOB_HELPER: &str = "$LOAD_PATH.unshift File.expand_path(\"../lib\", __dir__)\nrequire \"calc\"\n\nDir[File.join(__dir__, \"support\", \"**\", \"*.rb\")].sort.each { |f| require f }\n\nRSpec.configure do |config|\n  config.include CalcHelpers\nend\n";

    const HELPERS: &str = "module CalcHelpers\n  def triple(x)\n    Calc.mul(x, 3)\n  end\nend\n";

    fn with_support(support: &[(&str, &str)]) -> Option<String> {
        let mut files = vec![
            (
                "lib/calc.rb",
                "module Calc\n  def self.add(a, b)\n    a + b\n  end\nend\n",
            ),
            (
                "spec/calc_spec.rb",
                "RSpec.describe Calc do\n  it \"adds\" do\n    expect(Calc.add(1, 2)).to eq 3\n  end\nend\n",
            ),
            ("spec/spec_helper.rb", GLOB_HELPER),
            (
                "spec/triple_spec.rb",
                "RSpec.describe \"triple\" do\n  it(\"x\") { expect(triple(4)).to eq 12 }\nend\n",
            ),
        ];
        files.extend_from_slice(support);
        let dir = project(&files);
        super::expanded_with_functions(dir.path(), "spec/spec_helper.rb", Lang::Ruby, GLOB_HELPER)
    }

    #[test]
    fn a_glob_required_support_module_of_new_methods_and_its_include_stand_for_nothing() {
        let expanded = with_support(&[("spec/support/calc_helpers.rb", HELPERS)]).expect("followed");
        assert!(
            !expanded.contains("Dir[") && !expanded.contains("include"),
            "{expanded}"
        );
        // A support file of loads stands for its loads.
        let expanded = with_support(&[
            ("spec/support/calc_helpers.rb", HELPERS),
            ("spec/support/loads.rb", "require \"set\"\n"),
        ])
        .expect("followed");
        assert!(expanded.contains("require \"set\""), "{expanded}");
    }

    #[test]
    fn a_support_file_that_reopens_the_code_or_rspec_or_shadows_a_matcher_or_a_helper_is_not_followed() {
        for (file, text) in [
            (
                "spec/support/calc_helpers.rb",
                "module Calc\n  def add(a, b)\n    a + b\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\n  def eq(x)\n    be_a(Integer)\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\n  def subject\n    3\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module RSpec::Matchers\n  def triple(x)\n    x\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\n  def self.triple(x)\n    x\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\n  def add(a, b)\n    a + b\n  end\nend\n",
            ),
            (
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\nend\nCalc.singleton_class.prepend(CalcHelpers)\n",
            ),
            (
                "spec/support/patch.rb",
                "RSpec.configure { |c| c.before { allow(Calc).to receive(:add).and_return(3) } }\n",
            ),
        ] {
            assert_eq!(with_support(&[(file, text)]), None, "{text}");
        }
    }

    #[test]
    fn the_glob_requires_rspec_and_rails_write_are_read() {
        use crate::testsig::language;
        let ruby = language(Lang::Ruby);
        let dir = std::path::Path::new("spec");
        for (line, glob) in [
            (
                "Dir[File.join(__dir__, \"support\", \"**\", \"*.rb\")].sort.each { |f| require f }",
                "spec/support/**/*.rb",
            ),
            (
                "Dir[File.expand_path(\"support/**/*.rb\", __dir__)].each { |file| require file }",
                "spec/support/**/*.rb",
            ),
            (
                "Dir[\"#{__dir__}/support/**/*.rb\"].sort.each { |f| require f }",
                "spec/support/**/*.rb",
            ),
            (
                "Dir[Rails.root.join(\"spec/support/**/*.rb\")].sort.each { |f| require f }",
                "spec/support/**/*.rb",
            ),
            (
                "Dir[Rails.root.join(\"spec\", \"support\", \"**\", \"*.rb\")].each { |f| require f }",
                "spec/support/**/*.rb",
            ),
            (
                "Rails.root.glob(\"spec/support/**/*.rb\").sort.each { |f| require f }",
                "spec/support/**/*.rb",
            ),
            (
                "Dir.glob(File.join(File.dirname(__FILE__), \"support\", \"*.rb\")).each(&method(:require))",
                "spec/support/*.rb",
            ),
        ] {
            assert_eq!(ruby.glob_load(line, dir).as_deref(), Some(glob), "{line}");
        }
        for line in [
            "Dir[File.join(__dir__, \"support\", \"**\", \"*.rb\")].each { |f| require g }",
            "Dir[File.join(__dir__, x, \"*.rb\")].each { |f| require f }",
            "Dir[ENV[\"SUPPORT\"]].each { |f| require f }",
        ] {
            assert_eq!(ruby.glob_load(line, dir), None, "{line}");
        }
    }
}
