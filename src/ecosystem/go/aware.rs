//! Go's traces of the test runner in code under test (`aware::rules`): the test binary's flags, `testing`'s
//! own questions (`testing.Testing()`), and the looks at the stack.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Prefix("-test."), Family::RunnerArgs),
        (Match::Exact("test.v"), Family::RunnerArgs),
        (Match::Exact("test.run"), Family::RunnerArgs),
        (Match::Exact("test.short"), Family::RunnerArgs),
        (Match::Exact("test.count"), Family::RunnerArgs),
        (Match::Exact("test.timeout"), Family::RunnerArgs),
        (Match::Exact("test.paniconexit0"), Family::RunnerArgs),
        (Match::Exact("test.testlogfile"), Family::RunnerArgs),
    ],
    loaded_members: &[
        ("testing", "Testing"),
        ("testing", "Short"),
        ("testing", "Verbose"),
        ("testing", "CoverMode"),
    ],
    caller_heads: &[
        ("runtime", &["Caller", "Callers", "FuncForPC", "Stack"]),
        ("debug", &["Stack"]),
    ],
    ..Traces::none(Lang::Go)
};
