//! Expanded words and the shell state they are expanded in.
//!
//! Expansion goes as far as the guard can know without running anything: `$CLAUDE_PROJECT_DIR` (the project
//! root), `$PWD`, `~` and `$HOME`, variables assigned earlier in the same command, then the hook's environment.
//! Anything else (`$(…)` output, `$1`, an unset variable) becomes a NUL marker and the word is flagged
//! unknown, so the caller can fall back to judging the path by its known ending.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::lex::{Part, Word};
use super::pattern::PChar;
use super::scope::Scope;

/// Shell state that carries from one simple command to the next.
#[derive(Clone)]
pub(super) struct State {
    pub(super) cwd: PathBuf,
    /// False after a `cd` the guard could not follow; relative targets are then judged by their ending too.
    pub(super) cwd_known: bool,
    vars: HashMap<String, String>,
    /// `find … -name PAT` filters that apply to the targets of `-delete` / `-exec`.
    pub(super) names: Option<Rc<Vec<Vec<PChar>>>>,
}

impl State {
    pub(super) fn new(cwd: &Path) -> Self {
        State {
            cwd: cwd.to_path_buf(),
            cwd_known: true,
            vars: HashMap::new(),
            names: None,
        }
    }
}

/// An expanded word: characters (with whether each may glob) and whether some part could not be known.
#[derive(Clone, Debug)]
pub(super) struct Arg {
    pub(super) chars: Vec<PChar>,
    pub(super) unknown: bool,
}

impl Arg {
    pub(super) fn text(&self) -> String {
        self.chars.iter().map(|&(c, _)| c).collect()
    }

    /// The word without its first `n` characters (the value of `of=PATH`, `--opt=PATH`).
    pub(super) fn skip(&self, n: usize) -> Arg {
        Arg {
            chars: self.chars.get(n..).unwrap_or_default().to_vec(),
            unknown: self.unknown,
        }
    }
}

/// A word made of literal text.
pub(super) fn literal(s: &str) -> Arg {
    Arg {
        chars: s.chars().map(|c| (c, false)).collect(),
        unknown: false,
    }
}

/// Expands `w` as the shell would, as far as can be known.
pub(super) fn expand(w: &Word, st: &State, scope: &Scope) -> Arg {
    let mut arg = Arg {
        chars: Vec::new(),
        unknown: false,
    };
    let known = |arg: &mut Arg, value: Option<String>| match value {
        Some(v) => arg.chars.extend(v.chars().map(|c| (c, false))),
        None => {
            arg.chars.push(('\0', false));
            arg.unknown = true;
        }
    };
    for part in &w.0 {
        match part {
            Part::Lit { text, quoted } => {
                // A NUL can only come from an `eval` of an unknown word: keep it unknown.
                arg.unknown |= text.contains('\0');
                arg.chars.extend(text.chars().map(|c| (c, !quoted)));
            }
            Part::Var(name) => known(&mut arg, lookup(name, st, scope)),
            Part::Tilde => known(&mut arg, scope.home().map(|h| h.to_string_lossy().into_owned())),
            Part::Unknown => known(&mut arg, None),
        }
    }
    arg
}

fn lookup(name: &str, st: &State, scope: &Scope) -> Option<String> {
    match name {
        "PWD" if st.cwd_known => Some(st.cwd.to_string_lossy().into_owned()),
        _ => st.vars.get(name).cloned().or_else(|| scope.var(name)),
    }
}

/// One argument as a getopt-style parser sees it.
pub(super) enum Token<'a> {
    /// An option word (`-abc`, `--name`, `--name=value`) with its text; a cluster of short options is the
    /// caller's to split, since only it knows which letters take a value.
    Option(&'a Arg, String),
    /// A word that is not an option: after `--`, a lone `-`, or anything not starting with `-`.
    Operand(&'a Arg),
}

/// The getopt-style walk over a command's arguments that every verb reading options shares: `--` ends the
/// options, a lone `-` is an operand, and an option that takes a value takes the next word ([`Getopt::value`]).
/// By default options and operands mix, as GNU tools allow; [`Getopt::posix`] ends the options at the first
/// operand, as interpreters do (`perl script.pl -i` passes `-i` to the script).
pub(super) struct Getopt<'a> {
    args: &'a [Arg],
    next: usize,
    opts: bool,
    posix: bool,
}

impl<'a> Getopt<'a> {
    /// Walks `args` (the arguments after the command's name).
    pub(super) fn new(args: &'a [Arg]) -> Self {
        Getopt {
            args,
            next: 0,
            opts: true,
            posix: false,
        }
    }

    /// Options end at the first operand.
    pub(super) fn posix(self) -> Self {
        Getopt { posix: true, ..self }
    }

    /// The next argument, or `None` at the end.
    pub(super) fn token(&mut self) -> Option<Token<'a>> {
        loop {
            let a = self.args.get(self.next)?;
            self.next += 1;
            let text = a.text();
            if self.opts && text == "--" {
                self.opts = false;
            } else if self.opts && text.starts_with('-') && text.len() > 1 {
                return Some(Token::Option(a, text));
            } else {
                self.opts &= !self.posix;
                return Some(Token::Operand(a));
            }
        }
    }

    /// The next option word, after pushing the operands before it onto `operands`; `None` at the end.
    pub(super) fn next_option(&mut self, operands: &mut Vec<Arg>) -> Option<(&'a Arg, String)> {
        loop {
            match self.token()? {
                Token::Operand(a) => operands.push(a.clone()),
                Token::Option(a, text) => return Some((a, text)),
            }
        }
    }

    /// The word after the current option, taken as its value (it is skipped even when absent, so a value
    /// never reads as an operand).
    pub(super) fn value(&mut self) -> Option<&'a Arg> {
        self.next += 1;
        self.args.get(self.next - 1)
    }
}

/// Arguments that are not options (everything after `--`), plus `--target-directory=DIR` values.
pub(super) fn operands(args: &[Arg]) -> Vec<Arg> {
    let mut out = Vec::new();
    let mut words = Getopt::new(args);
    while let Some((a, text)) = words.next_option(&mut out) {
        if text.starts_with("--target-directory=") {
            out.push(a.skip("--target-directory=".len()));
        }
    }
    out
}

/// `NAME=value` (or `NAME+=value`): the position of `=`.
pub(super) fn assignment(a: &Arg) -> Option<usize> {
    let eq = a.chars.iter().position(|&(c, _)| c == '=')?;
    let name = a.chars[..eq].strip_suffix(&[('+', true)]).unwrap_or(&a.chars[..eq]);
    let start = name
        .first()
        .is_some_and(|&(c, active)| active && (c.is_ascii_alphabetic() || c == '_'));
    let rest = name
        .iter()
        .all(|&(c, active)| active && (c.is_ascii_alphanumeric() || c == '_'));
    (start && rest).then_some(eq)
}

/// Records `NAME=value` (or appends for `NAME+=value`) for later words; an unknown value forgets the name.
pub(super) fn assign(a: &Arg, st: &mut State) {
    let Some(eq) = assignment(a) else { return };
    let append = eq > 0 && a.chars[eq - 1] == ('+', true);
    let name: String = a.chars[..eq - usize::from(append)].iter().map(|&(c, _)| c).collect();
    if a.unknown {
        st.vars.remove(&name);
        return;
    }
    let value: String = a.chars[eq + 1..].iter().map(|&(c, _)| c).collect();
    match st.vars.get_mut(&name) {
        Some(old) if append => old.push_str(&value),
        _ => {
            st.vars.insert(name, value);
        }
    }
}

/// The components after the last unknown piece of a path (`\0` marks unknown text); empty if `..` follows.
pub(super) fn known_tail(text: &str) -> Vec<&str> {
    let comps: Vec<&str> = text.split('/').collect();
    let start = comps.iter().rposition(|c| c.contains('\0')).map_or(0, |i| i + 1);
    let tail: Vec<&str> = comps[start..]
        .iter()
        .copied()
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if tail.contains(&"..") { Vec::new() } else { tail }
}

/// Words joined by spaces, as `eval` does.
pub(super) fn join(args: &[Arg]) -> String {
    args.iter().map(Arg::text).collect::<Vec<_>>().join(" ")
}
