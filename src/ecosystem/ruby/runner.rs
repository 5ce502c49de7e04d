//! Ruby: minitest (`ruby -Itest test/calc_test.rb`, `rake test`) and RSpec (`rspec`, `bundle exec rspec`). Both
//! print a dot per passing test and name only their failures, so the names the verdict reads come from
//! loopgate's start hook (`report.rb`, loaded through `RUBYOPT`): each run's own reporter records every test.

use super::{Config, Report, Row, TestFiles};

/// minitest, run by `ruby` on a test file or by rake's `TestTask` (`rake test`). It reads no configuration
/// file of its own; `rake test` reads the Rakefile, sealed as code by the closure (but its test task's display switches) (`closure.rs`: its `TestTask`'s
/// `pattern`, `libs`, `test_files` and `options` are Ruby code, which loopgate does not run to read).
pub(super) const MINITEST: Row = Row {
    id: "minitest",
    name: "minitest",
    config: Config::NONE,
    tests: TestFiles {
        names: &["*_test.rb", "test_*.rb"],
        ..TestFiles::NONE
    },
    report: Report::HookNamed,
};

/// RSpec reads its options from `.rspec` and `.rspec-local` where it runs (and `~/.rspec`), every line an option
/// of its command line (`--pattern`, `--tag`, `--require spec_helper`, `--exclude-pattern`): each is the test
/// side. Its JSON formatter can be asked for through `SPEC_OPTS`, but formatters given there replace the
/// project's own (stdout then holds nothing the model can read), so the start hook listens instead.
pub(super) const RSPEC: Row = Row {
    id: "rspec",
    name: "rspec",
    config: Config {
        files: &[".rspec", ".rspec-local"],
        ..Config::NONE
    },
    tests: TestFiles {
        names: &["*_spec.rb"],
        ..TestFiles::NONE
    },
    report: Report::HookNamed,
};

/// What the interpreter, RubyGems, Bundler, rake's test task and RSpec read.
pub(super) const ENVIRONMENT: super::Environment = super::Environment {
    steers: &[
        "RUBY*",
        "GEM_*",
        "BUNDLE_*",
        "SPEC_OPTS",
        "TEST",
        "TESTOPTS",
        "TESTOPT",
        "MT_*",
    ],
    prints: &[],
    // `-W0` and `-W:no-…` only silence warnings (`$VERBOSE = nil`, a category off): free where no sealed test
    // reads what the run prints or warns (`?`, `runner::Words::free`); a sealed `assert_silent` that fails on
    // the bug's warning would pass under them.
    words: &[super::Words {
        name: "RUBYOPT",
        free: &["?-W0", "?-W:no-deprecated", "?-W:no-experimental"],
    }],
};

super::runners!(Minitest = MINITEST, Rspec = RSPEC; environment: ENVIRONMENT);
