//! A shell script the verify command runs (`sh scripts/check.sh`, `./ci/test`), read as the shell runs it:
//! what of it can change what runs or what counts, and what cannot.
//!
//! Sealing the script by its bytes rejects a line that only prints ("running checks", the interpreter's
//! version) as surely as an `exit 0`. What makes an edit of the script unsafe is what its commands reach: the
//! shell's own state (a variable, `set`, `trap`, `cd`, a function, an alias — builtins and definitions), the
//! status the script hands back (its last command, an and-or list, a pipeline, a later `$?`), the runner's
//! command line, and the files the runner reads when it starts, which a program run *before* the runner in the
//! same run can write into the run's scratch (a `usercustomize.py` in the user site, a `~/.cargo/config.toml`)
//! where no check before or after the run sees it. So the sealed text is the script but for its **inert**
//! lines, and a line is inert when:
//! - the shell reads it as one simple command on its own (or as nothing: a comment, a blank line): taking it out
//!   leaves every other command of the script as it was, so it is no line of a here-document or of a quoted
//!   string spanning lines, and no continuation; it has no substitution, no redirection into a file (but
//!   `/dev/null`), no assignment, and does not run in the background;
//! - its status reaches nothing: a command follows it in the same list (it is not the last command of the
//!   script, of a function body or of a branch), that command does not read `$?` and is no bare `exit` or
//!   `return`, and the line is no operand of `&&`, `||` or `|`;
//! - it runs no more than output, or makes the script fail sooner: `echo`, `printf` (not `printf -v`, which
//!   assigns), `:` or `true`, `set -e`, `-u` or `-o pipefail` (never `+e`), or a program asked only for its version (`python3 --version`, for which no interpreter loads its startup
//!   files). Any other program is code that runs before the runner and may write what the runner loads, so it
//!   stays sealed here; so does a line whose program is a function the script defines. Such a program on a line
//!   of its own is a **step** ([`steps`], `closure::steps`): a change that is only new steps is then judged by
//!   what the step's processes did in the promise's run (`oracle::steps`), not by this reading. In a script that
//!   sources a file, only the output builtins are inert: another name may be a function of that file, which
//!   `closure::shell` leaves to the agent when no command has its name, while a function named like a builtin
//!   is sealed there. A script that defines an alias is sealed whole (a name may then mean what this reading
//!   cannot see).
//!
//! A `cd` to a place the script names from its own directory (`cd "$(dirname "$0")/.." || exit 1`) is inert
//! too where that place is the one the script runs in (`Scope::ScriptIn`'s `home`: `..` for `scripts/check.sh`
//! run from the project's root) and its status reaches nothing: it lands where the shell already stands.
//!
//! The script's first line, when it is a `#!` line, is sealed where the script is run by its path (a shell named on
//! the command line, `sh scripts/check.sh`, reads it as a comment): run as `./ci/test`, it names the interpreter.
//! A script this reading cannot follow (longer than [`MAX_LINES`], nested deeper than the lexer goes) is sealed
//! whole.

use crate::guard::lex::{self, Cmd};

/// Longer scripts are sealed whole: each line's reading parses the script again.
const MAX_LINES: usize = 400;

/// Programs that only write to standard output (as builtins): their line changes nothing but what is printed.
const OUTPUT_ONLY: &[&str] = &["echo", "printf", ":", "true"];

/// The only arguments of another program that leave its line inert: a version query.
const VERSION_QUERIES: &[&str] = &["--version", "-V"];

/// Words that make the line before them the last of a list, or read its status.
const ENDS_A_LIST: &[&str] = &["}", ")", "fi", "done", "esac", ";;", "else", "elif", "then", "do"];

/// A script read for [`sealed_text`] and [`steps`]: its lines, its commands as the lexer prints them, the
/// functions it defines, and whether it sources a file; `None` where it is too long, cannot be read, or defines
/// an alias (a name may then mean what this reading cannot see).
struct Script<'a> {
    lines: Vec<&'a str>,
    all: Vec<String>,
    functions: Vec<&'a str>,
    sources: bool,
}

impl<'a> Script<'a> {
    fn read(source: &'a str) -> Option<Script<'a>> {
        let lines: Vec<&str> = source.lines().collect();
        if lines.len() > MAX_LINES {
            return None;
        }
        let parsed = lex::parse(source, 0).ok()?;
        if parsed.iter().any(|cmd| program(cmd).as_deref() == Some("alias")) {
            return None;
        }
        let functions = lines
            .iter()
            .filter_map(|l| super::shell::function_name(l.trim_start()))
            .collect();
        Some(Script {
            all: parsed.iter().map(|cmd| format!("{cmd:?}")).collect(),
            sources: parsed
                .iter()
                .any(|cmd| matches!(program(cmd).as_deref(), Some("." | "source"))),
            lines,
            functions,
        })
    }

    fn reading<'b>(&'b self, home: Option<&'b str>) -> Reading<'b> {
        Reading {
            lines: &self.lines,
            all: &self.all,
            functions: &self.functions,
            sources: self.sources,
            home,
        }
    }
}

/// The text of a script the verify runs that is sealed: every line but the inert ones (see the module docs).
pub(crate) fn sealed_text(source: &str, home: Option<&str>, by_shell: bool) -> String {
    let Some(script) = Script::read(source) else {
        return source.to_string();
    };
    let (lines, reading) = (&script.lines, script.reading(home));
    lines
        .iter()
        .enumerate()
        .filter(|(i, line)| (*i == 0 && line.starts_with("#!") && !by_shell) || !reading.inert(*i))
        .map(|(_, line)| *line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Most lines one script's steps are looked for among (each subset of them is tried).
const MAX_STEP_LINES: usize = 6;

/// The steps of a script the verify runs (`closure::steps`): the lines that, taken out, leave exactly the text
/// sealed at setup (`sealed`: its digest), where each such line is a **step** — one external program with
/// literal words and no redirection (but `/dev/null`), no substitution, no assignment, not in the background,
/// whose status reaches nothing (the rules of an inert line, [`Reading::status_reaches_nothing`]), and that is
/// no builtin, keyword or function of the script: the shell forks a process for it and waits, and the process
/// can change nothing of the shell. In a script that sources a file there are none (a name may be a function of
/// that file, which runs in the shell itself). `None` where no set of such lines accounts for the change: the
/// runner's own line, or any other, changed too.
pub(crate) fn steps(
    scope: &crate::closure::parts::Scope,
    moved: &crate::closure::MovedPart,
    bytes: &[u8],
    sealed: Option<&str>,
) -> Option<Vec<crate::closure::steps::Step>> {
    use crate::closure::parts::Scope;
    use sha2::Digest;
    let (home, by_shell) = match scope {
        Scope::Script => (None, false),
        Scope::ScriptIn { home, by_shell } => (Some(home.as_str()), *by_shell),
        _ => return None,
    };
    if moved.change != crate::closure::PartChange::Changed {
        return None;
    }
    let sealed = sealed?;
    let source = String::from_utf8_lossy(bytes);
    let script = Script::read(&source).filter(|s| !s.sources)?;
    let (lines, reading) = (&script.lines, script.reading(home));
    let candidates: Vec<(usize, Vec<String>)> = (0..lines.len()).filter_map(|i| Some((i, reading.step(i)?))).collect();
    if candidates.is_empty() || candidates.len() > MAX_STEP_LINES {
        return None;
    }
    let digest = |text: &str| crate::fsutil::hex(&sha2::Sha256::digest(text.as_bytes()));
    // The smallest set of step lines whose removal gives back the sealed text.
    let mut subsets: Vec<u32> = (1..1u32 << candidates.len()).collect();
    subsets.sort_by_key(|s| s.count_ones());
    subsets.into_iter().find_map(|subset| {
        let taken: Vec<usize> = (0..candidates.len())
            .filter(|k| subset & (1 << k) != 0)
            .map(|k| candidates[k].0)
            .collect();
        let rest: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| !taken.contains(i))
            .map(|(_, l)| *l)
            .collect();
        let mut text = rest.join("\n");
        if source.ends_with('\n') {
            text.push('\n');
        }
        (digest(&sealed_text(&text, home, by_shell)) == sealed).then(|| {
            (0..candidates.len())
                .filter(|k| subset & (1 << k) != 0)
                .map(|k| crate::closure::steps::Step::Argv(candidates[k].1.clone()))
                .collect()
        })
    })
}

/// Words that start no external program beyond the shell's builtins and keywords (`closure::shell`'s): the
/// compound commands' openers, which a function cannot be named.
const NOT_A_PROGRAM: &[&str] = &["[[", "coproc", "{", "}", "!"];

/// The script as the lexer reads it, and the names it defines functions for.
struct Reading<'a> {
    lines: &'a [&'a str],
    /// Every command of the script, as the lexer prints it (comparable text).
    all: &'a [String],
    functions: &'a [&'a str],
    /// The script sources a file: a name that is no builtin may then be a function of that file, the code under
    /// test (`closure::shell` leaves those free), so only the output builtins stay inert.
    sources: bool,
    /// Where the script runs, named from its own directory (`Scope::ScriptIn`), where known.
    home: Option<&'a str>,
}

impl Reading<'_> {
    /// The script's commands with line `i` taken out (`None` where the rest does not parse).
    fn commands_without(&self, i: usize) -> Option<Vec<String>> {
        let without: Vec<&str> = (self.lines.iter().enumerate())
            .filter(|(j, _)| *j != i)
            .map(|(_, l)| *l)
            .collect();
        commands(&without.join("\n"))
    }

    /// Whether line `i` is inert.
    fn inert(&self, i: usize) -> bool {
        let line = self.lines[i];
        let Some(own) = commands(line) else { return false };
        let Some(rest) = self.commands_without(i) else {
            return false;
        };
        if self.home.is_some() && lands_from_own_dir(line).as_deref() == self.home {
            return takes_out_all(self.all, &rest, &own) && self.status_reaches_nothing(i);
        }
        match own.as_slice() {
            // A comment or a blank line: inert where taking it out changes no command (not inside a quote).
            [] => rest == self.all,
            [cmd] => {
                takes_out(self.all, &rest, cmd)
                    && self.status_reaches_nothing(i)
                    && lex::parse(line, 0)
                        .ok()
                        .and_then(|cmds| cmds.into_iter().next())
                        .is_some_and(|cmd| self.output_only(&cmd) || only_stricter(&cmd))
            }
            _ => false,
        }
    }

    /// Whether the command of line `i` is no operand of an and-or list or pipeline and a command follows it
    /// that neither ends its list nor reads its status.
    fn status_reaches_nothing(&self, i: usize) -> bool {
        let significant = |l: &&&str| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        };
        let joins = |l: &str| {
            let t = l.trim_end();
            t.ends_with('&') || t.ends_with('|') || t.ends_with('\\') || t.ends_with('!')
        };
        if joins(self.lines[i]) || self.lines[..i].iter().rev().find(significant).is_some_and(|l| joins(l)) {
            return false;
        }
        let Some(next) = self.lines[i + 1..].iter().find(significant) else {
            return false;
        };
        let next = next.trim();
        let first = next.split_whitespace().next().unwrap_or_default();
        let ends_the_list = ENDS_A_LIST.contains(&first) || first.starts_with(['}', ')']) || first.starts_with(";;");
        let bare_exit = matches!(next.trim_end_matches(';'), "exit" | "return");
        !ends_the_list && !bare_exit && !next.contains("$?") && !next.contains("PIPESTATUS")
    }

    /// The words of line `i` when it is a step (see [`steps`]): one external program, literal words, its
    /// status reaching nothing.
    fn step(&self, i: usize) -> Option<Vec<String>> {
        let line = self.lines[i];
        let own = commands(line)?;
        let [cmd_text] = own.as_slice() else { return None };
        let rest = self.commands_without(i)?;
        if !takes_out(self.all, &rest, cmd_text) || !self.status_reaches_nothing(i) {
            return None;
        }
        let cmd = lex::parse(line, 0).ok()?.into_iter().next()?;
        let quiet = cmd.nested.is_empty()
            && cmd.input.is_none()
            && cmd
                .outputs
                .iter()
                .all(|w| w.literal().is_some_and(|t| t == "/dev/null"));
        let words: Vec<String> = cmd.words.iter().map(lex::Word::literal).collect::<Option<_>>()?;
        let name = words.first()?;
        let background = line.trim_end().trim_end_matches(';').trim_end().ends_with('&');
        (quiet
            && !background
            && !name.contains('=')
            && !NOT_A_PROGRAM.contains(&name.as_str())
            && !super::shell::BUILTINS.contains(&name.as_str())
            && !self.functions.contains(&name.as_str()))
        .then_some(words)
    }

    /// Whether `cmd` only prints: an output builtin, or a program asked for its version; with no substitution,
    /// redirection into a file, here-document or assignment, and not a function of the script.
    fn output_only(&self, cmd: &Cmd) -> bool {
        let quiet = cmd.nested.is_empty()
            && cmd.input.is_none()
            && cmd
                .outputs
                .iter()
                .all(|w| w.literal().is_some_and(|t| t == "/dev/null"))
            && cmd
                .words
                .iter()
                .all(|w| w.0.iter().all(|part| !matches!(part, lex::Part::Unknown)));
        let Some(name) = program(cmd) else { return false };
        if !quiet || self.functions.contains(&name.as_str()) || name.contains('/') || name.contains('=') {
            return false;
        }
        let args: Vec<String> = cmd.words[1..].iter().map(|w| w.literal().unwrap_or_default()).collect();
        match name.as_str() {
            "printf" => !args.iter().any(|a| a.starts_with("-v")),
            name if OUTPUT_ONLY.contains(&name) => true,
            _ => !self.sources && args.len() == 1 && VERSION_QUERIES.contains(&args[0].as_str()),
        }
    }
}

/// Every command of `src` as the lexer prints it, or `None` where it cannot read it.
fn commands(src: &str) -> Option<Vec<String>> {
    let cmds = lex::parse(src, 0).ok()?;
    Some(cmds.iter().map(|cmd| format!("{cmd:?}")).collect())
}

/// Whether `all` is `rest` with `cmd` at one place: the line's command was one of the script's, and nothing
/// else changed by taking its line out.
fn takes_out(all: &[String], rest: &[String], cmd: &str) -> bool {
    all.len() == rest.len() + 1
        && (0..all.len()).any(|k| all[k] == cmd && all[..k] == rest[..k] && all[k + 1..] == rest[k..])
}

/// Whether `cmd` is a `set` of options that only make the script fail sooner (`set -euo pipefail`): `-e`, `-u`
/// and `-o errexit|nounset|pipefail`. Taken out, every command runs as before, and one that failed fails still:
/// such a line can turn a passing run into a failing one, never the other way. (Not `-x`, `-v`: they print.)
fn only_stricter(cmd: &Cmd) -> bool {
    let Some(words) = cmd
        .words
        .iter()
        .map(lex::Word::literal)
        .collect::<Option<Vec<String>>>()
    else {
        return false;
    };
    if words.first().map(String::as_str) != Some("set") || words.len() < 2 || !cmd.nested.is_empty() {
        return false;
    }
    let mut names = 0;
    for word in &words[1..] {
        if names > 0 {
            if !matches!(word.as_str(), "errexit" | "nounset" | "pipefail") {
                return false;
            }
            names -= 1;
            continue;
        }
        let Some(flags) = word.strip_prefix('-').filter(|f| !f.is_empty()) else {
            return false;
        };
        for flag in flags.chars() {
            match flag {
                'e' | 'u' => {}
                'o' => names += 1,
                _ => return false,
            }
        }
    }
    names == 0 && cmd.input.is_none() && cmd.outputs.is_empty()
}

/// Whether `all` is `rest` with the commands `own` in a row at one place.
fn takes_out_all(all: &[String], rest: &[String], own: &[String]) -> bool {
    !own.is_empty()
        && all.len() == rest.len() + own.len()
        && (0..=rest.len())
            .any(|k| all[..k] == rest[..k] && all[k..k + own.len()] == *own && all[k + own.len()..] == rest[k..])
}

/// How a script names its own directory in a `cd` (`"$(dirname "$0")"`, bash's `BASH_SOURCE`, `${0%/*}`).
const OWN_DIR: &[&str] = &[
    "$(dirname \"$0\")",
    "$(dirname -- \"$0\")",
    "$(dirname $0)",
    "$(dirname \"${BASH_SOURCE[0]}\")",
    "$(dirname -- \"${BASH_SOURCE[0]}\")",
    "$(dirname \"$BASH_SOURCE\")",
    "${0%/*}",
    "`dirname \"$0\"`",
    "`dirname $0`",
];

/// Where line `line` changes directory to when it is a `cd` to the script's own directory or one above it and
/// nothing else (`cd "$(dirname "$0")/.."`, `cd -P -- "${0%/*}/.." || exit 1`): that place, as named from the
/// script's directory (`..`, `../..`, `.` for the directory itself). A script run as `sh scripts/check.sh` or
/// `./scripts/check.sh` has `$0` name its own file, so such a `cd` lands in the same place wherever the script
/// is run from; where that place is the one it runs in ([`Reading::home`]), the line changes nothing but
/// `OLDPWD`, and its `|| exit` never runs.
fn lands_from_own_dir(line: &str) -> Option<String> {
    let mut text = line.trim().trim_end_matches(';').trim_end();
    if let Some((head, tail)) = text.rsplit_once("||") {
        // A failing `cd` ends the script failing: `exit 0` would hand a success back.
        let tail: Vec<&str> = tail.split_whitespace().collect();
        let exits = matches!(tail.first(), Some(&"exit" | &"return"))
            && tail.len() <= 2
            && tail.get(1).is_none_or(|code| {
                *code == "$?" || (code.chars().all(|c| c.is_ascii_digit()) && !code.trim_start_matches('0').is_empty())
            });
        if !exits {
            return None;
        }
        text = head.trim_end();
    }
    let mut words = text.strip_prefix("cd")?.strip_prefix([' ', '\t'])?.trim_start();
    while let Some(rest) = ["-P ", "-L ", "-- "].iter().find_map(|flag| words.strip_prefix(flag)) {
        words = rest.trim_start();
    }
    let target = words
        .strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .unwrap_or(words);
    let after = OWN_DIR.iter().find_map(|own| target.strip_prefix(own))?;
    if after.contains(['$', '`', '"', '\'', '*', '?', '[', ' ', '\t', '\\']) {
        return None;
    }
    if after.is_empty() {
        return Some(".".to_string());
    }
    // Only the script's own directory and those above it, which exist wherever the script does: a name on the
    // way (`../.ci/..`) may be missing, or a link elsewhere, and the `cd` then fails or lands there.
    let mut up = 0;
    for part in after.strip_prefix('/')?.split('/') {
        match part {
            "" | "." => {}
            ".." => up += 1,
            _ => return None,
        }
    }
    Some(if up == 0 {
        ".".to_string()
    } else {
        vec![".."; up].join("/")
    })
}

/// A command's program: its first word, when it is literal.
fn program(cmd: &Cmd) -> Option<String> {
    cmd.words.first()?.literal()
}

#[cfg(test)]
#[path = "script/tests.rs"]
mod tests;
