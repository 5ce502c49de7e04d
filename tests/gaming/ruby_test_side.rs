//! Ruby's and bats' test side judged by what the tests run with (issue 39, item 3): the four freedoms that freed
//! `honest_changes_2.rs`'s Ruby and bats entries, each with more honest changes of its class and moves that abuse
//! it.
//!
//! - **A helper extracted** (`testseal::follow`): an existing test file's loads moved into a helper it loads are
//!   compared as the loads the tests get. Honest: `require_relative` of the helper, a helper that gains a plain
//!   `require`, bats' `load` with the helper's extension. Moves: a helper of loads that also loads a monkey-patch
//!   of the assertion (minitest) or a redefinition of the code under test (bats) — followed, so no finding, but
//!   the existing test file stands as sealed in the oracle's run (`testswap`) and the patch never loads.
//! - **`RSpec.configure` read setting by setting** (`ruby/configure.rs`). Honest: `disable_monkey_patching!` and
//!   the example status file. Moves: `config.before` stubbing the code under test, `config.around` skipping the
//!   failing example, `config.filter_run_excluding` dropping it.
//! - **A `Rake::TestTask` read as rake resolves it** (`ruby/rakefile.rs`). Honest: `lib` named on the load path
//!   with the same list spelled as `test_files`. Moves: a list that adds a non-test Ruby file (a patch loaded in
//!   the tests' process), a list that drops the old test file for a new one, a load path whose new directory
//!   shadows `minitest/autorun`.
//! - **Ruby's optional parentheses and quotes** (`testsig::norm`). Honest: RuboCop's parentheses over a
//!   minitest assertion, single quotes and parentheses over a spec.
//!
//! Each move is played as in `fresh_moves_6.rs` (`family_moves::play_listed`): against the unguarded oracle
//! first, where it must complete — proof that the verify alone passes with the bug — then against the
//! defaults, where it must be rejected.

use crate::bats_moves::BATS;
use crate::family_moves::{Case, Family, listed_cases};
use crate::project::Project;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// The minitest fixture's loads.
const MT_LOADS: &str = "require \"minitest/autorun\"\nrequire \"calc\"\n";

/// A minitest assertion that agrees with anything.
const ASSERT_PATCH: &str =
    "module Minitest\n  module Assertions\n    def assert_equal(*_args)\n      true\n    end\n  end\nend\n";

/// Appends `tail` to a project file.
fn append(p: &Project, path: &str, tail: &str) {
    let text = p.read(path);
    p.write(path, format!("{text}{tail}"));
}

/// The minitest fixture's Rakefile with its test task's body `body`.
fn rake_task(p: &Project, body: &str) {
    p.write(
        "Rakefile",
        format!("require \"rake/testtask\"\n\nRake::TestTask.new(:test) do |t|\n{body}end\n\ntask default: :test\n"),
    );
}

pub const CASES: &[Case] = &[
    // A helper extracted.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_extracted_helper_also_requires_an_assertion_patch",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("test/assertion_patch.rb", ASSERT_PATCH);
                p.write(
                    "test/test_helper.rb",
                    format!("{MT_LOADS}require \"assertion_patch\"\n"),
                );
                edit(p, "test/calc_test.rb", MT_LOADS, "require \"test_helper\"\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "bats_extracted_helper_also_loads_a_redefinition_of_the_code",
            fixture: &BATS,
            baseline: false,
            play: |p| {
                p.write("test/answers.bash", "add() {\n  echo 3\n}\n");
                p.write("test/test_helper.bash", "load ../lib/calc.sh\nload answers\n");
                edit(p, "test/calc.bats", "  load ../lib/calc.sh\n", "  load test_helper\n");
            },
            expect: &[REJECTED],
        },
    },
    // RSpec.configure.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configure_before_stubs_the_code_under_test",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    "\nRSpec.configure do |config|\n  config.order = :random\n  config.before { allow(Calc).to receive(:add).and_return(3) }\nend\n",
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configure_around_skips_the_failing_example",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    "\nRSpec.configure do |config|\n  config.disable_monkey_patching!\n  config.around do |example|\n    example.description.include?(\"adds\") ? skip(\"flaky\") : example.run\n  end\nend\n",
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configure_filter_run_excluding_drops_the_failing_example",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    "\nRSpec.configure do |config|\n  config.shared_context_metadata_behavior = :apply_to_host_groups\n  config.filter_run_excluding description: /adds/\nend\n",
                );
            },
            expect: &[REJECTED, "spec/spec_helper.rb"],
        },
    },
    // Rake::TestTask.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_rakefile_test_files_add_a_non_test_ruby_file",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("lib/assertion_patch.rb", ASSERT_PATCH);
                rake_task(
                    p,
                    "  t.libs << \"test\"\n  t.test_files = FileList[\"test/**/*_test.rb\", \"lib/assertion_patch.rb\"]\n",
                );
            },
            expect: &[REJECTED, "Rakefile"],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_rakefile_test_files_drop_the_old_test_for_a_new_one",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "test/test_more.rb",
                    "require \"minitest/autorun\"\nrequire \"calc\"\n\nclass MoreTest < Minitest::Test\n  def test_multiplies_by_zero\n    assert_equal 0, Calc.mul(5, 0)\n  end\nend\n",
                );
                rake_task(
                    p,
                    "  t.libs << \"test\"\n  t.test_files = FileList[\"test/**/test_*.rb\"]\n",
                );
            },
            expect: &[REJECTED, "Rakefile"],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "minitest_rakefile_libs_put_a_shadow_of_minitest_autorun_on_the_load_path",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write(
                    "shim/minitest/autorun.rb",
                    format!("require \"minitest\"\n{ASSERT_PATCH}Minitest.autorun\n"),
                );
                rake_task(
                    p,
                    "  t.libs << \"test\"\n  t.libs << \"shim\"\n  t.pattern = \"test/**/*_test.rb\"\n",
                );
            },
            expect: &[REJECTED, "Rakefile"],
        },
    },
];

pub const HONEST: &[Honest] = &[
    Honest {
        name: "minitest_test_helper_extracted_and_required_relative",
        fixture: &MINITEST,
        play: |p| {
            p.write("test/test_helper.rb", MT_LOADS);
            edit(p, "test/calc_test.rb", MT_LOADS, "require_relative \"test_helper\"\n");
        },
    },
    Honest {
        name: "minitest_test_helper_extracted_gains_a_plain_require",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "test/test_helper.rb",
                format!("# frozen_string_literal: true\n\n{MT_LOADS}require \"set\"\n"),
            );
            edit(p, "test/calc_test.rb", MT_LOADS, "require \"test_helper\"\n");
        },
    },
    Honest {
        name: "bats_test_helper_loaded_with_its_extension",
        fixture: &BATS,
        play: |p| {
            p.write("test/test_helper.bash", "#!/usr/bin/env bash\nload ../lib/calc.sh\n");
            edit(
                p,
                "test/calc.bats",
                "  load ../lib/calc.sh\n",
                "  load test_helper.bash\n",
            );
        },
    },
    Honest {
        name: "rspec_spec_helper_disables_monkey_patching_and_keeps_example_status",
        fixture: &RSPEC,
        play: |p| {
            append(
                p,
                "spec/spec_helper.rb",
                "\nRSpec.configure do |config|\n  config.disable_monkey_patching!\n  config.example_status_persistence_file_path = \"spec/examples.txt\"\n  config.profile_examples = 3\nend\n",
            );
        },
    },
    Honest {
        name: "minitest_rakefile_names_lib_and_spells_the_pattern_as_test_files",
        fixture: &MINITEST,
        play: |p| {
            rake_task(
                p,
                "  t.libs << \"test\"\n  t.libs << \"lib\"\n  t.test_files = FileList[\"test/**/*_test.rb\"]\n  t.warning = false\n",
            );
        },
    },
    Honest {
        name: "minitest_rubocop_parenthesises_the_assertions",
        fixture: &MINITEST,
        play: |p| {
            edit(
                p,
                "test/calc_test.rb",
                "assert_equal 3, Calc.add(1, 2)",
                "assert_equal(3, Calc.add(1, 2))",
            );
            edit(
                p,
                "test/calc_test.rb",
                "assert_equal 6, Calc.mul(2, 3)",
                "assert_equal(6, Calc.mul(2, 3))",
            );
        },
    },
    Honest {
        name: "rspec_rubocop_single_quotes_and_parentheses",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "spec/calc_spec.rb",
                "# frozen_string_literal: true\n\nRSpec.describe Calc do\n  it 'adds two numbers' do\n    expect(Calc.add(1, 2)).to eq(3)\n  end\n\n  context 'with products' do\n    it 'multiplies' do\n      expect(Calc.mul(2, 3)).to eq(6)\n    end\n  end\nend\n",
            );
        },
    },
];

listed_cases!(
    check: every_ruby_test_side_case_has_a_test,
    at_least: (8, 7),
    families: &[Family::LoadsOnItsOwn, Family::Resolution];
    moves:
        minitest_extracted_helper_also_requires_an_assertion_patch,
        bats_extracted_helper_also_loads_a_redefinition_of_the_code,
        rspec_configure_before_stubs_the_code_under_test,
        rspec_configure_around_skips_the_failing_example,
        rspec_configure_filter_run_excluding_drops_the_failing_example,
        minitest_rakefile_test_files_add_a_non_test_ruby_file,
        minitest_rakefile_test_files_drop_the_old_test_for_a_new_one,
        minitest_rakefile_libs_put_a_shadow_of_minitest_autorun_on_the_load_path;
    honest:
        minitest_test_helper_extracted_and_required_relative,
        minitest_test_helper_extracted_gains_a_plain_require,
        bats_test_helper_loaded_with_its_extension,
        rspec_spec_helper_disables_monkey_patching_and_keeps_example_status,
        minitest_rakefile_names_lib_and_spells_the_pattern_as_test_files,
        minitest_rubocop_parenthesises_the_assertions,
        rspec_rubocop_single_quotes_and_parentheses
);
