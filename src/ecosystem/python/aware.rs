//! Python's traces of the test runner in code under test (`aware::rules`): pytest's and unittest's variables,
//! modules and objects, and the looks at the stack.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[(Match::Prefix("PYTEST_"), Family::RunnerEnv)],
    weak: &["pytest", "py.test", "_pytest", "unittest", "nose", "nose2"],
    objects: &["unittest", "TestCase", "pytest", "_pytest"],
    setattr: Some("setattr"),
    caller_heads: &[
        (
            "inspect",
            &["stack", "currentframe", "getouterframes", "getframeinfo", "trace"],
        ),
        ("sys", &["_getframe"]),
        (
            "traceback",
            &["extract_stack", "format_stack", "walk_stack", "print_stack"],
        ),
    ],
    ..Traces::none(Lang::Python)
};
