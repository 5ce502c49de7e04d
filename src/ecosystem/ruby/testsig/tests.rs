//! Ruby: a minitest file (a test class with setup, a helper and ActiveSupport's `test "…"`) and an RSpec file
//! (groups, examples, hooks, `let`), each with a table of edits; the units' shape; markers only where they are
//! calls or metadata; the lexer's strings (interpolation, heredocs, `%` literals, regular expressions) that
//! must not end a block early or hide one.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const MINITEST: &str = r##"# frozen_string_literal: true
require "minitest/autorun"
require_relative "../lib/calc"

class CalcTest < Minitest::Test
  def setup
    @calc = Calc.new
  end

  def test_adds_two_numbers
    assert_equal 3, @calc.add(1, 2)
  end

  def test_parses #{not} interpolation
    input = "1 + #{"2"} # not a comment"
    assert_equal 3, @calc.eval(input) if input
    assert_match %r{\d+ \+ \d+}, input
  end

  def test_report
    text = <<~EOS
      end
      def test_fake
    EOS
    assert_equal "end\ndef test_fake\n", text
    [1, 2].each do |n|
      assert n.positive?
    end
  end

  test "divides by zero" do
    assert_raises(ZeroDivisionError) { @calc.div(1, 0) }
  end

  private

  def three = 3
end
"##;

const MINITEST_CASES: &[Case] = &[
    Case {
        name: "comments and spacing",
        edits: &[
            (
                "    assert_equal 3, @calc.add(1, 2)\n",
                "    # one and two\n    assert_equal 3,   @calc.add(1, 2)\n",
            ),
            ("  def three = 3\n", "  def three = 3 # three\n"),
        ],
        expect: &[],
    },
    Case {
        name: "rubocop's parentheses around an assertion's arguments",
        edits: &[("assert_equal 3, @calc.add(1, 2)", "assert_equal(3, @calc.add(1, 2))")],
        expect: &[],
    },
    Case {
        name: "a new test and a new helper in the class",
        edits: &[(
            "  private\n",
            "  def test_adds_negatives\n    assert_equal(-3, @calc.add(-1, -2))\n  end\n\n  private\n\n  def four = 4\n",
        )],
        expect: &[],
    },
    Case {
        name: "a new test class",
        edits: &[(
            END,
            "\nclass MoreTest < Minitest::Test\n  def test_more\n    assert true\n  end\nend\n",
        )],
        expect: &[],
    },
    Case {
        name: "an assertion weakened",
        edits: &[("assert_equal 3, @calc.add(1, 2)", "assert @calc.add(1, 2)")],
        expect: &["changed CalcTest::test_adds_two_numbers"],
    },
    Case {
        name: "an assertion inside a block weakened",
        edits: &[("      assert n.positive?\n", "      assert n\n")],
        expect: &["changed CalcTest::test_report"],
    },
    Case {
        name: "a heredoc's text changed",
        edits: &[("      def test_fake\n", "      def test_real\n")],
        expect: &["changed CalcTest::test_report"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "  def test_adds_two_numbers\n    assert_equal 3, @calc.add(1, 2)\n  end\n\n",
            "",
        )],
        expect: &["deleted CalcTest::test_adds_two_numbers"],
    },
    Case {
        name: "an ActiveSupport test deleted",
        edits: &[(
            "  test \"divides by zero\" do\n    assert_raises(ZeroDivisionError) { @calc.div(1, 0) }\n  end\n\n",
            "",
        )],
        expect: &["deleted CalcTest::divides by zero"],
    },
    Case {
        name: "a test skipped",
        edits: &[(
            "  def test_adds_two_numbers\n",
            "  def test_adds_two_numbers\n    skip \"later\"\n",
        )],
        expect: &["changed CalcTest::test_adds_two_numbers", "marker Skip skip \"later\""],
    },
    Case {
        name: "a test defined again below, replacing the first",
        edits: &[(
            "  private\n",
            "  def test_adds_two_numbers\n    assert true\n  end\n\n  private\n",
        )],
        expect: &["changed CalcTest::test_adds_two_numbers"],
    },
    Case {
        name: "setup changed",
        edits: &[("@calc = Calc.new\n", "@calc = Calc.new(lenient: true)\n")],
        expect: &["block Setup CalcTest::setup"],
    },
];

const RSPEC: &str = r##"require "spec_helper"

RSpec.describe Calc do
  let(:calc) { described_class.new }

  before do
    calc.reset
  end

  it "adds two numbers" do
    expect(calc.add(1, 2)).to eq 3
  end

  describe "#div" do
    it "divides" do
      expect(calc.div(6, 3)).to eq 2
    end

    context "when dividing by zero" do
      it "raises" do
        expect { calc.div(1, 0) }.to raise_error(ZeroDivisionError)
      end
    end
  end

  it("parses a string with do and end in it") { expect(calc.eval("do 1 end")).to eq 1 }
end
"##;

const RSPEC_CASES: &[Case] = &[
    Case {
        name: "a new example and a new group",
        edits: &[(
            "  it(\"parses",
            "  it \"subtracts\" do\n    expect(calc.sub(3, 1)).to eq 2\n  end\n\n  describe \"#mul\" do\n    it \"multiplies\" do\n      expect(calc.mul(2, 3)).to eq 6\n    end\n  end\n\n  it(\"parses",
        )],
        expect: &[],
    },
    Case {
        name: "the same group described again at the end",
        edits: &[(
            END,
            "\nRSpec.describe Calc do\n  it \"negates\" do\n    expect(calc.neg(1)).to eq(-1)\n  end\nend\n",
        )],
        expect: &[],
    },
    Case {
        name: "an expectation weakened",
        edits: &[("expect(calc.div(6, 3)).to eq 2", "expect(calc.div(6, 3)).to be_truthy")],
        expect: &["changed Calc::#div::divides"],
    },
    Case {
        name: "an example deleted",
        edits: &[(
            "      it \"raises\" do\n        expect { calc.div(1, 0) }.to raise_error(ZeroDivisionError)\n      end\n",
            "",
        )],
        expect: &["deleted Calc::#div::when dividing by zero::raises"],
    },
    Case {
        name: "an example marked xit",
        edits: &[("  it \"adds two numbers\" do", "  xit \"adds two numbers\" do")],
        expect: &[
            "changed Calc::adds two numbers",
            "marker Skip xit \"adds two numbers\" do",
        ],
    },
    Case {
        name: "a group marked xdescribe",
        edits: &[("  describe \"#div\" do", "  xdescribe \"#div\" do")],
        expect: &["block Container Calc::#div", "marker Skip xdescribe \"#div\" do"],
    },
    Case {
        name: "skip metadata",
        edits: &[(
            "  it \"adds two numbers\" do",
            "  it \"adds two numbers\", skip: \"later\" do",
        )],
        expect: &[
            "changed Calc::adds two numbers",
            "marker Skip it \"adds two numbers\", skip: \"later\" do",
        ],
    },
    Case {
        name: "pending inside an example",
        edits: &[(
            "    expect(calc.add(1, 2)).to eq 3\n",
            "    pending \"broken\"\n    expect(calc.add(1, 2)).to eq 3\n",
        )],
        expect: &["changed Calc::adds two numbers", "marker Xfail pending \"broken\""],
    },
    Case {
        name: "a focused example drops the others",
        edits: &[("    it \"divides\" do", "    fit \"divides\" do")],
        expect: &["changed Calc::#div::divides", "marker Only fit \"divides\" do"],
    },
    Case {
        name: "rubocop's autocorrections: call parentheses and string quotes",
        edits: &[
            ("expect(calc.add(1, 2)).to eq 3", "expect(calc.add(1, 2)).to eq(3)"),
            (
                "    it \"divides\" do\n      expect(calc.div(6, 3)).to eq 2",
                "    it 'divides' do\n      expect(calc.div(6, 3)).to eq(2)",
            ),
            (
                "{ expect(calc.eval(\"do 1 end\")).to eq 1 }",
                "{ expect(calc.eval('do 1 end')).to eq(1) }",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "parentheses that change the call count",
        edits: &[("expect(calc.add(1, 2)).to eq 3", "expect(calc.add(1, 2)).to eq(3) + 1")],
        expect: &["changed Calc::adds two numbers"],
    },
    Case {
        name: "parentheses around an operand that a local variable would index or subtract",
        edits: &[("expect(calc.div(6, 3)).to eq 2", "expect(calc.div(6, 3)).to eq [2]")],
        expect: &["changed Calc::#div::divides"],
    },
    Case {
        name: "interpolation is no plain string",
        edits: &[(
            "it \"adds two numbers\" do\n    expect(calc.add(1, 2)).to eq 3",
            "it \"adds two numbers\" do\n    expect(calc.add(1, 2).to_s).to eq '#{3}'",
        )],
        expect: &["changed Calc::adds two numbers"],
    },
    Case {
        name: "a hook changed",
        edits: &[(
            "    calc.reset\n",
            "    calc.reset\n    allow(calc).to receive(:add).and_return(3)\n",
        )],
        expect: &["block Setup Calc::before do"],
    },
];

#[test]
fn ruby_minitest_table() {
    run_table(Lang::Ruby, Scope::TestFile, MINITEST, MINITEST_CASES);
}

#[test]
fn ruby_rspec_table() {
    run_table(Lang::Ruby, Scope::TestFile, RSPEC, RSPEC_CASES);
}

/// `want` as [`shape`] gives it.
fn owned(want: &[(UnitKind, &str)]) -> Vec<(UnitKind, String)> {
    want.iter().map(|(k, n)| (*k, n.to_string())).collect()
}

fn shape(units: &[crate::testsig::Unit]) -> Vec<(UnitKind, String)> {
    let mut out = Vec::new();
    for unit in units {
        out.push((unit.kind, unit.name.clone()));
        out.extend(shape(&unit.children).into_iter().map(|(k, n)| (k, format!("  {n}"))));
    }
    out
}

#[test]
fn ruby_minitest_units_have_the_expected_shape() {
    let got = shape(&parse(Lang::Ruby, MINITEST));
    let want = owned(&[
        (UnitKind::Import, "require \"minitest/autorun\""),
        (UnitKind::Import, "require_relative \"../lib/calc\""),
        (UnitKind::Container, "CalcTest"),
        (UnitKind::Setup, "  setup"),
        (UnitKind::Test, "  test_adds_two_numbers"),
        (UnitKind::Test, "  test_parses"),
        (UnitKind::Test, "  test_report"),
        (UnitKind::Test, "  divides by zero"),
        (UnitKind::Other, "  private"),
        (UnitKind::Helper, "  three"),
    ]);
    assert_eq!(got, want);
}

#[test]
fn ruby_rspec_units_have_the_expected_shape() {
    let got = shape(&parse(Lang::Ruby, RSPEC));
    let want = owned(&[
        (UnitKind::Import, "require \"spec_helper\""),
        (UnitKind::Container, "Calc"),
        (UnitKind::Setup, "  let(:calc) { described_class.new }"),
        (UnitKind::Setup, "  before do"),
        (UnitKind::Test, "  adds two numbers"),
        (UnitKind::Container, "  #div"),
        (UnitKind::Test, "    divides"),
        (UnitKind::Container, "    when dividing by zero"),
        (UnitKind::Test, "      raises"),
        (UnitKind::Test, "  parses a string with do and end in it"),
    ]);
    assert_eq!(got, want);
}

#[test]
fn ruby_markers_are_calls_and_metadata_not_words() {
    let text = r##"describe "queue" do
  it "drains" do
    skip = queue.skip(1) # skip
    pending = [] ; queue.pending
    puts "skip this, pending that, xit"
    omit "no network" unless online?
  end
  it "later", :skip do
  end
  it "now", skip: false do
  end
  it "focused", focus: true do
  end
end
"##;
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Ruby, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(
        found,
        vec![(6, MarkerKind::Skip), (8, MarkerKind::Skip), (12, MarkerKind::Only)]
    );
}

#[test]
fn ruby_modifiers_loops_and_keyword_methods_keep_blocks_whole() {
    let text = r#"class LoopTest < Minitest::Test
  test = 1
  def test_loops
    return if skipped?
    i = 0
    while i < 3 do
      i += 1
    end
    x = if i > 2 then :big else :small end
    assert_equal :big, x unless i.zero?
    range = (1..3)
    assert_equal 3, range.end
    opts = { if: 1, end: 2, class: 3 }
    assert_equal 3, opts[:class]
  end

  def test_after
    assert true
  end
end
"#;
    let got = shape(&parse(Lang::Ruby, text));
    let want = owned(&[
        (UnitKind::Container, "LoopTest"),
        (UnitKind::Other, "  test = 1"),
        (UnitKind::Test, "  test_loops"),
        (UnitKind::Test, "  test_after"),
    ]);
    assert_eq!(got, want);
}

/// A spec helper as the RSpec fixture has it, with a configuration the user wrote.
const SPEC_HELPER: &str = r##"$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "calc"

RSpec.configure do |config|
  config.before { Calc.reset }
end
"##;

/// What `rspec --init` generates (its live part).
const GENERATED: &str = r##"end

RSpec.configure do |config|
  config.expect_with :rspec do |expectations|
    expectations.include_chain_clauses_in_custom_matcher_descriptions = true
  end

  config.mock_with :rspec do |mocks|
    mocks.verify_partial_doubles = true
  end

  config.shared_context_metadata_behavior = :apply_to_host_groups
  config.filter_run_when_matching :focus
  config.disable_monkey_patching!
  config.example_status_persistence_file_path = "spec/examples.txt"
  config.default_formatter = "doc" if config.files_to_run.one?
  config.profile_examples = 10
  config.order = :random
  Kernel.srand config.seed
end
"##;

const SPEC_HELPER_CASES: &[Case] = &[
    Case {
        name: "the generated configuration, the formatter set under its condition and the focus filter included",
        edits: &[("end\n", GENERATED)],
        expect: &[],
    },
    Case {
        name: "a free setting gained by the existing block",
        edits: &[(
            "  config.before { Calc.reset }\n",
            "  config.before { Calc.reset }\n  config.order = :random\n",
        )],
        expect: &[],
    },
    Case {
        name: "hooks, filters and loosened doubles in a new block count",
        edits: &[(
            "end\n",
            "end\n\nRSpec.configure do |c|\n  c.before { allow(Calc).to receive(:add).and_return(3) }\n  c.around { |ex| ex.run rescue nil }\n  c.filter_run_excluding :slow\n  c.filter_run_when_matching :focus\n  c.filter_run_when_matching :fast\n  c.mock_with :rspec do |m|\n    m.verify_partial_doubles = false\n  end\n  config.order = :random\n  c.order = ENV[\"ORDER\"]\nend\n",
        )],
        expect: &[
            "setup Other RSpec.configure::c.before { allow(Calc).to receive(:add).and_return(3) }",
            "setup Other RSpec.configure::c.around { |ex| ex.run rescue nil }",
            "setup Other RSpec.configure::c.filter_run_excluding :slow",
            "setup Other RSpec.configure::c.filter_run_when_matching :fast",
            "setup Other RSpec.configure::c.mock_with :rspec do |m|",
            "setup Other RSpec.configure::config.order = :random",
            "setup Other RSpec.configure::c.order = ENV[\"ORDER\"]",
        ],
    },
    Case {
        name: "the existing hook changed",
        edits: &[("config.before { Calc.reset }", "config.before { Calc.reset(3) }")],
        expect: &["block Other RSpec.configure::config.before { Calc.reset }"],
    },
];

#[test]
fn ruby_spec_helper_configuration_table() {
    run_table(Lang::Ruby, Scope::TestFile, SPEC_HELPER, SPEC_HELPER_CASES);
}
