//! What test code reads of the named constants a configuration can define before it runs (PHP's `define`, which
//! PHPUnit's `<php><const name value/>` calls before the bootstrap): `schema::EnvReads::constants`.
//!
//! Why: a sealed test that returns early on `defined('CALC_QUICK')` is steered by a `<const name="CALC_QUICK">`
//! as one reading `getenv('CALC_QUICK')` is by an `<env>`; a `<const name="APP_DEBUG">` no test reads is the code
//! under test's input, the agent's as a new constant in the code would be. The test's code says which.
//!
//! A constant is read by its bare name (`CALC_QUICK`, `\CALC_QUICK`, `App\CALC_QUICK`: its last segment) in upper
//! case — PHP's convention, and what tells a constant from a class, a function or a keyword without a parser — or
//! by a call that takes its name ([`Constants::calls`]: `defined('X')`, `constant('X')`, and `define('X', …)`,
//! whose second definition a configuration's would pre-empt). A name built at run time (`constant($name)`,
//! `constant("APP_$x")`) or every constant at once ([`Constants::whole`]: `get_defined_constants()`) reads them
//! all. Not reads: a class constant (`self::LIMIT`, `Calc::MAX`), a property (`$this->MAX`), a declaration
//! (`const LIMIT = 3;`), a class named in upper case (`new DB`, `class A`). What no scan sees: a lower-case constant read by its bare name (named in
//! `docs/threat-model.md`).

use super::super::lex::{Lexed, TokKind};
use super::{inner, separator_before};
use crate::schema::EnvReads;

/// How one language's code reads named constants.
pub(crate) struct Constants {
    /// Calls (compared without case, as PHP's function names are) whose first argument is a constant's name.
    pub(crate) calls: &'static [&'static str],
    /// Calls that read every constant.
    pub(crate) whole: &'static [&'static str],
    /// The globals a configuration can set before the run (PHPUnit's `<var>`, which writes `$GLOBALS`), read
    /// through this map (`$GLOBALS['X']`) or brought into scope by this keyword (`global $X;`): recorded among
    /// the constants, the same question for the language's third channel ([`globals`]).
    pub(crate) globals: Option<(&'static str, &'static str)>,
}

/// Keywords after which a name is a declaration or a class, never a constant read.
const NAMES_NO_CONSTANT: &[&str] = &[
    "const",
    "function",
    "class",
    "interface",
    "trait",
    "enum",
    "extends",
    "implements",
    "new",
    "instanceof",
    "namespace",
    "use",
];

/// What identifier token `i` reads of the constants, by `row`.
pub(super) fn at(row: &Constants, lx: &Lexed, i: usize, out: &mut EnvReads) {
    let word = lx.s(i);
    if let Some(globals) = row.globals {
        self::globals(globals, lx, i, out);
    }
    if word.starts_with('$') {
        return;
    }
    let after_member = separator_before(lx, i).is_some_and(|sep| !lx.is(sep, b'.'));
    if lx.is(i + 1, b'(') {
        let lower = word.to_ascii_lowercase();
        if row.whole.contains(&lower.as_str()) {
            out.all_constants = true;
        } else if row.calls.contains(&lower.as_str()) {
            match name_argument(lx, i + 2) {
                Some(name) => {
                    out.constants.insert(name);
                }
                None => out.all_constants = true,
            }
        }
        return;
    }
    let declared = i
        .checked_sub(1)
        .is_some_and(|before| NAMES_NO_CONSTANT.iter().any(|w| lx.is_word(before, w)));
    let class = lx.is(i + 1, b':') && lx.is(i + 2, b':');
    if !after_member && !declared && !class && upper_case(word) {
        out.constants.insert(word.to_string());
    }
}

/// Whether `word` is spelled as a constant is: no lower-case letter, at least one upper-case one.
fn upper_case(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_uppercase()) && !word.bytes().any(|b| b.is_ascii_lowercase())
}

/// What identifier token `i` reads of the globals (`(map, keyword)`, [`Constants::globals`]): the map indexed by
/// a plain string literal reads that name (`$GLOBALS['DB_DSN']`), the keyword reads each variable it lists
/// (`global $DB_DSN, $CALC_QUICK;`), and the map used any other way (`$GLOBALS[$name]`, `foreach ($GLOBALS …)`)
/// reads every global, as a name built at run time reads every constant. Why among the constants: a `<const>`
/// and a `<var>` of the same name are both judged by whether a sealed test reads that name, and a test that
/// reads one of them by name only makes both count, the safe side.
fn globals((map, keyword): (&'static str, &'static str), lx: &Lexed, i: usize, out: &mut EnvReads) {
    let word = lx.s(i);
    if word == map {
        let literal = lx.is(i + 1, b'[') && lx.kind(i + 2) == Some(TokKind::Str) && lx.is(i + 3, b']');
        let name = inner(if literal { lx.s(i + 2) } else { "" });
        if literal && !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            out.constants.insert(name.to_string());
        } else {
            out.all_constants = true;
        }
    } else if word.eq_ignore_ascii_case(keyword) && lx.kind(i + 1) == Some(TokKind::Ident) {
        let mut at = i + 1;
        while let Some(variable) = (lx.kind(at) == Some(TokKind::Ident))
            .then(|| lx.s(at).strip_prefix('$'))
            .flatten()
        {
            if variable.is_empty() || !variable.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                out.all_constants = true;
                return;
            }
            out.constants.insert(variable.to_string());
            if !lx.is(at + 1, b',') {
                break;
            }
            at += 2;
        }
    }
}

/// The constant a call's first argument at token `i` names: a plain string literal (its last `\` segment, as a
/// bare read is recorded), followed by `,` or `)`; `None` for anything built at run time.
fn name_argument(lx: &Lexed, i: usize) -> Option<String> {
    if lx.kind(i) != Some(TokKind::Str) || !(lx.is(i + 1, b',') || lx.is(i + 1, b')')) {
        return None;
    }
    let text = inner(lx.s(i));
    if text.contains(['$', '{', '}']) {
        return None;
    }
    let name = text.rsplit('\\').next().unwrap_or("");
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
    plain.then(|| name.to_string())
}

#[cfg(test)]
mod tests;
