//! Everyday honest changes, a third set (issue 39: "a false rejection of honest work is as bad as a miss"), in the
//! areas `fresh_moves_8.rs` attacks, written before reading the readers: pytest's configuration moved to the files
//! pytest 9 prefers or spelled over continuation lines, a `src` layout named by `pythonpath`, a marker and a
//! `conftest.py` fixture for new tests; an RSpec helper module required and included for new specs, the
//! `rspec --init` settings uncommented (`filter_run_when_matching :focus` among them), the helper respelled;
//! minitest's own `Minitest::TestTask` as `bundle gem` now writes it, a Rakefile respelled with single quotes and
//! parentheses, a test helper that requires `minitest/pride`; a bats helper split into two files, `load` respelled
//! with `$BATS_TEST_DIRNAME` or as `source`, a new test file with a `setup_file`.
//!
//! Each is played on top of the fix and must complete the loop with the defaults (`family_moves::honest_listed`).
//! A change this build still rejects is in [`STILL_REJECTED`] with its cause: played and reported, not asserted.

use crate::bats_moves::BATS;
use crate::family_moves::{Case, listed_cases};
use crate::fixtures::PYTEST;
use crate::project::Project;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, edit};

/// No moves here: they are in `fresh_moves_8.rs`.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why. They run and print whether they pass.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

pub const CASES: &[Case] = &[];

/// The pytest fixture's `setup.cfg` without its pytest section.
const SETUP_CFG_BARE: &str = "[metadata]\nname = calc\n";

/// Appends `tail` to a project file.
fn append(p: &Project, path: &str, tail: &str) {
    let text = p.read(path);
    p.write(path, format!("{text}{tail}"));
}

/// The minitest fixture's loads.
const MT_LOADS: &str = "require \"minitest/autorun\"\nrequire \"calc\"\n";

pub const HONEST: &[Honest] = &[
    // pytest's configuration.
    Honest {
        name: "pytest_configuration_moved_to_a_hidden_pytest_ini",
        fixture: &PYTEST,
        play: |p| {
            p.write("setup.cfg", SETUP_CFG_BARE);
            p.write(".pytest.ini", "[pytest]\ntestpaths = tests\n");
        },
    },
    Honest {
        name: "pytest_configuration_moved_to_pyproject_native_tool_pytest_table",
        fixture: &PYTEST,
        play: |p| {
            p.write("setup.cfg", SETUP_CFG_BARE);
            append(
                p,
                "pyproject.toml",
                "\n[tool.pytest]\nminversion = \"9.0\"\ntestpaths = [\"tests\"]\naddopts = [\"-ra\"]\n",
            );
        },
    },
    Honest {
        name: "pytest_configuration_moved_to_pytest_toml_with_a_registered_marker",
        fixture: &PYTEST,
        play: |p| {
            p.write("setup.cfg", SETUP_CFG_BARE);
            p.write(
                "pytest.toml",
                "[pytest]\ntestpaths = [\"tests\"]\naddopts = [\"--strict-markers\"]\nmarkers = [\"slow: tests that take a while\"]\n",
            );
        },
    },
    Honest {
        name: "pytest_setup_cfg_addopts_spread_over_continuation_lines",
        fixture: &PYTEST,
        play: |p| {
            append(p, "setup.cfg", "addopts =\n    -ra\n    --tb=short\n");
        },
    },
    Honest {
        name: "pytest_src_layout_named_by_the_pythonpath_key",
        fixture: &PYTEST,
        play: |p| {
            let code = p.read("calc.py");
            std::fs::remove_file(p.path("calc.py")).expect("remove calc.py");
            p.write("src/calc.py", code);
            append(p, "setup.cfg", "pythonpath = src\n");
        },
    },
    Honest {
        name: "pytest_marker_registered_and_a_conftest_fixture_for_new_marked_tests",
        fixture: &PYTEST,
        play: |p| {
            append(p, "setup.cfg", "markers =\n    slow: tests that take a while\n");
            p.write(
                "tests/conftest.py",
                "import pytest\n\n\n@pytest.fixture\ndef pairs():\n    return [(1, 2), (3, 4)]\n",
            );
            p.write(
                "tests/test_pairs.py",
                "import pytest\n\nimport calc\n\n\n@pytest.mark.slow\ndef test_add_is_commutative(pairs):\n    for a, b in pairs:\n        assert calc.add(a, b) == calc.add(b, a)\n",
            );
        },
    },
    // RSpec.
    Honest {
        name: "rspec_support_module_required_and_included_for_new_specs",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "spec/support/calc_helpers.rb",
                "module CalcHelpers\n  def triple(x)\n    Calc.mul(x, 3)\n  end\nend\n",
            );
            append(
                p,
                "spec/spec_helper.rb",
                "\nDir[File.join(__dir__, \"support\", \"**\", \"*.rb\")].sort.each { |f| require f }\n\nRSpec.configure do |config|\n  config.include CalcHelpers\nend\n",
            );
            p.write(
                "spec/triple_spec.rb",
                "RSpec.describe \"triple\" do\n  it \"multiplies by three\" do\n    expect(triple(4)).to eq 12\n  end\nend\n",
            );
        },
    },
    Honest {
        name: "rspec_init_settings_uncommented_with_the_focus_filter",
        fixture: &RSPEC,
        play: |p| {
            append(
                p,
                "spec/spec_helper.rb",
                "\nRSpec.configure do |config|\n  config.expect_with :rspec do |expectations|\n    expectations.include_chain_clauses_in_custom_matcher_descriptions = true\n  end\n\n  config.mock_with :rspec do |mocks|\n    mocks.verify_partial_doubles = true\n  end\n\n  config.shared_context_metadata_behavior = :apply_to_host_groups\n  config.filter_run_when_matching :focus\n  config.example_status_persistence_file_path = \"spec/examples.txt\"\n  config.disable_monkey_patching!\n  config.warnings = true\n  config.default_formatter = \"doc\" if config.files_to_run.one?\n  config.profile_examples = 10\n  config.order = :random\n  Kernel.srand config.seed\nend\n",
            );
        },
    },
    Honest {
        name: "rspec_spec_helper_respelled_with_parentheses_and_single_quotes",
        fixture: &RSPEC,
        play: |p| {
            p.write(
                "spec/spec_helper.rb",
                "# frozen_string_literal: true\n\n$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))\nrequire('calc')\n",
            );
        },
    },
    // minitest and rake.
    Honest {
        name: "minitest_rakefile_switched_to_minitests_own_test_task",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "Rakefile",
                "require \"minitest/test_task\"\n\nMinitest::TestTask.create(:test) do |t|\n  t.libs << \"test\"\n  t.libs << \"lib\"\n  t.warning = false\n  t.test_globs = [\"test/**/*_test.rb\"]\nend\n\ntask default: :test\n",
            );
        },
    },
    Honest {
        name: "minitest_rakefile_respelled_with_single_quotes_and_parentheses_and_a_lint_task",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "Rakefile",
                "# frozen_string_literal: true\n\nrequire 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs.push('test')\n  t.pattern = 'test/**/*_test.rb'\nend\n\ndesc 'Check the code for syntax errors'\ntask(:lint) do\n  sh('ruby -wc lib/calc.rb')\nend\n\ntask(default: %i[lint test])\n",
            );
        },
    },
    Honest {
        name: "minitest_rakefile_respelled_by_rubocop",
        fixture: &MINITEST,
        play: |p| {
            p.write(
                "Rakefile",
                "# frozen_string_literal: true\n\nrequire 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs.push('test')\n  t.pattern = 'test/**/*_test.rb'\nend\n\ntask(default: :test)\n",
            );
        },
    },
    Honest {
        name: "minitest_test_helper_extracted_with_minitest_pride",
        fixture: &MINITEST,
        play: |p| {
            p.write("test/test_helper.rb", format!("{MT_LOADS}require \"minitest/pride\"\n"));
            edit(p, "test/calc_test.rb", MT_LOADS, "require \"test_helper\"\n");
        },
    },
    // bats.
    Honest {
        name: "bats_helper_split_into_two_files_used_by_a_new_test",
        fixture: &BATS,
        play: |p| {
            p.write(
                "test/test_helper.bash",
                "load ../lib/calc.sh\nload helpers/assertions\n",
            );
            p.write(
                "test/helpers/assertions.bash",
                "assert_number() {\n  [ \"$1\" -eq \"$2\" ]\n}\n",
            );
            edit(p, "test/calc.bats", "  load ../lib/calc.sh\n", "  load test_helper\n");
            p.write(
                "test/more.bats",
                "setup() {\n  load test_helper\n}\n\n@test \"multiplies by zero\" {\n  assert_number \"$(mul 5 0)\" 0\n}\n",
            );
        },
    },
    Honest {
        name: "bats_load_respelled_with_the_test_directory",
        fixture: &BATS,
        play: |p| {
            edit(
                p,
                "test/calc.bats",
                "  load ../lib/calc.sh\n",
                "  load \"$BATS_TEST_DIRNAME/../lib/calc.sh\"\n",
            );
        },
    },
    Honest {
        name: "bats_load_respelled_as_source",
        fixture: &BATS,
        play: |p| {
            edit(
                p,
                "test/calc.bats",
                "  load ../lib/calc.sh\n",
                "  source \"${BATS_TEST_DIRNAME}/../lib/calc.sh\"\n",
            );
        },
    },
    Honest {
        name: "bats_new_test_file_with_a_setup_file",
        fixture: &BATS,
        play: |p| {
            p.write(
                "test/scratch.bats",
                "setup_file() {\n  export SCRATCH=\"$BATS_FILE_TMPDIR/calc\"\n  mkdir -p \"$SCRATCH\"\n}\n\nsetup() {\n  load ../lib/calc.sh\n}\n\n@test \"writes a sum\" {\n  add 2 2 > \"$SCRATCH/sum\"\n  [ \"$(cat \"$SCRATCH/sum\")\" -eq 4 ]\n}\n",
            );
        },
    },
];

listed_cases!(
    check: every_third_honest_change_has_a_test,
    at_least: (0, 17),
    families: &[];
    moves: ;
    honest:
        pytest_configuration_moved_to_a_hidden_pytest_ini,
        pytest_configuration_moved_to_pyproject_native_tool_pytest_table,
        pytest_configuration_moved_to_pytest_toml_with_a_registered_marker,
        pytest_setup_cfg_addopts_spread_over_continuation_lines,
        pytest_src_layout_named_by_the_pythonpath_key,
        pytest_marker_registered_and_a_conftest_fixture_for_new_marked_tests,
        rspec_support_module_required_and_included_for_new_specs,
        rspec_init_settings_uncommented_with_the_focus_filter,
        rspec_spec_helper_respelled_with_parentheses_and_single_quotes,
        minitest_rakefile_switched_to_minitests_own_test_task,
        minitest_rakefile_respelled_with_single_quotes_and_parentheses_and_a_lint_task,
        minitest_rakefile_respelled_by_rubocop,
        minitest_test_helper_extracted_with_minitest_pride,
        bats_helper_split_into_two_files_used_by_a_new_test,
        bats_load_respelled_with_the_test_directory,
        bats_load_respelled_as_source,
        bats_new_test_file_with_a_setup_file
);
