//! Globs as JavaScript's runners match them (picomatch, with `dot: true`: Jest's `testMatch` through
//! `jest-util`'s `globsToMatcher`, Vitest's `include` and `exclude` through tinyglobby), turned into a regular
//! expression over a whole `/`-separated path, so a widened selection can be walked exactly (`closure::selection`).
//!
//! What is spelled: `*` and `?` within a segment, a `**` segment (any number of segments, dotted ones
//! included), `[…]` classes, `{a,b}` alternatives (nested, expanded before translating),
//! backslash escapes, and the extglobs `?(…)`, `*(…)`, `+(…)`, `@(…)` — Jest's default
//! `**/?(*.)+(spec|test).[jt]s?(x)` and Vitest's `**/*.{test,spec}.?(c|m)[jt]s?(x)` among them. What is not
//! (`!(…)`, a leading `!`, a negated class `[!j]` — which picomatch reads otherwise than a shell —, a range `{1..3}`, a `/` inside an extglob, an unclosed bracket) is `None`: the caller
//! cannot say what it selects, so the selection counts whole. Fail closed, never a guess.

/// The most alternatives a glob's braces may expand to.
const MAX_ALTERNATIVES: usize = 256;

/// A glob compiled to match whole paths.
#[derive(Clone, Debug)]
pub(crate) struct Glob(regex::Regex);

impl Glob {
    /// The glob, or `None` where it uses syntax this matcher does not spell (see the module docs).
    pub(crate) fn new(glob: &str) -> Option<Glob> {
        if glob.starts_with('!') || glob.contains("!(") {
            return None;
        }
        let alternatives = expand(glob)?;
        let mut pattern = String::from("^(?:");
        for (i, alternative) in alternatives.iter().enumerate() {
            if i > 0 {
                pattern.push('|');
            }
            pattern.push_str(&path_regex(alternative)?);
        }
        pattern.push_str(")$");
        regex::Regex::new(&pattern).ok().map(Glob)
    }

    /// Whether the glob matches `path` whole (`/`-separated).
    pub(crate) fn is_match(&self, path: &str) -> bool {
        self.0.is_match(path)
    }
}

/// `glob` with every `{…,…}` expanded (`a/{b,c}/*.js` → `a/b/*.js`, `a/c/*.js`); `None` past
/// [`MAX_ALTERNATIVES`], at a range, or at a brace that does not close.
fn expand(glob: &str) -> Option<Vec<String>> {
    let bytes = glob.as_bytes();
    let mut open = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => {
                open = Some(i);
                break;
            }
            b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    let Some(start) = open else {
        return Some(vec![glob.to_string()]);
    };
    // The matching close, and the top-level commas between.
    let (mut depth, mut commas, mut end) = (0usize, Vec::new(), None);
    let mut j = start;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(j);
                    break;
                }
            }
            b',' if depth == 1 => commas.push(j),
            _ => {}
        }
        j += 1;
    }
    let end = end?;
    if commas.is_empty() {
        // `{a}` and `{1..3}`: picomatch reads them otherwise (literally, a range).
        return None;
    }
    let (head, tail) = (&glob[..start], &glob[end + 1..]);
    let mut bounds = vec![start];
    bounds.extend(&commas);
    bounds.push(end);
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let inner = &glob[pair[0] + 1..pair[1]];
        for expanded in expand(&format!("{head}{inner}{tail}"))? {
            out.push(expanded);
            if out.len() > MAX_ALTERNATIVES {
                return None;
            }
        }
    }
    Some(out)
}

/// The regular expression of a brace-free glob over a whole path, segment by segment.
fn path_regex(glob: &str) -> Option<String> {
    let segments = split_segments(glob)?;
    let mut out = String::new();
    let last = segments.len() - 1;
    for (i, segment) in segments.iter().enumerate() {
        if *segment == "**" {
            if i == last {
                out.push_str(".*");
            } else {
                // Zero or more whole segments, each followed by its slash.
                out.push_str("(?:[^/]*/)*");
            }
            continue;
        }
        out.push_str(&segment_regex(segment)?);
        if i != last {
            out.push('/');
        }
    }
    Some(out)
}

/// `glob` cut at each `/` outside brackets and extglob parentheses; `None` at a `/` inside either.
fn split_segments(glob: &str) -> Option<Vec<&str>> {
    let bytes = glob.as_bytes();
    let (mut segments, mut start, mut depth, mut i) = (Vec::new(), 0, 0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => depth = depth.checked_sub(1)?,
            b'/' if depth > 0 => return None,
            b'/' => {
                segments.push(&glob[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (depth == 0).then_some(())?;
    segments.push(&glob[start..]);
    Some(segments)
}

/// The regular expression of one segment (no `/`): `*`, `?`, classes, escapes and extglobs.
fn segment_regex(segment: &str) -> Option<String> {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if matches!(c, '?' | '*' | '+' | '@') && next == Some('(') {
            let close = closing_paren(&chars, i + 1)?;
            let inner: String = chars[i + 2..close].iter().collect();
            let alternatives = split_alternatives(&inner)
                .into_iter()
                .map(|alt| segment_regex(&alt))
                .collect::<Option<Vec<_>>>()?;
            let quantifier = match c {
                '?' => "?",
                '*' => "*",
                '+' => "+",
                _ => "",
            };
            out.push_str(&format!("(?:{}){quantifier}", alternatives.join("|")));
            i = close + 1;
            continue;
        }
        match c {
            '\\' => {
                let escaped = next?;
                out.push_str(&regex::escape(&escaped.to_string()));
                i += 2;
                continue;
            }
            '*' => {
                // `**` inside a segment is one `*`.
                while chars.get(i + 1) == Some(&'*') {
                    i += 1;
                }
                out.push_str("[^/]*");
            }
            '?' => out.push_str("[^/]"),
            '[' => {
                let (class, end) = class_regex(&chars, i)?;
                out.push_str(&class);
                i = end + 1;
                continue;
            }
            '(' | ')' | '|' => return None,
            other => out.push_str(&regex::escape(&other.to_string())),
        }
        i += 1;
    }
    Some(out)
}

/// The index of the `)` closing the `(` at `open`.
fn closing_paren(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// An extglob's body cut at its top-level `|`.
fn split_alternatives(inner: &str) -> Vec<String> {
    let (mut out, mut current, mut depth, mut escaped) = (Vec::new(), String::new(), 0usize, false);
    for c in inner.chars() {
        if escaped {
            current.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out
}

/// The class opening at `open` as a regular expression class that never matches `/`, and the index of its `]`.
fn class_regex(chars: &[char], open: usize) -> Option<(String, usize)> {
    let mut i = open + 1;
    // A negated class: picomatch reads `[!j]` otherwise than a shell does (measured: `*.[!j]s` matches `a.js`).
    if matches!(chars.get(i), Some('!' | '^')) {
        return None;
    }
    let mut out = String::from("[");
    let mut first = true;
    while i < chars.len() {
        let c = chars[i];
        if c == ']' && !first {
            // Never a `/`: a class matches within a segment.
            out.push_str("&&[^/]]");
            return Some((out, i));
        }
        first = false;
        match c {
            '\\' => {
                out.push_str(&regex::escape(&chars.get(i + 1)?.to_string()));
                i += 2;
                continue;
            }
            '-' if i > open + 1 && chars.get(i + 1).is_some_and(|n| *n != ']') => out.push('-'),
            c if c.is_ascii_alphanumeric() => out.push(c),
            c => {
                out.push('\\');
                out.push(c);
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
#[path = "glob/tests.rs"]
mod tests;
