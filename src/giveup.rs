//! Give-up and confusion detection: does the agent's last message give up, ask the user something, or name an
//! external blocker — without the `<loop-pause>` / `<loop-abort>` tag that would let the loop act on it?
//!
//! Inside a loop nobody answers a question: a message that ends "Which one should I keep?" or "You will need to
//! add the API key" just comes back to the agent as the next iteration. Such a stop is recorded (`gave_up`),
//! answered with guidance in the block reason (pause if truly blocked, else decide and keep going) and counted by
//! the stall breaker. Only called when the message carries no signal tag.
//!
//! How: code (fenced and inline) and quoted text are dropped — quoted errors (`permission denied`) are not the
//! agent's words — and the rest is split into sentences. Phrases of three kinds are looked for, in English and
//! Chinese (a sentence ending in a question addressed to the user counts as asking). A match is dropped when the
//! sentence goes on to a workaround ("…, so I mocked it"), when it is conditional ("if you need …", "to use it you
//! need to …"), or when a later sentence shows the agent moving on ("Next I'll …", "all tests pass now").
//! Invariant: pure and total — any input gives an answer, never a panic; ASCII-only lowercasing keeps byte offsets.
//!
//! Measured on `tests/fixtures/giveup/corpus.txt` (precision and recall in the README).

mod patterns;

use patterns::{PATTERNS, Patterns};

/// What the message does instead of pausing or aborting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// "I cannot fix this", "I give up", "I'm stuck".
    GivingUp,
    /// "Should I …?", "Let me know how you'd like to proceed", "请确认".
    AskingUser,
    /// "This needs credentials", "no network access", "you will need to …".
    ExternalBlocker,
    /// No phrase at all, but the behaviour of one: after loopgate's last block the agent called no tool and
    /// wrote no tag, in whatever language — it only talked (see [`talk_only`]).
    TalkOnly,
}

impl Kind {
    /// The name in the history (`kind` of a `gave_up` record).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::GivingUp => "giving_up",
            Self::AskingUser => "asking_user",
            Self::ExternalBlocker => "external_blocker",
            Self::TalkOnly => "talk_only",
        }
    }

    /// When several kinds match, the most actionable wins: a named blocker, then a question, then giving up.
    fn rank(self) -> u8 {
        match self {
            Self::ExternalBlocker => 3,
            Self::AskingUser => 2,
            Self::GivingUp => 1,
            Self::TalkOnly => 0,
        }
    }
}

/// A give-up found in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GiveUp {
    pub kind: Kind,
    /// The words that matched, as the agent wrote them (e.g. `I can't go further`).
    pub phrase: String,
    /// The sentence they are in, at most [`SENTENCE_CHARS`] characters.
    pub sentence: String,
}

/// Give-ups in a row, with nothing changed in the working tree, that pause the loop as stalled (or the stall
/// limit, if lower): the agent was told twice how to pause and did not, so it needs the user.
pub const STALL_AFTER: u64 = 3;

/// Most characters of the sentence kept for the history and the feedback.
pub const SENTENCE_CHARS: usize = 200;

/// A talk-only stop: the agent was sent back by loopgate's block and stopped again without calling a tool or
/// writing a tag. Words can be missed (a phrasing the classifier has not seen, any language); behaviour cannot:
/// nothing was tried. The message's opening words are kept, so the report can quote what the agent said.
pub fn talk_only(message: &str) -> GiveUp {
    let words = message.split_whitespace().collect::<Vec<_>>().join(" ");
    GiveUp {
        kind: Kind::TalkOnly,
        phrase: String::new(),
        sentence: shorten(&words, SENTENCE_CHARS),
    }
}

/// Compiles every pattern afresh, as the first [`classify`] of a hook process that needs them all does (for
/// the bench).
#[doc(hidden)]
pub fn compile_patterns() -> impl Sized {
    let p = patterns::compile();
    let all = [
        &p.external,
        &p.asking,
        &p.giving,
        &p.conditional,
        &p.workaround,
        &p.workaround_zh,
        &p.at_first,
        &p.onward,
        &p.resolved,
        &p.negated,
        &p.question_to_user,
    ];
    for pattern in all {
        std::sync::LazyLock::force(pattern);
    }
    p
}

/// Classifies the agent's last message; `None` when it neither gives up, asks, nor names a blocker.
pub fn classify(message: &str) -> Option<GiveUp> {
    classify_as(message, Anchored::of(message))
}

/// Which kinds of phrase a message can hold at all: those with an anchor word of one of their patterns' alternatives
/// in it (see `patterns::Alt`), and a closing question only where it has a question mark. Found by plain
/// substring search, so the usual message, which holds none, is classified without compiling any pattern (each
/// stop is a new process, and compiling was the largest part of a stop's CPU time); a kind that cannot match is
/// not compiled either. Exact: a kind ruled out here finds nothing in [`classify_as`] (tests check the anchors
/// against the patterns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Anchored {
    external: bool,
    asking: bool,
    giving: bool,
    question: bool,
}

impl Anchored {
    /// Everything possible: the classifier without the prefilter (for the tests that compare the two).
    #[cfg(test)]
    const ALL: Self = Self {
        external: true,
        asking: true,
        giving: true,
        question: true,
    };

    fn of(message: &str) -> Self {
        let lower = message.to_ascii_lowercase();
        Self {
            external: patterns::anchored(patterns::EXTERNAL, &lower),
            asking: patterns::anchored(patterns::ASKING, &lower),
            giving: patterns::anchored(patterns::GIVING, &lower),
            question: message.contains(['?', '\u{ff1f}']),
        }
    }

    fn none(self) -> bool {
        !(self.external || self.asking || self.giving || self.question)
    }
}

/// [`classify`] with the kinds the prefilter left possible.
fn classify_as(message: &str, anchored: Anchored) -> Option<GiveUp> {
    if anchored.none() {
        return None;
    }
    let text = strip_quoted(message);
    let sentences = sentences(&text);
    let p = &*PATTERNS;
    let lower: Vec<String> = sentences.iter().map(|s| s.to_ascii_lowercase()).collect();
    let found: Vec<(usize, Kind, &str, &str)> = sentences
        .iter()
        .enumerate()
        .filter_map(|(index, sentence)| {
            let last = index + 1 == sentences.len();
            first_match(p, anchored, sentence, &lower[index], last)
                .map(|(kind, phrase)| (index, kind, phrase, *sentence))
        })
        .collect();
    if found.is_empty() {
        // The common case, and the only search a message without a give-up pays for.
        return None;
    }
    let onward_at = (0..sentences.len())
        .rev()
        .find(|&index| !found.iter().any(|f| f.0 == index) && moves_on(p, &lower[index]));
    found
        .into_iter()
        .filter(|(index, ..)| onward_at.is_none_or(|at| *index > at))
        .max_by_key(|(index, kind, ..)| (kind.rank(), *index))
        .map(|(_, kind, phrase, sentence)| GiveUp {
            kind,
            phrase: phrase.trim().to_string(),
            sentence: shorten(sentence.trim(), SENTENCE_CHARS),
        })
}

/// The strongest phrase of one sentence that is not conditional and not followed by a workaround.
fn first_match<'s>(
    p: &Patterns,
    anchored: Anchored,
    sentence: &'s str,
    lower: &str,
    last: bool,
) -> Option<(Kind, &'s str)> {
    let kinds = [
        (Kind::ExternalBlocker, anchored.external, &p.external),
        (Kind::AskingUser, anchored.asking, &p.asking),
        (Kind::GivingUp, anchored.giving, &p.giving),
    ];
    for (kind, _, regex) in kinds.into_iter().filter(|(_, possible, _)| *possible) {
        for m in regex.find_iter(lower) {
            let (before, after) = (&lower[..m.start()], &lower[m.end()..]);
            if p.conditional.is_match(before) || works_around(p, after) || p.at_first.is_match(lower) {
                continue;
            }
            return Some((kind, &sentence[m.start()..m.end()]));
        }
    }
    // A closing question to the user ("…, or keep the original formats?"), with no phrase of its own.
    (last && anchored.question && p.question_to_user.is_match(lower)).then(|| (Kind::AskingUser, sentence.trim()))
}

/// Whether a sentence without a give-up phrase shows the agent moving on.
fn moves_on(p: &Patterns, lower: &str) -> bool {
    p.onward.is_match(lower) || works_around(p, lower) || (p.resolved.is_match(lower) && !p.negated.is_match(lower))
}

/// Whether the text goes on to something the agent did about it: "…, so I mocked it", "but I'll stub it",
/// "所以我改用…" — any verb after "so / instead / but … I" except one that says it could not or needs help.
fn works_around(p: &Patterns, lower: &str) -> bool {
    const NOT_DOING: &[&str] = &[
        "can't", "cannot", "couldn't", "can", "could", "don't", "didn't", "won't", "need", "needed", "think",
        "believe", "guess", "am", "was", "would", "should", "must", "have", "had", "still", "do", "hope",
    ];
    p.workaround_zh.is_match(lower)
        || p.workaround
            .captures_iter(lower)
            .any(|c| c.get(1).is_some_and(|verb| !NOT_DOING.contains(&verb.as_str())))
}

/// The message without code and quoted text: fenced blocks, `inline code`, and "…" / “…” spans on one line.
fn strip_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_fence = false;
    for line in message.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            out.push('\n');
            continue;
        }
        if !in_fence {
            out.push_str(&strip_spans(line));
        }
        out.push('\n');
    }
    out
}

/// Drops `…`, "…" and “…” spans within a line (an unclosed opener is kept as text).
fn strip_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some((at, open)) = rest.char_indices().find(|&(_, c)| matches!(c, '`' | '"' | '“')) {
        let close = if open == '“' { '”' } else { open };
        let after = &rest[at + open.len_utf8()..];
        match after.find(close) {
            Some(end) => {
                out.push_str(&rest[..at]);
                out.push(' ');
                rest = &after[end + close.len_utf8()..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Sentences: ends at `.`, `!`, `?`, `;` followed by white space, at Chinese end punctuation, and at line ends.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let end = match c {
            '。' | '\u{ff01}' | '\u{ff1f}' | '\u{ff1b}' | '\n' => true,
            '.' | '!' | '?' | ';' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if end {
            let stop = at + c.len_utf8();
            let sentence = &text[start..stop];
            if sentence.chars().any(char::is_alphanumeric) {
                out.push(sentence);
            }
            start = stop;
        }
    }
    if text[start..].chars().any(char::is_alphanumeric) {
        out.push(&text[start..]);
    }
    out
}

fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
