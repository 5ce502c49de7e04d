//! Rust's `use` declarations (`testsig::imports`), and which of them shadow the standard check macros.

use super::{Import, items, sorted, text};
use crate::testsig::lex::Lexed;

/// `use a::b::{c, d as e};` or `use a::b;`: `h` is at `use`, `end` past the `;`.
pub(crate) fn import(lx: &Lexed, h: usize, end: usize) -> Option<Import> {
    let end = if lx.is(end.saturating_sub(1), b';') {
        end - 1
    } else {
        end
    };
    let group = (h + 1..end).find(|&i| lx.is(i, b'{'));
    let (module, names) = match group {
        Some(open) => {
            let close = lx.partner(open).unwrap_or(end).min(end);
            let path_end = if lx.is(open.saturating_sub(1), b':') {
                open.saturating_sub(2)
            } else {
                open
            };
            let names = items(lx, open + 1..close)
                .into_iter()
                .map(|item| text(lx, item.start, item.end));
            (text(lx, h + 1, path_end.max(h + 1)), names.collect())
        }
        None => {
            let last_sep = (h + 1..end)
                .rev()
                .find(|&i| lx.is(i, b':') && lx.is(i.saturating_sub(1), b':'));
            match last_sep {
                Some(sep) => (text(lx, h + 1, sep - 1), vec![text(lx, sep + 1, end)]),
                None => (String::new(), vec![text(lx, h + 1, end)]),
            }
        }
    };
    // `use fake::assert_eq;` shadows the standard macro.
    let suspicious = names.iter().any(|name| {
        let bound = name.rsplit([' ', ':']).next().unwrap_or(name);
        crate::testsig::rust::check_macro(bound)
    });
    Some(Import {
        module,
        names: sorted(names),
        suspicious,
    })
}
