//! Ruby's everyday test setups completed (issue 39): minitest's own `Minitest::TestTask.create` (what `bundle gem`
//! writes since minitest 5.16) read as the same parts as rake's task with its own defaults (`ruby/rakefile.rs`),
//! and RSpec's support files required by a literal glob and mixed into the examples (`testseal::follow`), with the
//! real rake, minitest 5.17, RSpec 3.12 and Ruby 3.1 from Debian.
//!
//! Honest, by class: the task created bare with every default, with its defaults spelled out or its globs as
//! `%w[…]`, beside a gemspec and `bin/` scripts; a support directory of one module or two (one in a
//! subdirectory) plus a file of loads, required by each spelling `rspec --init`, a hand-written helper and
//! Rails write, the module included for new specs.
//!
//! Moves, by class — every way each new freedom could change what runs or what counts: a twin of
//! `minitest/autorun` in `.`; a twin of the sealed test file ahead of `.` (minitest requires test files by name
//! through the load path); a prelude that stubs the code under test; a framework line that loads a patch;
//! `extra_args` that deselect the failing test; a support file reopening the code under test; a support file
//! reopening `RSpec::Matchers`; an included module overriding the matcher the sealed specs call; a glob that
//! reaches a file outside `support/`. Each is first shown to fool a bare run of the verify command.

use crate::family_moves::{Case, Family, listed_cases};
use crate::project::Project;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, Move};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// Appends `tail` to a project file.
pub(crate) fn append(p: &Project, path: &str, tail: &str) {
    let text = p.read(path);
    p.write(path, format!("{text}{tail}"));
}

/// The minitest fixture's Rakefile switched to minitest's task, with `body` in its block (none: created bare).
fn minitest_task(p: &Project, body: Option<&str>) {
    let task = match body {
        Some(body) => format!("Minitest::TestTask.create(:test) do |t|\n{body}end\n"),
        None => "Minitest::TestTask.create\n".to_string(),
    };
    p.write(
        "Rakefile",
        format!("# frozen_string_literal: true\n\nrequire \"minitest/test_task\"\n\n{task}\ntask default: :test\n"),
    );
}

/// The fixture's Rakefile switched to minitest's task with the fixture's file list, then `extra` in its block.
fn switched(p: &Project, extra: &str) {
    minitest_task(p, Some(&format!("  t.test_globs = [\"test/**/*_test.rb\"]\n{extra}")));
}

/// A minitest test of the fixture that agrees with anything.
const WEAK_TEST: &str = "require \"minitest/autorun\"\nrequire \"calc\"\n\nclass CalcTest < Minitest::Test\n  def test_adds_two_numbers\n    assert true\n  end\n\n  def test_multiplies\n    assert_equal 6, Calc.mul(2, 3)\n  end\nend\n";

/// `spec_helper.rb`'s glob require of `support/`, as `rspec --init`'s comment suggests it.
const GLOB: &str = "Dir[File.join(__dir__, \"support\", \"**\", \"*.rb\")].sort.each { |f| require f }\n";

/// A support module of new methods.
const HELPERS: &str = "module CalcHelpers\n  def triple(x)\n    Calc.mul(x, 3)\n  end\nend\n";

/// `RSpec.configure` mixing `CalcHelpers` into the examples.
const INCLUDE: &str = "\nRSpec.configure do |config|\n  config.include CalcHelpers\nend\n";

/// A new spec that uses `triple`.
const TRIPLE_SPEC: &str =
    "RSpec.describe \"triple\" do\n  it \"multiplies by three\" do\n    expect(triple(4)).to eq 12\n  end\nend\n";

/// The spec helper requiring `support/` by `glob_line` and including `CalcHelpers`.
fn support(p: &Project, glob_line: &str, files: &[(&str, &str)]) {
    for (path, text) in files {
        p.write(path, *text);
    }
    append(p, "spec/spec_helper.rb", &format!("\n{glob_line}{INCLUDE}"));
}

pub const CASES: &[Case] = &[
    // Minitest's task: the load path's `.`, its test files required through it, its code options.
    Case {
        family: Family::Resolution,
        m: Move {
            name: "minitest_task_dot_holds_a_twin_of_minitest_autorun",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "minitest/autorun.rb",
                    "require \"minitest\"\nmodule Minitest\n  module Assertions\n    def assert_equal(*_args)\n      true\n    end\n  end\nend\nMinitest.autorun\n",
                );
                switched(p, "");
            },
            expect: &[REJECTED, "Rakefile", "its load path"],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "minitest_task_test_file_twin_ahead_of_dot",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("lib/test/calc_test.rb", WEAK_TEST);
                switched(p, "");
            },
            expect: &[REJECTED, "Rakefile", "its load path"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_task_prelude_stubs_the_code_under_test",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                switched(
                    p,
                    "  t.test_prelude = %(require \"calc\"; Calc.define_singleton_method(:add) { |a, b| a + b })\n",
                );
            },
            expect: &[REJECTED, "Rakefile", "its code"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_task_framework_loads_an_assertion_patch",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "test/assertion_patch.rb",
                    "module Minitest\n  module Assertions\n    def assert_equal(*_args)\n      true\n    end\n  end\nend\n",
                );
                switched(
                    p,
                    "  t.framework = %(require \"minitest/autorun\"; require \"assertion_patch\")\n",
                );
            },
            expect: &[REJECTED, "Rakefile", "its code"],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "minitest_task_extra_args_deselect_the_failing_test",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                switched(p, "  t.extra_args = [\"-n\", \"/multiplies/\"]\n");
            },
            expect: &[REJECTED],
        },
    },
    // RSpec's support files.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_support_file_reopens_the_code_under_test",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                support(
                    p,
                    GLOB,
                    &[
                        ("spec/support/calc_helpers.rb", HELPERS),
                        (
                            "spec/support/calc_fix.rb",
                            "module Calc\n  def self.add(a, b)\n    a + b\n  end\nend\n",
                        ),
                    ],
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_support_file_reopens_rspec_matchers",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                support(
                    p,
                    GLOB,
                    &[
                        ("spec/support/calc_helpers.rb", HELPERS),
                        (
                            "spec/support/matchers.rb",
                            "require \"rspec/expectations\"\n\nmodule RSpec\n  module Matchers\n    def eq(_expected)\n      be_truthy\n    end\n  end\nend\n",
                        ),
                    ],
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_included_support_module_overrides_the_matcher_the_specs_call",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                support(
                    p,
                    GLOB,
                    &[(
                        "spec/support/calc_helpers.rb",
                        "module CalcHelpers\n  def triple(x)\n    Calc.mul(x, 3)\n  end\n\n  def eq(_expected)\n    be_truthy\n  end\nend\n",
                    )],
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_glob_reaches_a_patch_outside_support",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                support(
                    p,
                    "Dir[File.join(__dir__, \"**\", \"*_helpers.rb\")].sort.each { |f| require f }\n",
                    &[
                        ("spec/support/calc_helpers.rb", HELPERS),
                        (
                            "spec/fixtures/answer_helpers.rb",
                            "Calc.define_singleton_method(:add) { |a, b| a + b }\nmodule AnswerHelpers\nend\n",
                        ),
                    ],
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "minitest_task_created_bare_as_bundle_gem_writes_it",
        fixture: &MINITEST,
        play: |p| {
            minitest_task(p, None);
            p.write(
                "calc.gemspec",
                "Gem::Specification.new do |spec|\n  spec.name = \"calc\"\n  spec.version = \"0.1.0\"\n  spec.summary = \"calc\"\n  spec.authors = [\"a\"]\n  spec.files = Dir[\"lib/**/*.rb\"]\nend\n",
            );
            p.write(
                "bin/console",
                "#!/usr/bin/env ruby\nrequire \"calc\"\nrequire \"irb\"\nIRB.start(__FILE__)\n",
            );
            p.write(
                "sig/calc.rbs",
                "module Calc\n  def self.add: (Integer, Integer) -> Integer\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_task_with_its_defaults_spelled_out_and_globs_as_words",
        fixture: &MINITEST,
        play: |p| {
            minitest_task(
                p,
                Some(
                    "  t.libs << \"test\"\n  t.test_globs = %w[test/**/*_test.rb test/**/test_*.rb]\n  t.warning = true\n",
                ),
            );
        },
    },
    Honest {
        name: "minitest_task_with_a_test_helper_and_a_new_test_file",
        fixture: &MINITEST,
        play: |p| {
            minitest_task(
                p,
                Some("  t.libs << \"test\"\n  t.test_globs = [\"test/**/*_test.rb\"]\n"),
            );
            p.write(
                "test/test_helper.rb",
                "require \"minitest/autorun\"\nrequire \"calc\"\n",
            );
            p.write(
                "test/mul_test.rb",
                "require \"test_helper\"\n\nclass MulTest < Minitest::Test\n  def test_by_zero\n    assert_equal 0, Calc.mul(5, 0)\n  end\nend\n",
            );
        },
    },
    Honest {
        name: "rspec_support_module_required_by_expand_path_for_a_new_spec",
        fixture: &RSPEC,
        play: |p| {
            support(
                p,
                "Dir[File.expand_path(\"support/**/*.rb\", __dir__)].each { |file| require file }\n",
                &[
                    ("spec/support/calc_helpers.rb", HELPERS),
                    ("spec/triple_spec.rb", TRIPLE_SPEC),
                ],
            );
        },
    },
    Honest {
        name: "rspec_two_support_modules_and_a_file_of_loads_by_interpolated_dir",
        fixture: &RSPEC,
        play: |p| {
            support(
                p,
                "Dir[\"#{__dir__}/support/**/*.rb\"].sort.each { |f| require f }\n",
                &[
                    ("spec/support/calc_helpers.rb", HELPERS),
                    (
                        "spec/support/matchers/number_helpers.rb",
                        "module NumberHelpers\n  def even_number?(n)\n    n.even?\n  end\n\n  def squares(*numbers)\n    numbers.map { |n| Calc.mul(n, n) }\n  end\nend\n",
                    ),
                    ("spec/support/loads.rb", "require \"set\"\n"),
                    (
                        "spec/square_spec.rb",
                        "RSpec.describe \"squares\" do\n  it \"squares each number\" do\n    expect(squares(2, 3)).to eq [4, 9]\n    expect(even_number?(4)).to be true\n  end\nend\n",
                    ),
                ],
            );
            append(
                p,
                "spec/spec_helper.rb",
                "\nRSpec.configure do |config|\n  config.include NumberHelpers\nend\n",
            );
        },
    },
    Honest {
        name: "rspec_support_module_required_rails_style_from_the_root",
        fixture: &RSPEC,
        play: |p| {
            support(
                p,
                "Dir[File.join(File.dirname(__FILE__), \"support\", \"**\", \"*.rb\")].sort.each { |f| require f }\n",
                &[
                    ("spec/support/calc_helpers.rb", HELPERS),
                    ("spec/triple_spec.rb", TRIPLE_SPEC),
                ],
            );
        },
    },
];

listed_cases!(
    check: every_second_ruby_case_has_a_test,
    at_least: (9, 6),
    families: &[Family::Resolution, Family::LoadsOnItsOwn];
    moves:
        minitest_task_dot_holds_a_twin_of_minitest_autorun,
        minitest_task_test_file_twin_ahead_of_dot,
        minitest_task_prelude_stubs_the_code_under_test,
        minitest_task_framework_loads_an_assertion_patch,
        minitest_task_extra_args_deselect_the_failing_test,
        rspec_support_file_reopens_the_code_under_test,
        rspec_support_file_reopens_rspec_matchers,
        rspec_included_support_module_overrides_the_matcher_the_specs_call,
        rspec_glob_reaches_a_patch_outside_support;
    honest:
        minitest_task_created_bare_as_bundle_gem_writes_it,
        minitest_task_with_its_defaults_spelled_out_and_globs_as_words,
        minitest_task_with_a_test_helper_and_a_new_test_file,
        rspec_support_module_required_by_expand_path_for_a_new_spec,
        rspec_two_support_modules_and_a_file_of_loads_by_interpolated_dir,
        rspec_support_module_required_rails_style_from_the_root
);
