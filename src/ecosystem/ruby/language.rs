//! What the test-file scanner asks of Ruby (`testsig::Language`): minitest's and RSpec's file names, and the
//! methods a later definition replaces.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::testsig::{Lang, Load, UnitKind};

super::syntax! {
    lang: Lang::Ruby,
    lex: crate::testsig::lex::ruby::lex,
    units: super::super::ruby::units,
    marker: crate::testsig::markers::ruby::at;

    /// minitest's `*_test.rb` / `test_*.rb`, RSpec's `*_spec.rb`; anywhere under `test/` or `spec/` (helpers such
    /// as `test_helper.rb`, `spec/support/*.rb` included) is read by `testsig::is_test_file`.
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec")
    }

    /// A method defined again in its class replaces the first (`def test_adds` twice); a group opened again
    /// (`describe Calc` twice, a class reopened) adds to it.
    fn redefines(&self, kind: UnitKind) -> bool {
        matches!(kind, UnitKind::Test | UnitKind::Helper)
    }

    /// `require "x"` (the load path: the test's directory, `test/`, `spec/`, `lib/`, as rake's `TestTask` and
    /// RSpec put them on it), `require_relative "x"` (the file's own directory) and `load "x.rb"`, each of one
    /// plain string literal; not one behind a modifier or with code after it.
    fn load_line(&self, line: &str, dir: &Path) -> Option<Load> {
        ruby_load(line, dir)
    }

    /// `'a'` and `"a"` are one string where nothing in it interpolates or escapes (RuboCop's
    /// `Style/StringLiterals` switches them); `norm` keeps a `#` or a backslash by its quotes.
    fn strings_by_value(&self) -> bool {
        true
    }

    /// `#` interpolates between double quotes (`"#{x}"`), not between single ones.
    fn quote_sensitive(&self) -> &'static [char] {
        &['#']
    }

    /// `eq(3)` is `eq 3` (RuboCop's `Style/MethodCallWithArgsParentheses` adds them, authors drop them), where
    /// both spellings are one call (`norm`).
    fn optional_call_parens(&self) -> bool {
        true
    }
}

/// A whole line that loads one literal path: the keyword and the path.
static LOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r##"^(require|require_relative|load)\s*\(?\s*(?:"([^"#\\]+)"|'([^'\\]+)')\s*\)?\s*;?$"##)
        .expect("a valid pattern")
});

fn ruby_load(line: &str, dir: &Path) -> Option<Load> {
    let found = LOAD.captures(line.trim())?;
    let name = found.get(2).or_else(|| found.get(3))?.as_str();
    if name.starts_with('/') {
        return None;
    }
    let file = if name.ends_with(".rb") {
        name.to_string()
    } else {
        format!("{name}.rb")
    };
    let (candidates, relative_to_loader) = match &found[1] {
        "require_relative" => (vec![dir.join(&file)], true),
        "load" => (vec![PathBuf::from(name), dir.join(name)], false),
        _ if name.starts_with("./") || name.starts_with("../") => (vec![PathBuf::from(&file)], false),
        _ => (
            ["", "test", "spec", "lib"]
                .iter()
                .map(|base| {
                    if base.is_empty() {
                        dir.join(&file)
                    } else {
                        Path::new(base).join(&file)
                    }
                })
                .collect(),
            false,
        ),
    };
    Some(Load {
        candidates,
        relative_to_loader,
    })
}
