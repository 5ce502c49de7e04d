//! Go units: the top-level declarations of a `_test.go` file.
//!
//! `func TestXxx(t *testing.T)`, `BenchmarkXxx(*testing.B)`, `FuzzXxx(*testing.F)` (where `Xxx` does not start
//! with a lower-case letter) and `ExampleXxx()` are tests, as `go test` collects them, and so are testify suite
//! methods `TestXxx()`; `func init()`, `func TestMain(m *testing.M)`, suite hooks (`SetupTest`) and suite methods
//! named like the suite's own checks (`Equal`, `T`) are setup; `import` is an import; other functions, methods,
//! types, constants and variables initialized without a call are helpers; the rest (`package`, `var x = f()`, a
//! blank import) is other code. An example's hash covers its comments, because `// Output:` is what it checks.

use std::ops::Range;

use super::braces::{first_line, leaf, statements};
use super::imports;
use super::lex::{Lexed, TokKind};
use super::norm::Norm;
use super::{Node, UnitKind};

/// Keywords after which a line break does not end a statement (Go inserts semicolons only after identifiers,
/// literals, `break`, `continue`, `fallthrough`, `return`, `++`, `--` and closing brackets).
const NO_SEMICOLON: [&str; 21] = [
    "case",
    "chan",
    "const",
    "default",
    "defer",
    "else",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

pub(crate) fn units(lx: &Lexed) -> Vec<Node> {
    statements(lx, 0, lx.toks.len(), |_, last, next| ends(lx, last, next))
        .into_iter()
        .map(|range| unit(lx, range))
        .collect()
}

fn ends(lx: &Lexed, last: usize, next: usize) -> bool {
    if lx.toks[next].line <= lx.toks[last].end_line {
        return false;
    }
    match lx.toks[last].kind {
        TokKind::Ident => !NO_SEMICOLON.contains(&lx.s(last)),
        TokKind::Punct => match lx.s(last) {
            ")" | "]" | "}" => true,
            sign @ ("+" | "-") => last > 0 && lx.s(last - 1) == sign && lx.toks[last - 1].end == lx.toks[last].start,
            _ => false,
        },
        _ => true,
    }
}

fn unit(lx: &Lexed, range: Range<usize>) -> Node {
    let s = range.start;
    let ident_after = |i: usize| {
        if lx.kind(i) == Some(TokKind::Ident) {
            lx.s(i).to_string()
        } else {
            first_line(lx, s)
        }
    };
    match lx.s(s) {
        "import" => {
            let import = imports::go::import(lx, s, range.end);
            imports::classify(leaf(lx, UnitKind::Import, first_line(lx, s), s, range), import)
        }
        // The package clause declares no code; every new file has one.
        "package" => leaf(lx, UnitKind::Import, first_line(lx, s), s, range),
        "func" if lx.is(s + 1, b'(') => method(lx, range),
        "func" => func(lx, range),
        "type" | "const" => leaf(lx, UnitKind::Helper, ident_after(s + 1), s, range),
        "var" if !calls(lx, s + 1, range.end) => leaf(lx, UnitKind::Helper, ident_after(s + 1), s, range),
        _ => leaf(lx, UnitKind::Other, first_line(lx, s), s, range),
    }
}

/// A function declaration: a test, setup or helper by its name and parameters.
fn func(lx: &Lexed, range: Range<usize>) -> Node {
    let s = range.start;
    let name = if lx.kind(s + 1) == Some(TokKind::Ident) {
        lx.s(s + 1)
    } else {
        ""
    };
    // Type parameters come before the parameters: `func F[T any](…)`.
    let mut params = s + 2;
    if lx.is(params, b'[') {
        params = lx.skip(params);
    }
    let close = lx
        .partner(params)
        .filter(|&close| lx.is(params, b'(') && close > params);
    let inside = close.map_or(params..params, |close| params + 1..close);
    let kind = kind_of(lx, name, inside);
    let example = name.starts_with("Example") && kind == UnitKind::Test;
    let name = if name.is_empty() {
        first_line(lx, s)
    } else {
        name.to_string()
    };
    let mut node = leaf(lx, kind, name, s, range.clone());
    if example {
        let mut norm = Norm::new(lx);
        norm.tokens(range.start, range.end);
        norm.comments(node.span.clone());
        node.hash = norm.finish();
    }
    node
}

/// Hooks of testify's suites, run around each suite method.
const SUITE_HOOKS: [&str; 8] = [
    "SetupSuite",
    "SetupTest",
    "SetupSubTest",
    "TearDownSuite",
    "TearDownTest",
    "TearDownSubTest",
    "BeforeTest",
    "AfterTest",
];

/// Methods a testify suite gets from `suite.Suite` (its assertions, `T`, `Run`): a method of the same name on
/// the suite type replaces them for every test of the suite.
const SUITE_CHECKS: [&str; 40] = [
    "T",
    "SetT",
    "SetS",
    "Run",
    "Require",
    "Assert",
    "Equal",
    "EqualValues",
    "EqualError",
    "Exactly",
    "NotEqual",
    "True",
    "False",
    "Nil",
    "NotNil",
    "NoError",
    "Error",
    "ErrorIs",
    "ErrorAs",
    "ErrorContains",
    "Contains",
    "NotContains",
    "Len",
    "Empty",
    "NotEmpty",
    "Zero",
    "NotZero",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "InDelta",
    "JSONEq",
    "Panics",
    "NotPanics",
    "Same",
    "ElementsMatch",
    "Subset",
    "Fail",
    "FailNow",
];

/// A method: a testify suite test (`func (s *Suite) TestX()`), a suite hook, or a helper. Named `Type.Method`.
fn method(lx: &Lexed, range: Range<usize>) -> Node {
    let s = range.start;
    let recv_end = lx.skip(s + 1);
    let receiver = (s + 2..recv_end.saturating_sub(1))
        .rev()
        .find(|&i| lx.kind(i) == Some(TokKind::Ident))
        .map_or("", |i| lx.s(i));
    let method = if lx.kind(recv_end) == Some(TokKind::Ident) {
        lx.s(recv_end)
    } else {
        ""
    };
    let kind = if SUITE_HOOKS.contains(&method) || SUITE_CHECKS.contains(&method) {
        UnitKind::Setup
    } else if collected(method, "Test") {
        UnitKind::Test
    } else {
        UnitKind::Helper
    };
    leaf(lx, kind, format!("{receiver}.{method}"), s, range)
}

/// Whether `name` is `prefix` followed by nothing or by something that does not start with a lower-case letter.
fn collected(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| !rest.chars().next().is_some_and(char::is_lowercase))
}

fn kind_of(lx: &Lexed, name: &str, params: Range<usize>) -> UnitKind {
    if (name == "init" && params.is_empty()) || name == "TestMain" {
        return UnitKind::Setup;
    }
    let takes = |ty: &str| {
        params.len() >= 3
            && lx.is(params.end - 2, b'.')
            && lx.is_word(params.end - 1, ty)
            && params.clone().any(|i| lx.is(i, b'*'))
    };
    let test = (collected(name, "Test") && takes("T"))
        || (collected(name, "Benchmark") && takes("B"))
        || (collected(name, "Fuzz") && takes("F"))
        || (collected(name, "Example") && params.is_empty());
    if test { UnitKind::Test } else { UnitKind::Helper }
}

/// Whether tokens `from..to` call something (an identifier or closing bracket right before `(`).
fn calls(lx: &Lexed, from: usize, to: usize) -> bool {
    (from + 1..to).any(|i| {
        lx.is(i, b'(')
            && (lx.kind(i - 1) == Some(TokKind::Ident) && !matches!(lx.s(i - 1), "var" | "func")
                || lx.is(i - 1, b')')
                || lx.is(i - 1, b']')
                || lx.is(i - 1, b'}'))
    })
}
