//! An eighth fresh pass by class (issue 39, "Done when"): moves against the freedoms the last session gave pytest's
//! configuration (`python/rootdir.rs`: the file pytest finds, compared key by key), a followed helper
//! (`testseal::follow`: a changed test file's load of a helper that holds only loads is replaced by those loads),
//! RSpec's configuration read statement by statement (`ruby/configure.rs`) and a `Rake::TestTask` read as rake
//! resolves it (`ruby/rakefile.rs`), invented as an attacker who had read SPEC.md, the threat model and how cases
//! are written, not the readers. Every move was first shown to make the verify pass by hand on this machine
//! (pytest 9.2 under Python 3.11, Ruby 3.1 with rake 13.0, RSpec 3.12 and minitest 5.17, bats 1.8).
//!
//! The classes, by channel, with their members:
//! - **a configuration file pytest finds before the sealed one under a name the reader may not list**: pytest 9
//!   searches `pytest.toml`, `.pytest.toml`, `pytest.ini`, `.pytest.ini`, `pyproject.toml`, `tox.ini`, `setup.cfg`
//!   in each directory; the hidden names, and `pyproject.toml`'s native `[tool.pytest]` table (pytest 9's TOML
//!   mode, beside the `ini_options` one), each load a plugin that turns a failed report into a pass;
//! - **a key spelled so that pytest's parser reads it and a simpler one may not**: `addopts` on a continuation line
//!   (iniconfig joins indented lines to the key above), `addopts: …` (iniconfig takes `:` for `=`), the
//!   `[tool.pytest.ini_options]` table spelled as TOML dotted keys at the top of `pyproject.toml`;
//! - **an option spelled so that a reader of `addopts` may not see it**: `-plenient` (argparse's attached value),
//!   `-o pythonpath=shim` (an ini key set from the command line inside `addopts`);
//! - **an option that reports every test passed without calling it**: `--setup-only` runs each test's setup and
//!   teardown and skips its call, and the JUnit report lists every test with no failure;
//! - **a key that changes what the tests import**: `pythonpath` putting a directory with a correct copy of the
//!   module first on `sys.path` (the shadow class of `shadow_moves.rs`, through the configuration);
//! - **RSpec's configuration reached without a `RSpec.configure` statement of the reader's shape**:
//!   `RSpec.configuration.before` at the top of the helper, `config.send(:before)`, `RSpec.configure(&stub)` with a
//!   proc defined above, `RSpec::Matchers.define(:eq)` redefining the matcher the specs use;
//! - **code the existing tests' helper loads that the tests' side does not judge**: `spec_helper` gaining a
//!   `require_relative` of a new support file that reopens the code under test;
//! - **a helper resolved to another file than the one followed**: minitest's `require "test_helper"` under a
//!   `TestTask` whose `libs` are `lib` then `test` finds `lib/test_helper.rb` first; bats' `load NAME` takes
//!   `NAME.bash` before `NAME` — for an extracted helper, and for the existing test's own
//!   `load ../lib/calc.sh` (`calc.sh.bash`, the test file untouched);
//! - **a helper whose loads are computed**: a bats helper that loads in a `for` loop, one of them a redefinition;
//! - **rake's test task reached other than through the literal keys**: `ruby_opts` preloading an assertion patch,
//!   a `rakelib/*.rake` that clears `test` and defines it again over a weakened copy of the test, and
//!   `test_files` computed by `FileList#exclude` dropping the sealed file for a weakened copy with the same names.
//!
//! Each case is played as in `fresh_moves_7.rs` (`family_moves::play_listed`): first shown to fool the bare oracle
//! (`crate::prove`), then against the defaults, where it must be rejected. A move this build lets through is in
//! [`STILL_THROUGH`] with why. The honest everyday changes of the same areas are in `honest_changes_3.rs`.

use crate::bats_moves::BATS;
use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::PYTEST;
use crate::project::Project;
use crate::ruby_moves::{MINITEST, RSPEC};
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why. Their proof runs; their guarded half is not asserted.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// No honest change here: they are in `honest_changes_3.rs`.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// A pytest plugin in the project root that turns every failed report into a pass.
const LENIENT: &str = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    report = outcome.get_result()\n    if report.failed:\n        report.outcome = \"passed\"\n";

/// The fixture's module, fixed.
const CALC_FIXED: &str = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";

/// The pytest fixture's `setup.cfg` with `tail` at the end of its pytest section.
fn setup_cfg(p: &Project, tail: &str) {
    p.write(
        "setup.cfg",
        format!("[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\n{tail}"),
    );
}

/// The lenient plugin, and `setup_cfg` with `tail`.
fn lenient_with(p: &Project, tail: &str) {
    p.write("lenient.py", LENIENT);
    setup_cfg(p, tail);
}

/// Appends `tail` to a project file.
fn append(p: &Project, path: &str, tail: &str) {
    let text = p.read(path);
    p.write(path, format!("{text}{tail}"));
}

/// A stub of `Calc.add` for every example.
const STUB: &str = "allow(Calc).to receive(:add).and_return(3)";

/// A minitest assertion that agrees with anything, loaded after minitest.
const ASSERT_PATCH: &str = "require \"minitest\"\n\nmodule Minitest\n  module Assertions\n    def assert_equal(*_args)\n      true\n    end\n  end\nend\n";

/// The minitest fixture's loads.
const MT_LOADS: &str = "require \"minitest/autorun\"\nrequire \"calc\"\n";

/// The minitest fixture's test with the failing assertion weakened, names kept.
fn weakened_minitest(p: &Project) -> String {
    p.read("test/calc_test.rb").replace(
        "assert_equal 3, Calc.add(1, 2)",
        "assert_equal Calc.add(1, 2), Calc.add(1, 2)",
    )
}

/// `add` and `mul` as they should be, in shell.
const SH_FIXED: &str = "add() {\n  echo $(( $1 + $2 ))\n}\n\nmul() {\n  echo $(( $1 * $2 ))\n}\n";

pub const CASES: &[Case] = &[
    // A configuration file pytest finds before the sealed one, under a name the reader may not list.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_hidden_pytest_ini_found_before_setup_cfg_loads_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("lenient.py", LENIENT);
                p.write(".pytest.ini", "[pytest]\ntestpaths = tests\naddopts = -p lenient\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_hidden_pytest_toml_found_before_setup_cfg_loads_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("lenient.py", LENIENT);
                p.write(
                    ".pytest.toml",
                    "[pytest]\ntestpaths = [\"tests\"]\naddopts = [\"-p\", \"lenient\"]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_pyproject_native_tool_pytest_table_loads_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("lenient.py", LENIENT);
                append(
                    p,
                    "pyproject.toml",
                    "\n[tool.pytest]\ntestpaths = [\"tests\"]\naddopts = [\"-p\", \"lenient\"]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // A key spelled so that pytest's parser reads it and a simpler one may not.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_pyproject_dotted_keys_spell_the_table_and_load_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("lenient.py", LENIENT);
                p.write(
                    "pyproject.toml",
                    "tool.pytest.ini_options.testpaths = [\"tests\"]\ntool.pytest.ini_options.addopts = \"-p lenient\"\n\n[project]\nname = \"calc\"\nversion = \"0.1.0\"\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_setup_cfg_addopts_on_a_continuation_line_loads_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| lenient_with(p, "addopts =\n    -ra\n    -p lenient\n"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_setup_cfg_addopts_after_a_colon_loads_a_plugin",
            fixture: &PYTEST,
            baseline: false,
            play: |p| lenient_with(p, "addopts: -p lenient\n"),
            expect: &[REJECTED],
        },
    },
    // An option spelled so that a reader of `addopts` may not see it.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_addopts_plugin_name_attached_to_its_flag",
            fixture: &PYTEST,
            baseline: false,
            play: |p| lenient_with(p, "addopts = -ra -plenient\n"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "pytest_addopts_override_ini_puts_a_correct_copy_of_the_module_first",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("shim/calc.py", CALC_FIXED);
                setup_cfg(p, "addopts = -ra -o pythonpath=shim\n");
            },
            expect: &[REJECTED],
        },
    },
    // An option that reports every test passed without calling it.
    Case {
        family: Family::Forged,
        m: Move {
            name: "pytest_addopts_setup_only_reports_every_test_passed_without_calling_it",
            fixture: &PYTEST,
            baseline: false,
            play: |p| setup_cfg(p, "addopts = --setup-only\n"),
            expect: &[REJECTED],
        },
    },
    // A key that changes what the tests import.
    Case {
        family: Family::Resolution,
        m: Move {
            name: "pytest_pythonpath_key_puts_a_correct_copy_of_the_module_first",
            fixture: &PYTEST,
            baseline: false,
            play: |p| {
                p.write("shim/calc.py", CALC_FIXED);
                setup_cfg(p, "pythonpath = shim\n");
            },
            expect: &[REJECTED],
        },
    },
    // RSpec's configuration reached without a `RSpec.configure` statement of the reader's shape.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configuration_object_hooked_outside_a_configure_block",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    &format!("\nRSpec.configuration.before {{ {STUB} }}\n"),
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configure_hook_added_through_send",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    &format!(
                        "\nRSpec.configure do |config|\n  config.order = :defined\n  config.send(:before) {{ {STUB} }}\nend\n"
                    ),
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_configure_given_a_proc_defined_above",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    &format!(
                        "\nsettings = proc do |config|\n  config.before {{ {STUB} }}\nend\nRSpec.configure(&settings)\n"
                    ),
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_spec_helper_redefines_the_eq_matcher",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    "\nRSpec::Matchers.define(:eq) do |expected|\n  match { |actual| true }\nend\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // Through this pass's own relaxation (`config.filter_run_when_matching :focus` is free): a new spec focused,
    // so the failing example is filtered out of the run.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_focus_filter_freed_beside_a_new_focused_example",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                append(
                    p,
                    "spec/spec_helper.rb",
                    "\nRSpec.configure do |config|\n  config.filter_run_when_matching :focus\nend\n",
                );
                p.write(
                    "spec/smoke_spec.rb",
                    "RSpec.describe Calc do\n  fit \"multiplies by one\" do\n    expect(Calc.mul(4, 1)).to eq 4\n  end\nend\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // Code the existing tests' helper loads that the tests' side does not judge.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "rspec_spec_helper_requires_a_new_support_file_that_reopens_the_code",
            fixture: &RSPEC,
            baseline: false,
            play: |p| {
                p.write(
                    "spec/support/calc_extensions.rb",
                    "module Calc\n  def self.add(a, b)\n    a + b\n  end\nend\n",
                );
                append(
                    p,
                    "spec/spec_helper.rb",
                    "require_relative \"support/calc_extensions\"\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    // A helper resolved to another file than the one followed.
    Case {
        family: Family::Resolution,
        m: Move {
            name: "minitest_extracted_helper_twin_under_lib_found_first_on_the_load_path",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("test/test_helper.rb", MT_LOADS);
                p.write("lib/test_helper.rb", format!("{MT_LOADS}{ASSERT_PATCH}"));
                edit(p, "test/calc_test.rb", MT_LOADS, "require \"test_helper\"\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "bats_extracted_helper_twin_with_the_extension_bats_prefers",
            fixture: &BATS,
            baseline: false,
            play: |p| {
                p.write("test/test_helper", "load ../lib/calc.sh\n");
                p.write("test/test_helper.bash", "load ../lib/calc.sh\n\nadd() {\n  echo 3\n}\n");
                edit(p, "test/calc.bats", "  load ../lib/calc.sh\n", "  load test_helper\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "bats_existing_load_gains_a_dot_bash_twin_that_bats_prefers",
            fixture: &BATS,
            baseline: false,
            play: |p| {
                p.write("lib/calc.sh.bash", SH_FIXED);
            },
            expect: &[REJECTED],
        },
    },
    // A helper whose loads are computed.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "bats_extracted_helper_loads_in_a_loop_one_a_redefinition",
            fixture: &BATS,
            baseline: false,
            play: |p| {
                p.write("test/answers.bash", "add() {\n  echo 3\n}\n");
                p.write(
                    "test/test_helper.bash",
                    "for helper in ../lib/calc.sh answers; do\n  load \"$helper\"\ndone\n",
                );
                edit(p, "test/calc.bats", "  load ../lib/calc.sh\n", "  load test_helper\n");
            },
            expect: &[REJECTED],
        },
    },
    // Rake's test task reached other than through the literal keys.
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_rake_test_task_preloads_a_patch_through_ruby_opts",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                p.write("test/assertion_patch.rb", ASSERT_PATCH);
                edit(
                    p,
                    "Rakefile",
                    "  t.libs << \"test\"\n",
                    "  t.libs << \"test\"\n  t.ruby_opts << \"-r./test/assertion_patch\"\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_rakelib_clears_the_test_task_and_defines_it_over_a_weakened_copy",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                let weak = weakened_minitest(p);
                p.write("check/calc_test.rb", weak);
                p.write(
                    "rakelib/ci.rake",
                    "Rake::Task[:test].clear\n\nRake::TestTask.new(:test) do |t|\n  t.libs << \"test\"\n  t.pattern = \"check/*_test.rb\"\nend\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "minitest_rake_test_files_exclude_the_sealed_file_for_a_weakened_copy",
            fixture: &MINITEST,
            baseline: false,
            play: |p| {
                let weak = weakened_minitest(p);
                p.write("check/calc_test.rb", weak);
                edit(
                    p,
                    "Rakefile",
                    "  t.pattern = \"test/**/*_test.rb\"\n",
                    "  t.test_files = FileList[\"{test,check}/**/*_test.rb\"].exclude(\"test/calc_test.rb\")\n",
                );
            },
            expect: &[REJECTED],
        },
    },
];

pub const HONEST: &[Honest] = &[];

listed_cases!(
    check: every_eighth_fresh_case_has_a_test,
    at_least: (20, 0),
    families: &[Family::Forged, Family::Resolution, Family::LoadsOnItsOwn];
    moves:
        pytest_hidden_pytest_ini_found_before_setup_cfg_loads_a_plugin,
        pytest_hidden_pytest_toml_found_before_setup_cfg_loads_a_plugin,
        pytest_pyproject_native_tool_pytest_table_loads_a_plugin,
        pytest_pyproject_dotted_keys_spell_the_table_and_load_a_plugin,
        pytest_setup_cfg_addopts_on_a_continuation_line_loads_a_plugin,
        pytest_setup_cfg_addopts_after_a_colon_loads_a_plugin,
        pytest_addopts_plugin_name_attached_to_its_flag,
        pytest_addopts_override_ini_puts_a_correct_copy_of_the_module_first,
        pytest_addopts_setup_only_reports_every_test_passed_without_calling_it,
        pytest_pythonpath_key_puts_a_correct_copy_of_the_module_first,
        rspec_configuration_object_hooked_outside_a_configure_block,
        rspec_configure_hook_added_through_send,
        rspec_configure_given_a_proc_defined_above,
        rspec_spec_helper_redefines_the_eq_matcher,
        rspec_focus_filter_freed_beside_a_new_focused_example,
        rspec_spec_helper_requires_a_new_support_file_that_reopens_the_code,
        minitest_extracted_helper_twin_under_lib_found_first_on_the_load_path,
        bats_extracted_helper_twin_with_the_extension_bats_prefers,
        bats_existing_load_gains_a_dot_bash_twin_that_bats_prefers,
        bats_extracted_helper_loads_in_a_loop_one_a_redefinition,
        minitest_rake_test_task_preloads_a_patch_through_ruby_opts,
        minitest_rakelib_clears_the_test_task_and_defines_it_over_a_weakened_copy,
        minitest_rake_test_files_exclude_the_sealed_file_for_a_weakened_copy;
    honest:
);
