//! Bash tool calls: which paths a command plainly writes, and whether it runs a forbidden `loopgate`
//! subcommand.
//!
//! The command is split by [`super::lex`] into simple commands; each is expanded as far as the guard can know
//! (`$CLAUDE_PROJECT_DIR`, `$HOME`, `~`, `$PWD`, variables assigned earlier in the same command, the hook's
//! environment) and dispatched on its verb, looking through wrappers (`sudo`, `env`, `timeout`, `xargs`, …),
//! `cd`, `bash -c`, `eval`, `find -exec` and inline interpreter code. A word that cannot be expanded
//! (`$(…)`, an unset variable) is judged by its known ending. Nothing here runs anything; the only system
//! calls are the `lstat`s that resolve the paths a command would write.

include!(concat!(env!("OUT_DIR"), "/ecosystem/guard/shell.rs"));

use std::ffi::OsStr;
use std::path::Path;

use super::finding::{Finding, Hit, Kind};
use super::lex::{self, Cmd, Input};
use super::paths;
use super::pattern::{self, PChar};
use super::scope::Scope;
use super::words::{Arg, State, assign, assignment, expand, join, known_tail, operands};

/// How many wrapper / `find -exec` levels one simple command may go through.
const MAX_RUN_DEPTH: usize = 32;

/// An interpreter whose command line reads as perl's (`-e CODE`, `-pi` in place): its name, its short options
/// taking inline code and those taking a value.
pub(super) struct PerlLike {
    pub(super) name: &'static str,
    pub(super) code: &'static str,
    pub(super) value: &'static str,
}

/// perl, and an ecosystem's interpreter in its folder's `guard.rs`.
const PERL_LIKE: &[&PerlLike] = &[
    &PerlLike {
        name: "perl",
        code: "eE",
        value: "MmIxlCdD0F",
    },
    &ruby::PERL_LIKE,
];

/// Commands that run the rest of their arguments as another command (and shell keywords that precede one).
#[rustfmt::skip]
const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "command", "builtin", "exec", "nohup", "setsid", "time", "nice", "ionice", "timeout",
    "stdbuf", "xargs", "unbuffer", "chronic", "caffeinate", "flock", "strace", "ltrace", "then", "do", "else",
    "elif", "if", "while", "until", "!", "{", "}",
];

/// `loopgate` subcommands only the user may run.
pub(crate) const FORBIDDEN: &[&str] = &["cancel", "setup", "resume", "seal", "allow"];

/// The longest command the guard analyses. Tokenizing costs memory in proportion to the words: a 9 MB command
/// of short words peaked at 600 MB. Nobody types a command this long; an agent writing a file through a
/// here-document of that size can write it with the Write tool (which the guard checks by path) instead.
pub(crate) const MAX_COMMAND: usize = 1024 * 1024;

/// The first denial for `command` run in `cwd`, if any.
pub(crate) fn check(command: &str, cwd: &Path, scope: &Scope) -> Option<Finding> {
    if command.len() > MAX_COMMAND {
        return Some(Finding::TooLarge(command.len()));
    }
    let an = Analyzer {
        scope,
        loopgate: command.contains("loopgate"),
    };
    let mut st = State::new(cwd);
    an.source(command, &mut st, 0)
}

pub(super) struct Analyzer<'s, 'a> {
    pub(super) scope: &'s Scope<'a>,
    /// Whether the whole command mentions `loopgate` at all (for verbs hidden behind `$(…)`).
    loopgate: bool,
}

impl Analyzer<'_, '_> {
    /// Parses and checks shell source (the command itself, a `bash -c` string, an `eval`).
    pub(super) fn source(&self, src: &str, st: &mut State, depth: usize) -> Option<Finding> {
        match lex::parse(src, depth) {
            Ok(cmds) => cmds.iter().find_map(|c| self.cmd(c, st, depth)),
            Err(lex::TooDeep) => Some(Finding::TooComplex),
        }
    }

    fn cmd(&self, cmd: &Cmd, st: &mut State, depth: usize) -> Option<Finding> {
        for list in &cmd.nested {
            let mut sub = st.clone();
            if let Some(f) = list.iter().find_map(|c| self.cmd(c, &mut sub, depth + 1)) {
                return Some(f);
            }
        }
        for w in &cmd.outputs {
            if let Some(f) = self.target(&expand(w, st, self.scope), st) {
                return Some(f);
            }
        }
        let args: Vec<Arg> = cmd.words.iter().map(|w| expand(w, st, self.scope)).collect();
        let assigns = args.iter().take_while(|a| assignment(a).is_some()).count();
        if assigns == args.len() {
            for a in &args {
                assign(a, st);
            }
            return None;
        }
        // `npx loopgate cancel`, `cargo run --bin loopgate -- cancel`, unknown wrappers: a `loopgate` word
        // followed by a forbidden subcommand is enough.
        if let Some(i) = args.iter().position(|a| !a.unknown && is_loopgate(&a.text()))
            && let Some(f) = loopgate(&args[i..])
        {
            return Some(f);
        }
        let stdin = cmd.input.as_ref().map(|input| match input {
            Input::HereDoc(body) => body.clone(),
            Input::HereString(w) => expand(w, st, self.scope).text(),
        });
        self.run(&args[assigns..], stdin.as_deref(), st, depth)
    }

    /// Dispatches one simple command on its verb.
    pub(super) fn run(&self, args: &[Arg], stdin: Option<&str>, st: &mut State, depth: usize) -> Option<Finding> {
        let first = args.first()?;
        if depth > MAX_RUN_DEPTH {
            return None;
        }
        if first.unknown {
            return self.unknown_verb(args);
        }
        let verb = first.text();
        let name = verb.rsplit('/').next().unwrap_or_default();
        let perl_like = PERL_LIKE.iter().find(|p| p.name == name);
        match name {
            _ if is_loopgate(name) => loopgate(args),
            "cd" | "pushd" => {
                self.cd(args, st);
                None
            }
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                args[1..]
                    .iter()
                    .filter(|a| assignment(a).is_some())
                    .for_each(|a| assign(a, st));
                None
            }
            "rm" | "unlink" => self.removals(&operands(&args[1..]), st),
            "rmdir" | "shred" | "truncate" | "touch" | "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" | "ln"
            | "link" | "tee" => self.targets(&operands(&args[1..]), st),
            "cp" | "install" => self.copy(args, st, true, false),
            "mv" => self.copy(args, st, true, true),
            "rsync" | "scp" => self.copy(args, st, false, false),
            "dd" => {
                let outs: Vec<Arg> = args[1..]
                    .iter()
                    .filter(|a| a.text().starts_with("of="))
                    .map(|a| a.skip(3))
                    .collect();
                self.targets(&outs, st)
            }
            "sed" | "gsed" => self.sed(args, st),
            _ if perl_like.is_some() => {
                perl_like.and_then(|perl_like| self.perl_like(args, stdin, st, perl_like.code, perl_like.value))
            }
            "awk" | "gawk" | "mawk" | "nawk" => self.awk(args, stdin, st),
            "curl" | "sort" => self.option_targets(args, &["-o", "--output"], st),
            "wget" => self.option_targets(args, &["-O", "--output-document"], st),
            "git" => self.git(args, st),
            "find" => self.find(args, st, depth),
            "eval" => self.source(&join(&args[1..]), &mut st.clone(), depth + 1),
            "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "fish" => self.shell(args, stdin, st, depth),
            _ if WRAPPERS.contains(&name) => self.wrapper(args, stdin, st, depth),
            _ => self.interpreter(name, args, stdin, st),
        }
    }

    /// A verb the guard cannot know (`$(which loopgate) cancel`): only the `loopgate` rule applies.
    fn unknown_verb(&self, args: &[Arg]) -> Option<Finding> {
        if !self.loopgate {
            return None;
        }
        args[1..]
            .iter()
            .find_map(|a| FORBIDDEN.iter().find(|s| **s == a.text()))
            .map(|s| Finding::Loopgate(s))
    }

    fn cd(&self, args: &[Arg], st: &mut State) {
        match args[1..]
            .iter()
            .find(|a| !(a.text().starts_with('-') && a.chars.len() > 1))
        {
            None => match self.scope.home() {
                Some(home) => st.cwd = home.to_path_buf(),
                None => st.cwd_known = false,
            },
            Some(a) if a.unknown || a.text() == "-" => st.cwd_known = false,
            Some(a) => st.cwd = paths::lexical(&paths::absolute(Path::new(&a.text()), &st.cwd)),
        }
    }

    /// `sudo -u x CMD`, `timeout 5 CMD`, `xargs -I{} CMD`: tries the first few non-option words as the verb.
    fn wrapper(&self, args: &[Arg], stdin: Option<&str>, st: &mut State, depth: usize) -> Option<Finding> {
        if let Some(i) = args
            .iter()
            .position(|a| matches!(a.text().as_str(), "-S" | "--split-string"))
        {
            let split = args.get(i + 1).map(Arg::text).unwrap_or_default();
            return self.source(&split, &mut st.clone(), depth + 1);
        }
        let mut tried = 0;
        for j in 1..args.len() {
            let text = args[j].text();
            if text.starts_with('-') || assignment(&args[j]).is_some() {
                continue;
            }
            if let Some(f) = self.run(&args[j..], stdin, st, depth + 1) {
                return Some(f);
            }
            tried += 1;
            let inner = text.rsplit('/').next().unwrap_or_default();
            if tried >= 3 || WRAPPERS.contains(&inner) {
                break;
            }
        }
        None
    }

    pub(super) fn targets(&self, args: &[Arg], st: &State) -> Option<Finding> {
        args.iter().find_map(|a| self.target(a, st))
    }

    /// Like [`Self::targets`] for `rm`: removing a sealed file that did not exist at setup (a `pytest.ini` or
    /// `conftest.py` the agent created) restores the seal, so it is allowed.
    fn removals(&self, args: &[Arg], st: &State) -> Option<Finding> {
        args.iter().find_map(|a| {
            self.target(a, st).filter(|finding| match finding {
                Finding::Hit(hit) => {
                    !(hit.kind == Kind::Sealed && hit.via.is_none() && self.scope.removable(&hit.protected))
                }
                _ => true,
            })
        })
    }

    /// Whether writing (or removing, or renaming) the path word `a` reaches something protected.
    pub(super) fn target(&self, a: &Arg, st: &State) -> Option<Finding> {
        let hit = if a.unknown {
            let text = a.text();
            let tail = known_tail(&text);
            self.scope.hit_ending(&tail.iter().map(OsStr::new).collect::<Vec<_>>())
        } else {
            self.known_target(a, &st.cwd, st).or_else(|| {
                let text = a.text();
                let relative = !text.starts_with('/');
                let comps: Vec<&OsStr> = text
                    .split('/')
                    .filter(|c| !c.is_empty() && *c != ".")
                    .map(OsStr::new)
                    .collect();
                (relative && !st.cwd_known && !comps.iter().any(|c| *c == ".."))
                    .then(|| self.scope.hit_ending(&comps))
                    .flatten()
            })
        };
        hit.map(Finding::Hit)
    }

    fn known_target(&self, a: &Arg, cwd: &Path, st: &State) -> Option<Hit> {
        let alts = if a.chars.contains(&('{', true)) {
            pattern::expand_braces(&a.chars)
        } else {
            vec![a.chars.clone()]
        };
        for alt in alts {
            let text: String = alt.iter().map(|&(c, _)| c).collect();
            if text.is_empty() {
                continue;
            }
            let hit = if pattern::has_glob(&alt) {
                let mut abs: Vec<PChar> = Vec::new();
                if !text.starts_with('/') {
                    abs.extend(cwd.to_string_lossy().chars().map(|c| (c, false)));
                    abs.push(('/', false));
                }
                abs.extend(alt);
                self.scope.hit_pattern(&abs)
            } else if let Some(names) = &st.names {
                self.scope.hit_find(Path::new(&text), cwd, names)
            } else {
                self.scope.hit_path(Path::new(&text), cwd)
            };
            if hit.is_some() {
                return hit;
            }
        }
        None
    }
}

/// Whether a command word runs loopgate: `loopgate`, `/x/bin/loopgate`, the plugin's `hooks/loopgate.sh`.
fn is_loopgate(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or_default();
    name == "loopgate" || name.starts_with("loopgate.")
}

/// `loopgate [flags] SUB …`: deny the subcommands only the user may run (`args[0]` is the `loopgate` word).
fn loopgate(args: &[Arg]) -> Option<Finding> {
    for a in &args[1..] {
        let text = a.text();
        if let Some(sub) = FORBIDDEN.iter().find(|s| **s == text) {
            return Some(Finding::Loopgate(sub));
        }
        if matches!(text.as_str(), "status" | "verify" | "history" | "hook" | "help") {
            return None;
        }
    }
    None
}
