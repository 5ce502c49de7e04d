//! Ruby's traces of the test runner in code under test (`aware::rules`): minitest's and RSpec's variables and
//! top-level constants (`defined?(Minitest)`, `Object.const_defined?(:RSpec)`).

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Exact("SPEC_OPTS"), Family::RunnerEnv),
        (Match::Exact("TESTOPTS"), Family::RunnerEnv),
    ],
    defined_checks: &["defined?", "const_defined?"],
    runner_constants: &["Minitest", "MiniTest", "RSpec", "Test"],
    ..Traces::none(Lang::Ruby)
};
