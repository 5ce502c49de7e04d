//! Python's imports (`testsig::imports`): `import a.b as c, d` and `from m import (x, y as z)`, and which of
//! them rebind the names pytest and unittest tests rely on.

use std::ops::Range;

use super::{Import, items, sorted, text};
use crate::testsig::lex::Lexed;

/// Names pytest and unittest tests rely on, and the modules that may bind them.
const PY_RESERVED: [&str; 10] = [
    "pytest", "unittest", "TestCase", "mock", "fixture", "mark", "raises", "approx", "skip", "param",
];
const PY_FRAMEWORKS: [&str; 5] = ["pytest", "_pytest", "unittest", "mock", "pytest_asyncio"];

/// `import a.b as c, d` or `from m import (x, y as z)`: tokens `range` of the statement's logical lines.
pub(crate) fn import(lx: &Lexed, range: Range<usize>) -> Option<Import> {
    let s = range.start;
    let (module, list) = if lx.is_word(s, "import") {
        ("import".to_string(), s + 1..range.end)
    } else {
        let at = (s..range.end).find(|&i| lx.is_word(i, "import"))?;
        (text(lx, s + 1, at), at + 1..range.end)
    };
    let list = if lx.is(list.start, b'(') {
        list.start + 1..lx.partner(list.start)?.min(range.end)
    } else {
        list
    };
    let mut suspicious = false;
    let mut names = Vec::new();
    for item in items(lx, list) {
        let bound_at = if lx.is_word(item.end.saturating_sub(2), "as") {
            item.end - 1
        } else {
            item.start
        };
        let origin = if module == "import" {
            lx.s(item.start)
        } else {
            module.split('.').next().unwrap_or("")
        };
        suspicious |= PY_RESERVED.contains(&lx.s(bound_at)) && !PY_FRAMEWORKS.contains(&origin);
        names.push(text(lx, item.start, item.end));
    }
    Some(Import {
        module,
        names: sorted(names),
        suspicious,
    })
}
