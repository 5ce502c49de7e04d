//! What the test-file scanner asks of the shell (`testsig::Language`): bats' `.bats` files.

use std::path::{Path, PathBuf};

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
}

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
