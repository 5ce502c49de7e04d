//! What the test-file scanner asks of PHP (`testsig::Language`): PHPUnit's file names, and its data providers,
//! whose returned lists are tables of test cases.

use std::ops::Range;

use crate::testsig::Lang;
use crate::testsig::lex::{Lexed, TokKind};
use crate::testsig::table::list_rows;

super::syntax! {
    lang: Lang::Php,
    lex: crate::testsig::lex::php::lex,
    units: super::super::php::units,
    marker: crate::testsig::markers::php::at;

    /// PHPUnit's default suffix (`Test.php`); a configured one is read by `testseal::rules`.
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.ends_with("Test")
    }

    /// A data provider's returned list: `return [...]` or `return array(...)`.
    fn table_rows(&self, lx: &Lexed, i: usize, unit_start: usize, out: &mut Vec<Range<usize>>) -> usize {
        if lx.is_word(i, "return") && super::super::php::provides(lx, unit_start) {
            let list = if lx.is_word(i + 1, "array") { i + 2 } else { i + 1 };
            list_rows(lx, list, out);
        }
        i + 1
    }

    fn declared_tables(&self, lx: &Lexed) -> Vec<String> {
        super::super::php::providers(lx)
    }

    /// A docblock (`/** … */`) is its lines without the comment's frame: `/** @dataProvider sums */` and the
    /// same annotation on a line of its own between `/**` and ` */` (a formatter's `phpdoc_line_span`) are read
    /// alike by PHPUnit. Every line of text stays, in order: an annotation's value may go on over the next
    /// lines (`@testWith`'s rows).
    fn load_spelling(&self, lx: &Lexed, i: usize) -> Option<String> {
        let text = lx.s(i);
        (lx.kind(i) == Some(TokKind::Str) && text.starts_with("/**")).then(|| docblock_lines(text))
    }
}

/// The lines of docblock `text`, each without its frame (`/**`, `*/`, a leading `*`) and with its words one space
/// apart, the empty ones left out.
fn docblock_lines(text: &str) -> String {
    let inner = text.strip_prefix("/**").unwrap_or(text);
    let inner = inner.strip_suffix("*/").unwrap_or(inner);
    let lines: Vec<String> = inner
        .lines()
        .map(|line| {
            line.trim_start()
                .trim_start_matches('*')
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|line| !line.is_empty())
        .collect();
    format!("/**{}*/", lines.join("\n"))
}
