//! Rust's own traces: the compile-time test configuration outside a test module, and the test's thread name.
//!
//! `#[cfg(test)]` is the one trace with honest uses outside the test module: a test-only helper at module
//! level (`#[cfg(test)] fn sample()`, an inherent `impl`) only adds to the test build. What can change what
//! the tests see counts — an expression (`cfg!(test)`), a negation (`cfg(not(test))`), an item inside a function
//! body (it shadows the outer one), a trait `impl`, a macro, a `cfg_attr` that is not a `derive` or a lint.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;
use crate::testsig::lex::{Lexed, TokKind};

/// Rust's runners' variables and the test binaries' own flags; `std::backtrace::Backtrace`, bare, looks at the
/// stack.
pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Prefix("RUST_TEST_"), Family::RunnerEnv),
        (Match::Prefix("NEXTEST"), Family::RunnerEnv),
        (Match::Exact("CARGO_TARGET_TMPDIR"), Family::RunnerEnv),
        (Match::Prefix("--test-threads"), Family::RunnerArgs),
        (Match::Exact("--nocapture"), Family::RunnerArgs),
        (Match::Exact("--show-output"), Family::RunnerArgs),
        (Match::Exact("--include-ignored"), Family::RunnerArgs),
    ],
    caller_heads: &[("", &["Backtrace"])],
    bare_caller: true,
    redefines_assertion,
    ..Traces::none(Lang::Rust)
};

/// Most tokens a walk over an item's header (to an `impl`'s body, back from a brace) takes.
const MAX_WALK: usize = 4096;

/// Attributes a `cfg_attr(test, …)` may switch on without changing what the code does.
const HARMLESS_ATTRS: &[&str] = &["derive", "allow", "expect", "warn", "deny", "mutants", "coverage"];

/// The assertion macros Rust's tests call from the standard library: a `macro_rules!` of one of these names in
/// code under test shadows it for every test module below it in the crate (macros are scoped by text).
const ASSERTION_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
];

/// Whether the identifier at `i` of a Rust file heads `macro_rules!` of one of Rust's assertion macros (see
/// `rules::find`).
pub(super) fn redefines_assertion(lx: &Lexed, i: usize) -> bool {
    lx.lang == crate::schema::Lang::Rust
        && lx.s(i) == "macro_rules"
        && lx.is(i + 1, b'!')
        && ASSERTION_MACROS.contains(&lx.s(i + 2))
}

/// For each token, the brace that encloses it (one forward pass, so a file of thousands of attributes stays
/// linear).
pub(super) fn enclosing_braces(lx: &Lexed) -> Vec<Option<usize>> {
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::with_capacity(lx.toks.len());
    for j in 0..lx.toks.len() {
        out.push(stack.last().copied());
        match lx.partner(j) {
            Some(close) if close > j && lx.is(j, b'{') => stack.push(j),
            Some(open) if open < j && lx.is(j, b'}') => while stack.pop().is_some_and(|top| top != open) {},
            _ => {}
        }
    }
    out
}

/// `thread::current().name()` compared with something: the test harness names each test's thread after it.
pub(super) fn thread_name(lx: &Lexed, i: usize) -> bool {
    let before = |k: usize| i.checked_sub(k).map_or("", |j| lx.s(j));
    if before(2) != ")" || before(3) != "(" || before(4) != "current" {
        return false;
    }
    const COMPARED: &[&str] = &[
        "contains",
        "starts_with",
        "ends_with",
        "is_some_and",
        "matches",
        "eq",
        "ne",
    ];
    let mut j = i + 1;
    while j < lx.toks.len() && j < i + super::REACH && !lx.is(j, b';') && !lx.is(j, b'{') {
        if super::compares(lx, j) || COMPARED.contains(&lx.s(j)) && lx.kind(j) == Some(TokKind::Ident) {
            return true;
        }
        j += 1;
    }
    false
}

/// A Rust `cfg(…)` / `cfg!(…)` / `cfg_attr(…)` that names `test`, except where it only adds to the test
/// build: a file's inner attribute, `#[cfg(test)]` on a module-level item that cannot replace anything (a
/// `mod`, `use`, `fn`, type, constant, inherent `impl`: test-only helpers), and a `cfg_attr(test, derive(…))`.
/// Inside a function body, on a trait `impl` or a macro, or negated (`cfg(not(test))`), it can change what
/// the tests see, and counts.
pub(super) fn cfg_test(lx: &Lexed, i: usize, braces: &[Option<usize>]) -> bool {
    let bang = lx.is(i + 1, b'!');
    let open = if bang { i + 2 } else { i + 1 };
    let Some(close) = lx.partner(open).filter(|&close| lx.is(open, b'(') && close > open) else {
        return false;
    };
    let inside = open + 1..close;
    if !inside.clone().any(|j| lx.is_word(j, "test")) {
        return false;
    }
    if lx.s(i) == "cfg_attr" {
        let plain = lx.is_word(open + 1, "test") && lx.is(open + 2, b',');
        return !(plain && HARMLESS_ATTRS.contains(&lx.s(open + 3)));
    }
    if bang {
        return true;
    }
    let before = |k: usize| i.checked_sub(k).map_or("", |j| lx.s(j));
    if before(1) != "[" {
        return true;
    }
    if before(2) == "!" && before(3) == "#" {
        // `#![cfg(test)]`: the whole file is a test module.
        return false;
    }
    if inside.clone().any(|j| lx.is_word(j, "not")) {
        return true;
    }
    let mut j = lx.skip(i - 1);
    while lx.is(j, b'#') && lx.is(j + 1, b'[') {
        j = lx.skip(j + 1);
    }
    if lx.is_word(j, "pub") {
        j += 1;
        if lx.is(j, b'(') {
            j = lx.skip(j);
        }
    }
    while ["async", "unsafe", "extern"].contains(&lx.s(j)) && !lx.is(j + 1, b'{') && !lx.is_word(j + 1, "crate") {
        j += 1;
    }
    const ADDITIVE: &[&str] = &[
        "mod", "use", "extern", "fn", "struct", "enum", "union", "type", "trait", "const", "static",
    ];
    let item = lx.s(j);
    let additive = ADDITIVE.contains(&item) || item == "impl" && !trait_impl(lx, j);
    !(additive && at_module_level(lx, braces.get(i).copied().flatten()))
}

/// Whether the `impl` at `j` implements a trait (`impl … for …` before its body).
fn trait_impl(lx: &Lexed, j: usize) -> bool {
    let mut k = j + 1;
    while k < lx.toks.len().min(j + MAX_WALK) && !lx.is(k, b'{') && !lx.is(k, b';') {
        if lx.is_word(k, "for") {
            return true;
        }
        k = lx.skip(k);
    }
    false
}

/// Whether a token whose enclosing brace is `open` is at module level: outside every brace group, or directly
/// in a `mod` or inherent `impl` body (not in a function body, where a test-only item shadows the outer one).
fn at_module_level(lx: &Lexed, open: Option<usize>) -> bool {
    let Some(open) = open else {
        return true;
    };
    // The words of the header before the brace, back to the previous item's end.
    let mut k = open;
    let mut header = Vec::new();
    while let Some(prev) = k.checked_sub(1).filter(|_| header.len() < MAX_WALK) {
        if lx.is(prev, b';') || lx.is(prev, b'}') || lx.is(prev, b'{') {
            break;
        }
        k = prev;
        header.push(lx.s(k));
    }
    let impl_at = header.iter().rposition(|w| *w == "impl");
    header.contains(&"mod") || impl_at.is_some() && !header.contains(&"for") && !header.contains(&"fn")
}
