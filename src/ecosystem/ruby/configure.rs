//! `RSpec.configure do |config| … end` read setting by setting (the Ruby units, `testsig.rs`).
//!
//! The block is code that runs around every example, so it was one unit of other code: a new one beside the
//! existing tests was a finding however harmless its settings. It is a group now (named `RSpec.configure`) whose
//! statements are each a unit: a setting that cannot turn a failing example into a passing one, nor keep one from
//! running, is a free definition (`UnitKind::Helper`: new ones are the agent's; one changed or removed still
//! counts); every other statement is other code (`UnitKind::Other`), a finding when new — never setup, which a
//! new group's would be free as running around that group's examples only, while `config.before` runs around
//! all of them.
//!
//! Free, each with a literal value, as `rspec --init` writes them:
//! - `config.expect_with :rspec do |e| … end` holding only `include_chain_clauses_in_custom_matcher_descriptions`
//!   (how a custom matcher describes itself), `max_formatted_output_length` (how much of a value a failure
//!   prints), `syntax = :expect` and `strict_predicate_matchers = true` (each can only fail more examples);
//! - `config.mock_with :rspec do |m| … end` holding only `verify_partial_doubles = true` and
//!   `verify_doubled_constant_names = true` (stricter doubles: `false` would let a stub of a method that does
//!   not exist pass, so it counts);
//! - `config.shared_context_metadata_behavior = :apply_to_host_groups` (or `:trigger_inclusion`): how a shared
//!   context's metadata reaches the groups that include it; the shared contexts live in the sealed test files;
//! - `config.order = :random` / `:defined`, `config.seed = N`, `Kernel.srand config.seed`: the order examples run
//!   in, which runs every one of them (an example that passes only after another is the threat model's
//!   order-dependence);
//! - `config.disable_monkey_patching!` (fewer globals: only fails more), `config.warnings`, `config.color`,
//!   `config.profile_examples`, `config.example_status_persistence_file_path` (read only by `--only-failures`,
//!   an option the verify command would have to name), and `config.default_formatter` by a built-in name, also
//!   under `rspec --init`'s `if config.files_to_run.one?`;
//! - `config.filter_run_when_matching :focus`: it drops examples only where some example is focused (`fit`,
//!   `focus: true`), which an existing spec cannot be without changing it (a finding of its own) and a new one
//!   can only by dropping the existing examples, which then do not run and fail the by-name verdict.
//!
//! Counted: anything else — hooks (`before`, `around`, `prepend_before`…), `include`/`extend` of a module,
//! every other filter (`filter_run_excluding`, `filter_run_when_matching` of other metadata, `filter_run`),
//! `fail_fast`, `define_derived_metadata`, `exclude_pattern`, a setting set to anything but a literal. In the
//! oracle's run the helper stands as sealed anyway (`testswap`): this decides a finding, not the verdict.

use std::ops::Range;

use super::statement_end;
use crate::testsig::braces::{container, first_line, leaf};
use crate::testsig::lex::{Lexed, TokKind};
use crate::testsig::{Node, UnitKind};

/// The group's name.
const NAME: &str = "RSpec.configure";

/// RSpec's built-in formatters by name.
const FORMATTERS: [&str; 8] = ["progress", "p", "documentation", "d", "doc", "html", "h", "json"];

/// The group a statement `range` is, when it is `RSpec.configure` with a `do |config|` block over `body`.
pub(super) fn configure(lx: &Lexed, range: Range<usize>, body: Range<usize>) -> Option<Node> {
    let s = range.start;
    if !(lx.is_word(s, "RSpec") && lx.is(s + 1, b'.') && lx.is_word(s + 2, "configure") && lx.is_word(s + 3, "do")) {
        return None;
    }
    let (var, statements) = block_variable(lx, body.clone())?;
    let mut children = Vec::new();
    let mut i = statements.start;
    while i < statements.end {
        let end = statement_end(lx, i, statements.end).max(i + 1);
        let kind = if free(lx, i..end, var) {
            UnitKind::Helper
        } else {
            UnitKind::Other
        };
        children.push(leaf(lx, kind, first_line(lx, i), i, i..end));
        i = end;
    }
    Some(container(lx, NAME.to_string(), s, range, statements, children))
}

/// The block's variable (`|config|`) and the statements after it.
fn block_variable<'a>(lx: &Lexed<'a>, body: Range<usize>) -> Option<(&'a str, Range<usize>)> {
    let b = body.start;
    (lx.is(b, b'|') && lx.kind(b + 1) == Some(TokKind::Ident) && lx.is(b + 2, b'|'))
        .then(|| (lx.s(b + 1), b + 3..body.end))
}

/// Whether the statement `r` of the block whose variable is `var` is a free setting (see the module's doc).
fn free(lx: &Lexed, r: Range<usize>, var: &str) -> bool {
    let words: Vec<&str> = r.clone().map(|i| lx.s(i)).collect();
    match words.as_slice() {
        ["Kernel", ".", "srand", v, ".", "seed"] | ["srand", v, ".", "seed"] => *v == var,
        [v, ".", "disable_monkey_patching!"] => *v == var,
        [v, ".", "filter_run_when_matching", ":focus"] => *v == var,
        [
            v,
            ".",
            "default_formatter",
            "=",
            value,
            "if",
            w,
            ".",
            "files_to_run",
            ".",
            "one?",
        ] => *v == var && *w == var && setting_is_free("default_formatter", value),
        [v, ".", setting, "=", value] => *v == var && setting_is_free(setting, value),
        [v, ".", "expect_with" | "mock_with", ":rspec", "do", ..] if *v == var => {
            let inner = r.start + 5..r.end - 1;
            lx.is_word(r.end - 1, "end") && framework_block(lx, inner, words[2] == "mock_with")
        }
        _ => false,
    }
}

/// Whether `config.SETTING = VALUE` cannot change a verdict.
fn setting_is_free(setting: &str, value: &str) -> bool {
    let boolean = value == "true" || value == "false";
    let number = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    let plain = value.len() >= 2
        && value.starts_with('"')
        && value.ends_with('"')
        && !value[1..value.len() - 1].contains(['"', '\\', '#']);
    match setting {
        "order" => matches!(value, ":random" | ":defined" | "\"random\"" | "\"defined\""),
        "seed" | "profile_examples" => number || (setting == "profile_examples" && boolean),
        "shared_context_metadata_behavior" => matches!(value, ":apply_to_host_groups" | ":trigger_inclusion"),
        "warnings" | "color" => boolean,
        "example_status_persistence_file_path" => plain,
        "default_formatter" => plain && FORMATTERS.contains(&&value[1..value.len() - 1]),
        _ => false,
    }
}

/// Whether the body of an `expect_with :rspec` (`mocks`: `mock_with :rspec`) block holds only free settings.
fn framework_block(lx: &Lexed, inner: Range<usize>, mocks: bool) -> bool {
    let Some((var, statements)) = block_variable(lx, inner) else {
        return false;
    };
    let mut i = statements.start;
    while i < statements.end {
        let end = statement_end(lx, i, statements.end).max(i + 1);
        let words: Vec<&str> = (i..end).map(|k| lx.s(k)).collect();
        let ok = match words.as_slice() {
            [v, ".", setting, "=", value] if *v == var => {
                let boolean = *value == "true" || *value == "false";
                match (mocks, *setting) {
                    (false, "include_chain_clauses_in_custom_matcher_descriptions") => boolean,
                    (false, "max_formatted_output_length") => {
                        *value == "nil" || value.bytes().all(|b| b.is_ascii_digit())
                    }
                    (false, "syntax") => *value == ":expect",
                    (false, "strict_predicate_matchers")
                    | (true, "verify_partial_doubles")
                    | (true, "verify_doubled_constant_names") => *value == "true",
                    _ => false,
                }
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        i = end;
    }
    true
}
