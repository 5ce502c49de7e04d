//! Go's imports (`testsig::imports`): one path per line, and blank imports, which run a package's `init` only.

use super::{Import, sorted, text};
use crate::testsig::lex::Lexed;

/// `import "fmt"`, `import f "fmt"` or an import block, one path per line. A blank import (`_ "pkg"`) runs the
/// package's `init` only.
pub(crate) fn import(lx: &Lexed, s: usize, end: usize) -> Option<Import> {
    let (from, to) = if lx.is(s + 1, b'(') {
        (s + 2, lx.partner(s + 1)?.min(end))
    } else {
        (s + 1, end)
    };
    let mut names = Vec::new();
    let mut start = from;
    for i in from..to {
        let last_on_line = i + 1 == to || lx.toks[i + 1].line > lx.toks[i].end_line || lx.is(i + 1, b';');
        if lx.is(i, b';') {
            start = i + 1;
        } else if last_on_line {
            names.push(text(lx, start, i + 1));
            start = i + 1;
        }
    }
    let suspicious = names.iter().any(|name| name.starts_with("_ "));
    Some(Import {
        module: "import".to_string(),
        names: sorted(names),
        suspicious,
    })
}
