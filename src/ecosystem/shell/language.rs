//! What the test-file scanner asks of the shell (`testsig::Language`): bats' `.bats` files.

use std::path::{Path, PathBuf};

use crate::testsig::lex::Lexed;
use crate::testsig::{Lang, Load};

super::syntax! {
    lang: Lang::Shell,
    lex: crate::testsig::lex::shell::lex,
    units: super::super::shell::units,
    marker: crate::testsig::markers::shell::at;

    /// bats runs `.bats` files, wherever they are; a `.sh` file is code.
    fn is_test_name(&self, _name: &str, _stem: &str) -> bool {
        true
    }

    /// bats' `load NAME` (`NAME.bash`, else `NAME`, under the test file's directory, whichever file calls it)
    /// and `source PATH` / `. PATH` (from where bats runs), each of one literal word: no `$`, quote inside,
    /// glob or second word.
    fn load_line(&self, line: &str, dir: &Path) -> Option<Load> {
        shell_load(line, dir)
    }

    /// A helper of functions alone (`shell/sourced.rs` delimits them by their braces).
    fn helper_functions(&self, text: &str) -> Option<Vec<String>> {
        crate::testsig::lex::shell::only_functions(text)
    }

    fn defined_functions(&self, text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|line| crate::testsig::lex::shell::function_name(line.trim_start()))
            .map(str::to_string)
            .collect()
    }

    /// A command or builtin (`shell/sourced.rs`), or one of bats' own functions and hooks.
    fn names_a_command(&self, name: &str) -> bool {
        BATS_OWN.contains(&name)
            || super::super::shell::SETUP.contains(&name)
            || name.starts_with("bats") || crate::testsig::lex::shell::is_command(name)
    }

    /// `load "$BATS_TEST_DIRNAME/x"`, `load "${BATS_TEST_DIRNAME}/x"`, `load 'x'` and `load "x"` are `load x`:
    /// bats resolves a relative name against the test file's directory, which it sets as `$BATS_TEST_DIRNAME`,
    /// so each names the same candidates. `source "$BATS_TEST_DIRNAME/x"` (or `.`) is `load x` too: it reads `x`,
    /// which `load x` also reads unless an `x.bash` stands beside it — and where a sealed test's `load` read `x`,
    /// that twin is sealed as absent (`closure::derive`, bats' rule). Anything else stays as written.
    fn load_spelling(&self, lx: &Lexed, i: usize) -> Option<String> {
        load_spelling(lx, i)
    }
}

/// bats' own functions a test calls by name (besides its hooks, `SETUP`; its internal ones start with `bats`).
const BATS_OWN: &[&str] = &["run", "load", "skip"];

fn shell_load(line: &str, dir: &Path) -> Option<Load> {
    let mut words = line.split_whitespace();
    let (verb, word, rest) = (words.next()?, words.next()?, words.next());
    let name = word
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .or_else(|| word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))
        .unwrap_or(word);
    let literal = !name.is_empty()
        && !name.starts_with('/')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '+'));
    if rest.is_some() || !literal {
        return None;
    }
    let candidates = match verb {
        "load" => vec![dir.join(format!("{name}.bash")), dir.join(name)],
        "source" | "." => vec![PathBuf::from(name)],
        _ => return None,
    };
    Some(Load {
        candidates,
        relative_to_loader: false,
    })
}

/// The spellings of bats' test directory at the start of a quoted path.
const TEST_DIR: [&str; 2] = ["$BATS_TEST_DIRNAME/", "${BATS_TEST_DIRNAME}/"];

/// A word's text as a path, unquoted, with a leading test directory dropped (and whether it had one); `None`
/// where anything else in it expands or escapes.
fn plain_path(word: &str) -> Option<(&str, bool)> {
    let inner = word
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .or_else(|| word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')))
        .unwrap_or(word);
    let (path, in_test_dir) = match TEST_DIR.iter().find_map(|dir| inner.strip_prefix(dir)) {
        Some(rest) if word.starts_with('"') => (rest, true),
        _ => (inner, false),
    };
    let plain = !path.is_empty()
        && !path.starts_with('/')
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '+'));
    plain.then_some((path, in_test_dir))
}

/// See `Syntax::load_spelling`.
fn load_spelling(lx: &Lexed, i: usize) -> Option<String> {
    let verb = |at: usize| lx.s(at);
    let sources_test_dir = |at: usize| {
        matches!(verb(at), "source" | ".")
            && lx.toks.get(at + 1).is_some_and(|next| next.line == lx.toks[at].line)
            && plain_path(lx.s(at + 1)).is_some_and(|(_, in_test_dir)| in_test_dir)
    };
    if sources_test_dir(i) {
        return Some("load".to_string());
    }
    let after_load =
        i > 0 && lx.toks[i - 1].line == lx.toks[i].line && (verb(i - 1) == "load" || sources_test_dir(i - 1));
    if !after_load {
        return None;
    }
    let (path, _) = plain_path(lx.s(i))?;
    (path != lx.s(i)).then(|| path.to_string())
}
