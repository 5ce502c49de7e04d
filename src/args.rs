//! Splitting the raw text of `/pua-loop …` into setup flags and the task, without a shell.
//!
//! The slash command hands loopgate the user's words untouched (a quoted here-document), so nothing the user
//! typed is ever evaluated. This module reads them the way a user means them: the flags setup knows, each with a
//! value in `'…'`, `"…"` or bare (or `--flag=value`); `--` ends the flags; everything else is the task,
//! verbatim. A quote only opens a quoted value at the start of a word and only closes before white space or the
//! end, so apostrophes and backticks in prose (`it's`, `` fix `parse()` ``) are plain text. A task given as one
//! quoted string loses its quotes; loose words are kept exactly as typed, line breaks included.

/// A flag setup understands, and whether it takes a value.
pub struct FlagSpec {
    pub name: String,
    pub takes_value: bool,
}

/// The result of splitting: flags in order (as `--name` and value) and the task text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub flags: Vec<(String, Option<String>)>,
    pub task: String,
}

#[derive(Debug)]
struct Token {
    /// The word with quotes removed.
    text: String,
    start: usize,
    end: usize,
    quoted: bool,
}

/// Splits `raw` into known flags and the task. Errors are one line naming the flag.
pub fn split(raw: &str, known: &[FlagSpec]) -> Result<Split, String> {
    let tokens = tokenize(raw);
    let mut split = Split::default();
    let mut task_runs: Vec<(usize, usize)> = Vec::new();
    let mut task_tokens: Vec<&Token> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let token = &tokens[i];
        i += 1;
        if !token.quoted && token.text == "--" {
            let rest = raw[token.end..].trim();
            if !rest.is_empty() {
                task_runs.push((
                    raw.len() - raw[token.end..].trim_start().len(),
                    token.end + raw[token.end..].trim_end().len(),
                ));
            }
            break;
        }
        let flag = (!token.quoted && token.text.starts_with("--"))
            .then(|| lookup(&token.text, known))
            .flatten();
        let Some((spec, inline)) = flag else {
            if !token.quoted
                && token.text.len() > 2
                && let Some(near) = nearest(&token.text, known)
            {
                return Err(format!("unknown flag `{}` (did you mean `{near}`?)", token.text));
            }
            if !token.quoted && looks_like_flag(&token.text) {
                let name = token.text.split('=').next().unwrap_or_default();
                return Err(format!(
                    "unknown flag `{name}`: setup has no such flag (`loopgate setup --help` lists them); if it belongs to the task, quote the task (\"…\") or put it after `--`"
                ));
            }
            task_tokens.push(token);
            match task_runs.last_mut() {
                Some(run) if tokens[..i - 1].last().is_some_and(|prev| prev.end == run.1) => run.1 = token.end,
                _ => task_runs.push((token.start, token.end)),
            }
            continue;
        };
        let value = if !spec.takes_value {
            None
        } else if let Some(value) = inline {
            Some(value)
        } else {
            let value = tokens
                .get(i)
                .ok_or_else(|| format!("`--{}` needs a value", spec.name))?;
            i += 1;
            if let Some(unit) = loose_unit(spec, value, tokens.get(i)) {
                return Err(format!(
                    "`--{} {} {unit}`: a unit goes in the value, as one word (`90s`, `45m`, `8h`, `2d`); `{unit}` is not task text",
                    spec.name, value.text
                ));
            }
            Some(value.text.clone())
        };
        split.flags.push((format!("--{}", spec.name), value));
    }
    split.task = match task_tokens.as_slice() {
        [only] if only.quoted && task_runs.len() == 1 => only.text.clone(),
        _ => task_runs.iter().map(|&(s, e)| &raw[s..e]).collect::<Vec<_>>().join(" "),
    };
    Ok(split)
}

/// Matches `--name` or `--name=value` against the known flags.
fn lookup<'a>(word: &str, known: &'a [FlagSpec]) -> Option<(&'a FlagSpec, Option<String>)> {
    let body = &word[2..];
    let (name, inline) = match body.split_once('=') {
        Some((name, value)) => (name, Some(unquote(value))),
        None => (body, None),
    };
    let spec = known.iter().find(|spec| spec.name == name)?;
    if inline.is_some() && !spec.takes_value {
        return None;
    }
    Some((spec, inline))
}

/// Flags whose value is a length of time.
const DURATION_FLAGS: [&str; 2] = ["max-duration", "verify-timeout"];
/// Words that name a unit of time (what a user types after a number: `5 years`, `10 min`).
const TIME_WORDS: [&str; 15] = [
    "s", "sec", "second", "min", "minute", "h", "hr", "hour", "d", "day", "week", "mo", "month", "yr", "year",
];

/// The unit word of a duration written in two words (`--max-duration 5 years`): a bare number, then a time
/// word (`years`, `min`, `hours`…), which would otherwise become task text and leave the number as seconds.
fn loose_unit<'a>(spec: &FlagSpec, value: &Token, next: Option<&'a Token>) -> Option<&'a str> {
    let next = next.filter(|next| !next.quoted && next.start > value.end)?;
    let word = next.text.to_ascii_lowercase();
    let singular = word.strip_suffix('s').filter(|w| !w.is_empty()).unwrap_or(&word);
    (DURATION_FLAGS.contains(&spec.name.as_str())
        && !value.quoted
        && value.text.chars().all(|c| c.is_ascii_digit())
        && (TIME_WORDS.contains(&word.as_str()) || TIME_WORDS.contains(&singular)))
    .then_some(next.text.as_str())
}

/// Whether an unquoted word is written as a flag: `--`, a letter, then letters, digits, `-` or `_` (and an
/// optional `=value`). Prose such as `-->` or `--1` is not.
fn looks_like_flag(word: &str) -> bool {
    let Some(body) = word.strip_prefix("--") else {
        return false;
    };
    let name = body.split('=').next().unwrap_or_default();
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A known flag within two edits of a mistyped one, for a helpful error.
fn nearest(word: &str, known: &[FlagSpec]) -> Option<String> {
    let name = word.strip_prefix("--")?;
    let name = name.split('=').next().unwrap_or_default();
    if !name.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        return None;
    }
    known
        .iter()
        .find(|spec| edit_distance(name, &spec.name) <= 2)
        .map(|spec| format!("--{}", spec.name))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let old = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(old + 1);
            prev = old;
        }
    }
    row[b.len()]
}

fn unquote(value: &str) -> String {
    for q in ['\'', '"'] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return value[1..value.len() - 1].to_string();
        }
    }
    value.to_string()
}

/// Words with byte spans. A quote opens only at a word start (or right after `=` in `--flag=`), and closes only
/// where white space or the end follows; otherwise it is an ordinary character.
fn tokenize(raw: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut pos = 0;
    while pos < raw.len() {
        let rest = &raw[pos..];
        let skipped = rest.len() - rest.trim_start().len();
        pos += skipped;
        if pos >= raw.len() {
            break;
        }
        let token = quoted_at(raw, pos).unwrap_or_else(|| bare_at(raw, pos));
        pos = token.end;
        tokens.push(token);
    }
    tokens
}

fn quoted_at(raw: &str, start: usize) -> Option<Token> {
    let quote = raw[start..].chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = start + 1;
    let mut text = String::new();
    let mut chars = raw[body..].char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if c == '\\'
            && quote == '"'
            && let Some(&(_, next)) = chars.peek().filter(|(_, n)| *n == '"' || *n == '\\')
        {
            text.push(next);
            chars.next();
            continue;
        }
        if c == quote {
            // The next quote of the same kind closes the value, as in a shell. If a word goes on after it, the
            // opening quote was an apostrophe in prose (`'90s`), not a quote: the word is bare.
            let end = body + offset + 1;
            let closes = raw[end..].chars().next().is_none_or(char::is_whitespace);
            return closes.then_some(Token {
                text,
                start,
                end,
                quoted: true,
            });
        }
        text.push(c);
    }
    None
}

fn bare_at(raw: &str, start: usize) -> Token {
    let rest = &raw[start..];
    // `--flag='a b'`: the value's quotes hold white space.
    if rest.starts_with("--")
        && let Some(eq) = rest.find('=').filter(|&eq| !rest[..eq].contains(char::is_whitespace))
        && let Some(inner) = quoted_at(raw, start + eq + 1)
    {
        let text = format!("{}{}", &rest[..=eq], &raw[start + eq + 1..inner.end]);
        return Token {
            text,
            start,
            end: inner.end,
            quoted: false,
        };
    }
    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    Token {
        text: rest[..len].to_string(),
        start,
        end: start + len,
        quoted: false,
    }
}

#[cfg(test)]
mod tests;
