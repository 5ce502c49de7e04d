//! Shell patterns in command words: brace expansion and `*` / `?` / `[…]` globs, matched one path component
//! at a time as the shell does (a leading `.` is only matched by a literal `.`).
//!
//! A pattern is a slice of `(char, active)`: `active` is false for characters that were quoted or came from
//! a variable, which are always literal.

/// A pattern character and whether it may act as a metacharacter.
pub(crate) type PChar = (char, bool);

/// At most this many words come out of one brace expansion.
const MAX_BRACE: usize = 64;
/// Brace lists nested or chained deeper than this are left unexpanded.
const MAX_BRACE_DEPTH: usize = 16;

/// Whether the word would be globbed by the shell.
pub(crate) fn has_glob(p: &[PChar]) -> bool {
    p.iter().any(|&(c, active)| active && matches!(c, '*' | '?' | '['))
}

/// `a{b,c}d` → `abd`, `acd` (nested too); words without a brace list come back unchanged.
pub(crate) fn expand_braces(word: &[PChar]) -> Vec<Vec<PChar>> {
    let mut out = Vec::new();
    braces_into(word, &mut out, 0);
    if out.is_empty() {
        out.push(word.to_vec());
    }
    out
}

fn braces_into(word: &[PChar], out: &mut Vec<Vec<PChar>>, depth: usize) {
    if out.len() >= MAX_BRACE {
        return;
    }
    let Some((open, close, commas)) = first_list(word).filter(|_| depth <= MAX_BRACE_DEPTH) else {
        out.push(word.to_vec());
        return;
    };
    let mut start = open + 1;
    for end in commas.into_iter().chain([close]) {
        if out.len() >= MAX_BRACE {
            return;
        }
        let mut alt = word[..open].to_vec();
        alt.extend_from_slice(&word[start..end]);
        alt.extend_from_slice(&word[close + 1..]);
        braces_into(&alt, out, depth + 1);
        start = end + 1;
    }
}

/// The leftmost brace list with a top-level comma: its `{`, its `}` and the commas, found in one pass.
fn first_list(word: &[PChar]) -> Option<(usize, usize, Vec<usize>)> {
    // Open braces with their top-level commas; the completed list that opens first wins.
    let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut best: Option<(usize, usize, Vec<usize>)> = None;
    for (i, &(c, active)) in word.iter().enumerate() {
        match (c, active) {
            ('{', true) => stack.push((i, Vec::new())),
            (',', true) => {
                if let Some((_, commas)) = stack.last_mut() {
                    commas.push(i);
                }
            }
            ('}', true) => {
                if let Some((open, commas)) = stack.pop()
                    && !commas.is_empty()
                    && best.as_ref().is_none_or(|b| open < b.0)
                {
                    best = Some((open, i, commas));
                }
            }
            _ => {}
        }
    }
    best
}

/// Whether the pattern component `p` matches the file name `name`.
pub(crate) fn component_matches(p: &[PChar], name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    let leading_meta = p
        .first()
        .is_some_and(|&(c, active)| active && matches!(c, '*' | '?' | '['));
    if name.first() == Some(&'.') && leading_meta {
        return false;
    }
    matches(p, &name)
}

/// Glob match with `*` backtracking.
fn matches(p: &[PChar], n: &[char]) -> bool {
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if let Some(&(c, active)) = p.get(pi) {
            if active && c == '*' {
                star = Some((pi, ni));
                pi += 1;
                continue;
            }
            if let Some(width) = single(&p[pi..], n[ni]) {
                pi += width;
                ni += 1;
                continue;
            }
        }
        match star {
            Some((sp, sn)) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&pc| pc == ('*', true))
}

/// If the pattern item at the start of `p` matches `c`, how many pattern characters it spans.
fn single(p: &[PChar], c: char) -> Option<usize> {
    match *p.first()? {
        ('?', true) => Some(1),
        ('[', true) => match class(p, c) {
            Some((true, width)) => Some(width),
            Some((false, _)) => None,
            None => (c == '[').then_some(1),
        },
        (lit, _) => (lit == c).then_some(1),
    }
}

/// `[…]` at the start of `p`: whether it matches `c` and its width; `None` if it is not closed.
fn class(p: &[PChar], c: char) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(p.get(i), Some(&('!' | '^', true)));
    if negate {
        i += 1;
    }
    let first = i;
    let mut hit = false;
    while let Some(&(pc, active)) = p.get(i) {
        if pc == ']' && active && i > first {
            return Some((hit != negate, i + 1));
        }
        if let (Some(&('-', true)), Some(&(hi, _))) = (p.get(i + 1), p.get(i + 2))
            && hi != ']'
        {
            hit |= (pc..=hi).contains(&c);
            i += 3;
        } else {
            hit |= pc == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(s: &str) -> Vec<PChar> {
        s.chars().map(|c| (c, true)).collect()
    }

    fn text(p: &[PChar]) -> String {
        p.iter().map(|&(c, _)| c).collect()
    }

    #[test]
    fn braces_expand() {
        let got: Vec<String> = expand_braces(&pat("a{b,c{d,e}}f")).iter().map(|p| text(p)).collect();
        assert_eq!(got, ["abf", "acdf", "acef"]);
        assert_eq!(expand_braces(&pat("x{}y")).len(), 1);
        let quoted: Vec<PChar> = "{a,b}".chars().map(|c| (c, false)).collect();
        assert_eq!(expand_braces(&quoted).len(), 1);
    }

    #[test]
    fn globs_match_components() {
        assert!(component_matches(&pat("*.rs"), "parser.rs"));
        assert!(component_matches(&pat("pua-loop.*"), "pua-loop.local.md"));
        assert!(component_matches(&pat("p?rser.[a-r]s"), "parser.rs"));
        assert!(component_matches(&pat("[!x]*"), "tests"));
        assert!(!component_matches(&pat("*"), ".claude"));
        assert!(component_matches(&pat(".c*"), ".claude"));
        assert!(!component_matches(&pat("*.rs"), "parser.rsx"));
        let quoted: Vec<PChar> = "*".chars().map(|c| (c, false)).collect();
        assert!(!component_matches(&quoted, "x"));
    }
}
