//! Commands that run code rather than name paths: `bash -c` / `sh` with a here-document (checked as shell),
//! and interpreters (`python -c`, `node -e`, `ruby -e`, `perl -e`, `awk`, `php -r`, code on stdin), plus the
//! in-place modes of `perl -pi`, `ruby -pi` and `gawk -i inplace`.
//!
//! Inline code is not parsed. It is denied when it runs a forbidden `loopgate` subcommand, or when it looks
//! like it writes (a hint such as `'w'`, `write`, `unlink`, `>`) *and* mentions a protected path: by file
//! name, as a string literal that resolves to one from the current directory, or by a matching ending.

use std::ffi::OsStr;
use std::path::PathBuf;

use super::finding::Finding;
use super::shell::{Analyzer, FORBIDDEN};
use super::words::{Arg, Getopt, State};

/// Substrings that suggest inline code writes, removes or runs something (`rm` also covers `rmtree`,
/// `rmdir`, `rmSync`). Code with none of them only reads, and is allowed whatever it names.
#[rustfmt::skip]
const WRITE_HINTS: &[&str] = &[
    "'w", "\"w", "'a", "\"a", "'x", "\"x", "r+", ">", "write", "append", "unlink", "remove", "rm", "rename",
    "replace", "truncate", "chmod", "chown", "copy", "move", "link", "touch", "system", "exec", "spawn", "popen",
    "subprocess", "sysopen", "fopen", "mode", "dump", "put", "save", "store", "creat",
];

/// How far after a `loopgate` in inline code its subcommand is looked for, in characters.
const LOOPGATE_WINDOW: usize = 24;

/// Inline code is searched for at most this many string literals.
const MAX_LITERALS: usize = 32;

include!(concat!(env!("OUT_DIR"), "/ecosystem/guard/code.rs"));

/// Per interpreter: short options taking inline code, long ones, short options taking a value, and short
/// options after which the rest of the line belongs to a module or script.
#[derive(Clone, Copy)]
struct Flags {
    code: &'static str,
    long: &'static [&'static str],
    value: &'static str,
    stop: &'static str,
}

/// An interpreter that takes inline code on its command line: the program names that are it, and its flags.
struct Interpreter {
    is: fn(&str) -> bool,
    flags: Flags,
}

/// The interpreters, in the order their names are tried: an ecosystem's in its folder's `guard.rs`, and those
/// of no ecosystem here.
const INTERPRETERS: &[&Interpreter] = &[&python::INTERPRETER, &js::INTERPRETER, &php::INTERPRETER, &EMBEDDED];

/// Lua, R and Julia.
const EMBEDDED: Interpreter = Interpreter {
    is: |name| matches!(name, "lua" | "luajit" | "Rscript" | "julia"),
    flags: Flags {
        code: "eE",
        long: &[],
        value: "l",
        stop: "",
    },
};

fn interpreter_flags(name: &str) -> Option<Flags> {
    INTERPRETERS
        .iter()
        .find(|interpreter| (interpreter.is)(name))
        .map(|interpreter| interpreter.flags)
}

impl Analyzer<'_, '_> {
    /// `perl -pi -e CODE FILE…`, `perl -e CODE`, `ruby -e CODE`, and the same with code on stdin.
    pub(super) fn perl_like(
        &self,
        args: &[Arg],
        stdin: Option<&str>,
        st: &State,
        code_flags: &str,
        value_flags: &str,
    ) -> Option<Finding> {
        let (mut in_place, mut code, mut flag_code) = (false, String::new(), false);
        let mut pos = Vec::new();
        let mut words = Getopt::new(args.get(1..).unwrap_or_default()).posix();
        while let Some((_, text)) = words.next_option(&mut pos) {
            for (k, ch) in text.char_indices().skip(1) {
                if ch == 'i' {
                    in_place = true;
                } else if code_flags.contains(ch) {
                    let rest = &text[k + ch.len_utf8()..];
                    if rest.is_empty() {
                        code.push_str(&words.value().map(Arg::text).unwrap_or_default());
                    } else {
                        code.push_str(rest);
                    }
                    code.push('\n');
                    flag_code = true;
                } else if !value_flags.contains(ch) {
                    continue;
                }
                break;
            }
        }
        if !flag_code && pos.first().is_none_or(|p| p.text() == "-") {
            code.push_str(stdin.unwrap_or_default());
        }
        if let Some(f) = self.code(&code, st) {
            return Some(f);
        }
        let files = if flag_code {
            &pos[..]
        } else {
            pos.get(1..).unwrap_or_default()
        };
        if in_place { self.targets(files, st) } else { None }
    }

    /// `awk PROGRAM FILE…` (code checked like an interpreter's) and `gawk -i inplace PROGRAM FILE…`.
    pub(super) fn awk(&self, args: &[Arg], stdin: Option<&str>, st: &State) -> Option<Finding> {
        let (mut in_place, mut code, mut program_file) = (false, None::<String>, false);
        let mut pos = Vec::new();
        let mut words = Getopt::new(args.get(1..).unwrap_or_default()).posix();
        while let Some((_, text)) = words.next_option(&mut pos) {
            match text.as_str() {
                "-f" | "--file" => {
                    program_file = true;
                    words.value();
                }
                "-v" | "-F" | "--assign" | "--field-separator" => {
                    words.value();
                }
                "-i" | "--include" => in_place |= words.value().is_some_and(|v| v.text().starts_with("inplace")),
                "-e" | "--source" => {
                    let source = words.value().map(Arg::text).unwrap_or_default();
                    code.get_or_insert_default().push_str(&source);
                }
                _ => in_place |= text.contains("inplace"),
            }
        }
        let mut files = &pos[..];
        if code.is_none() && !program_file && !pos.is_empty() {
            code = Some(pos[0].text());
            files = &pos[1..];
        }
        let code = code.or_else(|| stdin.map(str::to_owned)).unwrap_or_default();
        self.code(&code, st)
            .or_else(|| if in_place { self.targets(files, st) } else { None })
    }

    /// `bash -c CODE`, `sh -lc CODE`, `bash <<EOF … EOF`: the code is checked as a command of its own.
    pub(super) fn shell(&self, args: &[Arg], stdin: Option<&str>, st: &State, depth: usize) -> Option<Finding> {
        let mut has_c = false;
        let mut i = 1;
        while let Some(text) = args.get(i).map(Arg::text) {
            if text == "--" {
                i += 1;
                break;
            } else if text == "--rcfile" || text == "--init-file" {
                i += 1;
            } else if (text.starts_with('-') || text.starts_with('+')) && text.len() > 1 && !text.starts_with("--") {
                has_c |= text.contains('c');
                i += usize::from(text.contains(['o', 'O']));
            } else if !text.starts_with("--") {
                break;
            }
            i += 1;
        }
        let first = args.get(i).map(Arg::text);
        let code = if has_c {
            first.unwrap_or_default()
        } else if first.is_none_or(|f| f == "-") {
            stdin.unwrap_or_default().to_owned()
        } else {
            return None; // a script file: out of scope
        };
        self.source(&code, &mut st.clone(), depth + 1)
    }

    /// `python -c CODE`, `node -e CODE`, `php -r CODE`, or code on stdin; other verbs pass.
    pub(super) fn interpreter(&self, name: &str, args: &[Arg], stdin: Option<&str>, st: &State) -> Option<Finding> {
        let flags = interpreter_flags(name)?;
        let mut code = String::new();
        let mut script = false;
        let mut i = 1;
        while let Some(text) = args.get(i).map(Arg::text) {
            let next = args.get(i + 1).map(Arg::text).unwrap_or_default();
            if i == 1 && text == "eval" && matches!(name, "deno" | "bun") {
                code.push_str(&next);
                break;
            } else if flags.long.contains(&text.as_str()) {
                code.push_str(&next);
                i += 1;
            } else if let Some(v) = flags
                .long
                .iter()
                .find_map(|l| text.strip_prefix(l).and_then(|r| r.strip_prefix('=')))
            {
                code.push_str(v);
            } else if text.starts_with('-') && !text.starts_with("--") && text.len() > 1 {
                for (k, ch) in text.char_indices().skip(1) {
                    let rest = &text[k + ch.len_utf8()..];
                    if flags.code.contains(ch) {
                        code.push_str(if rest.is_empty() { &next } else { rest });
                        code.push('\n');
                    } else if flags.stop.contains(ch) {
                        script = true;
                    } else if !flags.value.contains(ch) {
                        continue;
                    }
                    i += usize::from(rest.is_empty() && !flags.stop.contains(ch));
                    break;
                }
                if script {
                    break;
                }
            } else if !text.starts_with("--") {
                script = text != "-";
                break;
            }
            i += 1;
        }
        if code.is_empty() && !script {
            code.push_str(stdin.unwrap_or_default());
        }
        self.code(&code, st)
    }

    /// Inline code: denied when it runs a forbidden `loopgate` subcommand, or when it looks like it writes
    /// and mentions a protected path (by name, as a literal path from the cwd, or by a matching ending).
    pub(super) fn code(&self, code: &str, st: &State) -> Option<Finding> {
        // `subprocess.run(["loopgate", "cancel"])`, `system("loopgate cancel")`: the subcommand right after.
        for (i, _) in code.match_indices("loopgate") {
            let after: String = code[i + "loopgate".len()..].chars().take(LOOPGATE_WINDOW).collect();
            if let Some(sub) = FORBIDDEN.iter().find(|s| has_word(&after, s)) {
                return Some(Finding::Loopgate(sub));
            }
        }
        if !WRITE_HINTS.iter().any(|h| code.contains(h)) {
            return None;
        }
        if let Some(hit) = self.scope.hit_mention(code) {
            return Some(Finding::Hit(hit));
        }
        for lit in literals(code).iter().take(MAX_LITERALS) {
            for piece in lit.split_whitespace().take(MAX_LITERALS) {
                let piece = piece
                    .trim_start_matches(['>', '<', '+', '|', '&'])
                    .trim_end_matches([';', ',', ')']);
                let comps: Vec<&str> = piece.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
                if comps.iter().all(|c| *c == "..") || !piece.contains(['/', '.']) {
                    continue;
                }
                let path = match (piece.strip_prefix("~/"), self.scope.home()) {
                    (Some(rest), Some(home)) => home.join(rest),
                    _ => PathBuf::from(piece),
                };
                if let Some(hit) = self.scope.hit_path(&path, &st.cwd) {
                    return Some(Finding::Hit(hit));
                }
                if !comps.contains(&"..") {
                    let tail: Vec<&OsStr> = comps.iter().map(OsStr::new).collect();
                    if let Some(hit) = self.scope.hit_ending(&tail) {
                        return Some(Finding::Hit(hit));
                    }
                }
            }
        }
        None
    }
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// String literals in inline code (`'…'`, `"…"`, `` `…` ``), escapes removed.
fn literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if !matches!(c, '\'' | '"' | '`') {
            continue;
        }
        let mut lit = String::new();
        while let Some(n) = chars.next() {
            match n {
                '\\' => lit.extend(chars.next()),
                _ if n == c => break,
                _ => lit.push(n),
            }
        }
        out.push(lit);
        if out.len() >= MAX_LITERALS {
            break;
        }
    }
    out
}
