//! The rules, over tokens: what in a file of code under test is a trace of the test runner.
//!
//! Tokens, not text: a comment never counts, and a string literal counts only for what it is in the code — a
//! runner's own name wherever it is (`"PYTEST_CURRENT_TEST"`), a runner's module or flag where it is looked up
//! or compared with (`"pytest" in sys.modules`), a word like `"test"` only beside the process's arguments or
//! environment (`NODE_ENV === 'test'`), a path into the test side (`open("tests/test_calc.py")`). Every walk
//! here is bounded by the token count times a small constant; nothing indexes past the end.

use std::ops::Range;

include!(concat!(env!("OUT_DIR"), "/ecosystem/aware/rules.rs"));

use super::names::{self, LOOKUPS, Traces};
use super::{Family, Lang};
use crate::testsig::lex::{Lexed, TokKind};

/// How far a look at the stack may be from the test name it searches for, in tokens.
const CALLER_REACH: usize = 48;
/// How far the environment may be from a word compared with, in tokens.
const NEAR: usize = 16;
/// How far the arguments may be from a word compared with: right at them, or (for a test binary's name) in
/// the same few statements.
const AT: usize = 4;
const FAR: usize = 48;
/// How far a look at who is running may be from the comparison that decides, in tokens.
pub(super) const REACH: usize = CALLER_REACH;

/// Every ecosystem whose runners leave traces code under test can find: each registered folder with an
/// `aware.rs`.
pub(super) const TRACES: &[&Traces] = &each_aware!(&TRACES);

/// The traces a file in `lang` is read for: its ecosystem's row, or none of the language-bound ones.
fn traces_of(lang: Lang) -> Traces {
    TRACES
        .iter()
        .find(|traces| traces.lang == lang)
        .map_or(Traces::none(lang), |traces| **traces)
}

/// Whether a file name is a setup file of a runner (`jest.setup.js`, `vitest.setup.ts`): a name with one of
/// the runners' setup words ([`Traces::setup_files`]) or `test`.
pub(super) fn names_a_runner_setup(lower: &str) -> bool {
    lower.contains("test")
        || TRACES
            .iter()
            .flat_map(|t| t.setup_files)
            .any(|runner| lower.contains(runner))
}

/// Every trace in `lx` outside the byte ranges in `free` (the test modules a source file holds), as
/// `(line, family)`, in token order.
pub(super) fn find(lx: &Lexed, free: &[Range<usize>]) -> Vec<(u32, Family)> {
    let braces = if lx.lang == Lang::Rust {
        rust::enclosing_braces(lx)
    } else {
        Vec::new()
    };
    let traces = traces_of(lx.lang);
    let assertions = assertions_imported(lx, &traces);
    let mut out = Vec::new();
    // The test modules come in order and do not overlap: one pointer walks them beside the tokens.
    let mut span = 0;
    for (i, tok) in lx.toks.iter().enumerate() {
        while free.get(span).is_some_and(|s| s.end <= tok.start) {
            span += 1;
        }
        if free.get(span).is_some_and(|s| s.contains(&tok.start)) {
            continue;
        }
        let family = match tok.kind {
            TokKind::Str => string(lx, i),
            TokKind::Ident => ident(lx, i, &braces, &traces).or_else(|| {
                (patches_runner(lx, i, assertions, &traces) || redefines_assertion(lx, i))
                    .then_some(Family::PatchesRunner)
            }),
            _ => None,
        };
        if let Some(family) = family {
            out.push((tok.line, family));
        }
    }
    if lx.lang == Lang::Go {
        out.extend(go_embeds(lx, free));
    }
    out
}

/// A string literal's content: prefixes (`r#`, `b`, `f`) and quotes cut off.
pub(super) fn content(token: &str) -> &str {
    token
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .trim_matches('#')
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
}

fn string(lx: &Lexed, i: usize) -> Option<Family> {
    let text = content(lx.s(i));
    if let Some(family) = names::strong(text) {
        return Some(family);
    }
    if lx.lang == Lang::Shell
        && lx.s(i).starts_with('"')
        && let Some(family) = shell_expansions(text).find_map(names::strong)
    {
        return Some(family);
    }
    if test_path(text) {
        return Some(Family::ReadsTests);
    }
    if !looked_up(lx, i) {
        return None;
    }
    let reach = |env, args, modules| neighbourhood(lx, i, Reach { env, args, modules });
    if names::weak(text) {
        return reach(NEAR, NEAR, NEAR);
    }
    if names::env_word(text) {
        return reach(NEAR, AT, 0);
    }
    if names::exe_word(text) {
        return reach(0, FAR, 0);
    }
    (names::test_marker(text) && names::is_name(text) && name_lookup(lx, i)).then_some(Family::TestMarker)
}

/// The names a double-quoted shell string expands (`"$BATS_TEST_FILENAME"`, `"${BATS_TMPDIR:-/tmp}/x"`): each
/// `$` or `${` followed by a name, the name up to the first byte that cannot be in one. A `\$` is a dollar sign.
pub(super) fn shell_expansions(text: &str) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    (0..b.len())
        .filter(move |&at| b[at] == b'$' && (at == 0 || b[at - 1] != b'\\'))
        .filter_map(move |at| {
            let start = at + 1 + usize::from(b.get(at + 1) == Some(&b'{'));
            let len = b[start.min(b.len())..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            (len > 0).then(|| &text[start..start + len])
        })
}

/// Whether the string at `i` is looked up as a name: `getattr(sys, "…")`, `os.environ["…"]`, `getenv("…")`.
fn name_lookup(lx: &Lexed, i: usize) -> bool {
    const BY_NAME: &[&str] = &[
        "getattr",
        "hasattr",
        "get",
        "getenv",
        "Getenv",
        "LookupEnv",
        "var",
        "var_os",
        "env",
    ];
    let index = lx.is(i.wrapping_sub(1), b'[') && lx.is(i + 1, b']');
    index || callee(lx, i).is_some_and(|name| BY_NAME.contains(&name))
}

fn ident(lx: &Lexed, i: usize, braces: &[Option<usize>], traces: &Traces) -> Option<Family> {
    let word = lx.s(i);
    // A shell's `$NAME` and `${NAME…}` outside quotes: the name, up to what follows it (`:-`, `#`).
    let expanded = lx.is(i.wrapping_sub(1), b'$') || lx.is(i.wrapping_sub(1), b'{') && lx.is(i.wrapping_sub(2), b'$');
    if lx.lang == Lang::Shell && expanded {
        let name = word.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next();
        if let Some(family) = name.and_then(names::strong) {
            return Some(family);
        }
    }
    let after_dot = lx.is(i.wrapping_sub(1), b'.');
    let owner = if after_dot { lx.s(i.wrapping_sub(2)) } else { "" };
    match lx.lang {
        Lang::Rust if word == "cfg" || word == "cfg_attr" => {
            return rust::cfg_test(lx, i, braces).then_some(Family::TestBuild);
        }
        Lang::Rust if word == "name" && after_dot && rust::thread_name(lx, i) => return Some(Family::Caller),
        _ => {}
    }
    // `typeof jest`, `import.meta.vitest`, `testing.Testing()`.
    let typeof_global = word == "typeof" && traces.globals.contains(&lx.s(i + 1));
    if typeof_global || after_dot && traces.loaded_members.contains(&(owner, word)) {
        return Some(Family::RunnerLoaded);
    }
    // `defined?(Minitest)`, `defined? RSpec`, `Object.const_defined?(:RSpec)`.
    if traces.defined_checks.contains(&word) {
        let at = if lx.is(i + 1, b'(') { i + 2 } else { i + 1 };
        let name = lx.s(at).trim_start_matches(':');
        return traces.runner_constants.contains(&name).then_some(Family::RunnerLoaded);
    }
    if after_dot && owner == "env" && names::strong(word).is_some() {
        return Some(Family::RunnerEnv);
    }
    let global = traces.global_objects.contains(&owner);
    if after_dot && global && traces.globals.contains(&word) {
        return Some(Family::RunnerLoaded);
    }
    if after_dot && (global || ["sys", "builtins", "__builtins__"].contains(&owner)) && names::test_marker(word) {
        return Some(Family::TestMarker);
    }
    caller(lx, i, (word, after_dot, owner), traces).then_some(Family::Caller)
}

/// Whether the identifier at `i` defines a test framework's assertion anew under its own name — Rust's
/// `macro_rules! assert_eq`, C++'s `#define EXPECT_EQ` or `#undef EXPECT_EQ` — so that the tests' text, unchanged,
/// calls the code's definition and checks nothing (the test modules a file holds are free, see [`find`]).
fn redefines_assertion(lx: &Lexed, i: usize) -> bool {
    TRACES.iter().any(|traces| (traces.redefines_assertion)(lx, i))
}

/// Whether the identifier at `i` heads an assignment into a test runner's or assertion library's object
/// (`unittest.TestCase.assertEqual = …`, `assert.strictEqual = …`), or is `setattr` on one: code under test that
/// rewrites what the tests check with. JavaScript's heads count only in a file that imports an assertion library
/// (`assertions`), where the name is that library and not a helper of the code's own.
fn patches_runner(lx: &Lexed, i: usize, assertions: bool, traces: &Traces) -> bool {
    let head = |j: usize| {
        lx.kind(j) == Some(TokKind::Ident)
            && !lx.is(j.wrapping_sub(1), b'.')
            && assertions
            && traces.objects.contains(&lx.s(j))
    };
    if traces.setattr.is_some_and(|call| lx.s(i) == call) && lx.is(i + 1, b'(') {
        return head(i + 2);
    }
    if !head(i) {
        return false;
    }
    let mut j = i + 1;
    while lx.is(j, b'.') && lx.kind(j + 1) == Some(TokKind::Ident) {
        j += 2;
    }
    j > i + 1 && lx.is(j, b'=') && !lx.is(j + 1, b'=')
}

/// Whether a file may patch its runner's objects ([`Traces::objects`]): anywhere, or, where those are also
/// common names of a project's own helpers, in a file that imports an assertion library
/// (`require('node:assert')`, `from 'chai'`: a string naming one anywhere in the file).
fn assertions_imported(lx: &Lexed, traces: &Traces) -> bool {
    traces.assertion_modules.is_empty()
        || (0..lx.toks.len())
            .any(|j| lx.kind(j) == Some(TokKind::Str) && traces.assertion_modules.contains(&content(lx.s(j))))
}

/// A look at the stack with a string naming a test within [`CALLER_REACH`] tokens of it.
fn caller(lx: &Lexed, i: usize, (word, after_dot, owner): (&str, bool, &str), traces: &Traces) -> bool {
    let head = traces.caller_heads.iter().any(|(qualifier, heads)| {
        heads.contains(&word)
            && (qualifier.is_empty() && (after_dot || traces.bare_caller) || after_dot && owner == *qualifier)
    });
    head && (i.saturating_sub(CALLER_REACH)..(i + CALLER_REACH).min(lx.toks.len()))
        .any(|j| lx.kind(j) == Some(TokKind::Str) && names::names_a_test(content(lx.s(j))))
}

/// Whether token `j` starts `==` or `!=`.
pub(super) fn compares(lx: &Lexed, j: usize) -> bool {
    (lx.is(j, b'=') || lx.is(j, b'!')) && lx.is(j + 1, b'=')
}

/// Whether the string at `i` is looked up or compared with: an argument of a lookup call, an index, an
/// operand of `==` / `!=` / `in`, a `case`.
fn looked_up(lx: &Lexed, i: usize) -> bool {
    let prev = |k: usize| i.checked_sub(k);
    let before = |k: usize| prev(k).map_or("", |j| lx.s(j));
    let compared = (before(1) == "=" && matches!(before(2), "=" | "!")) || compares(lx, i + 1);
    let index = before(1) == "["
        && prev(2).is_some_and(|j| matches!(lx.kind(j), Some(TokKind::Ident)) || lx.is(j, b')') || lx.is(j, b']'));
    let membership = lx.is_word(i + 1, "in") || lx.is_word(i + 1, "not") && lx.is_word(i + 2, "in");
    compared || index || membership || before(1) == "case" || lookup_call(lx, i)
}

/// Whether the string at `i` is an argument of a call named in [`LOOKUPS`] (`get(…)`, `env!(…)`).
fn lookup_call(lx: &Lexed, i: usize) -> bool {
    callee(lx, i).is_some_and(|name| LOOKUPS.contains(&name))
}

/// The name of the call whose argument list holds token `i` (a macro's without its `!`), looking back a few
/// tokens within the statement.
fn callee<'a>(lx: &Lexed<'a>, i: usize) -> Option<&'a str> {
    let mut j = i;
    for _ in 0..16 {
        j = j.checked_sub(1)?;
        if lx.is(j, b'(') {
            let name = if lx.is(j.wrapping_sub(1), b'!') {
                j.wrapping_sub(2)
            } else {
                j.wrapping_sub(1)
            };
            return Some(lx.s(name));
        }
        if let Some(open) = lx.partner(j).filter(|&open| open < j) {
            j = open;
        } else if lx.is(j, b';') || lx.is(j, b'{') || lx.is(j, b'}') {
            return None;
        }
    }
    None
}

/// How far from a word each kind of neighbour counts, in tokens (0: not at all).
#[derive(Clone, Copy)]
struct Reach {
    env: usize,
    args: usize,
    modules: usize,
}

/// What the tokens around `i` are about, first match wins: the process's arguments or executable, the loaded
/// modules (`sys.modules`, `require.cache`, `find_spec`), the environment — each within its [`Reach`].
fn neighbourhood(lx: &Lexed, i: usize, reach: Reach) -> Option<Family> {
    let widest = reach.env.max(reach.args).max(reach.modules);
    let from = i.saturating_sub(widest);
    let to = (i + widest + 1).min(lx.toks.len());
    let (mut modules, mut env) = (false, false);
    for j in from..to {
        let near = |limit: usize| j.abs_diff(i) <= limit;
        if lx.kind(j) != Some(TokKind::Ident) {
            continue;
        }
        let word = lx.s(j);
        let owner = if lx.is(j.wrapping_sub(1), b'.') {
            lx.s(j.wrapping_sub(2))
        } else {
            ""
        };
        let is_args = word == "argv"
            || word == "execPath"
            || word == "current_exe"
            || word == "Args" && owner == "os"
            || word == "executable" && owner == "sys"
            || word == "args" && lx.is(j + 1, b'(');
        if is_args && near(reach.args) {
            return Some(Family::RunnerArgs);
        }
        modules |= near(reach.modules) && ["modules", "cache", "find_spec", "find_loader", "loaded"].contains(&word);
        env |= near(reach.env) && names::env_ident(word);
    }
    if modules {
        Some(Family::RunnerLoaded)
    } else {
        env.then_some(Family::RunnerEnv)
    }
}

/// Whether a string literal's content is a path into the test side: a test file by the runners' conventions,
/// `conftest.py`, or anything under a tests, snapshots or test-data directory.
pub(super) fn test_path(text: &str) -> bool {
    // Not `spec/`: an API's `spec/openapi.yaml` is no test (a test file under it is, by `is_test_file`).
    const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "__snapshots__", "testdata"];
    if text.is_empty() || text.len() > 300 || text.contains(char::is_whitespace) || text.contains("://") {
        return false;
    }
    let path = std::path::Path::new(text);
    if crate::testsig::is_test_file(path) || path.file_name().is_some_and(|name| name == "conftest.py") {
        return true;
    }
    text.contains('/') && {
        let parts: Vec<&str> = text
            .split('/')
            .filter(|p| !p.is_empty() && *p != "." && *p != "..")
            .collect();
        parts.len() >= 2 && parts[..parts.len() - 1].iter().any(|part| TEST_DIRS.contains(part))
    }
}

/// Go's `//go:embed` directives (comments the compiler reads) that embed a file of the test side.
fn go_embeds<'a>(lx: &'a Lexed, free: &'a [Range<usize>]) -> impl Iterator<Item = (u32, Family)> + 'a {
    lx.comments.iter().filter_map(move |comment| {
        if free.iter().any(|span| span.contains(&comment.start)) {
            return None;
        }
        let text = lx.text.get(comment.start..comment.end)?;
        let args = text.strip_prefix("//go:embed")?;
        args.split_whitespace()
            .any(|arg| test_path(arg.trim_matches(|c| c == '"' || c == '`')))
            .then_some((comment.line, Family::ReadsTests))
    })
}
