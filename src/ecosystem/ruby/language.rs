//! What the test-file scanner asks of Ruby (`testsig::Language`): minitest's and RSpec's file names, and the
//! methods a later definition replaces.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::testsig::{Lang, Load, UnitKind};

super::syntax! {
    lang: Lang::Ruby,
    lex: crate::testsig::lex::ruby::lex,
    units: super::super::ruby::units,
    marker: crate::testsig::markers::ruby::at;

    /// minitest's `*_test.rb` / `test_*.rb`, RSpec's `*_spec.rb`; anywhere under `test/` or `spec/` (helpers such
    /// as `test_helper.rb`, `spec/support/*.rb` included) is read by `testsig::is_test_file`.
    fn is_test_name(&self, _name: &str, stem: &str) -> bool {
        stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec")
    }

    /// A method defined again in its class replaces the first (`def test_adds` twice); a group opened again
    /// (`describe Calc` twice, a class reopened) adds to it.
    fn redefines(&self, kind: UnitKind) -> bool {
        matches!(kind, UnitKind::Test | UnitKind::Helper)
    }

    /// `require_relative "../lib/calc"` (the file's own directory) and `require "calc"` (the load path's
    /// directories of the project, as [`Language::load_line`] reads them), with `.rb` where it is left out. A
    /// gem may answer a `require` by the load path; a rename is only read where the sealed file recorded the
    /// project's file (`testseal::renamed`).
    fn import_path(&self, import: &str, _names: &[String], dir: &Path) -> Option<crate::testsig::ImportPath> {
        let load = ruby_load(import, dir)?;
        let spelled = import.split(['"', '\'']).nth(1)?;
        let kind = import.split_whitespace().next()?;
        (matches!(kind, "require" | "require_relative") && !spelled.is_empty()).then(|| crate::testsig::ImportPath {
            spelled: spelled.to_string(),
            quoted: true,
            candidates: load.candidates,
            tail: spelled.into(),
            binds: false,
            unless: Vec::new(),
        })
    }

    /// `require "x"` (the load path: the test's directory, `test/`, `spec/`, `lib/`, as rake's `TestTask` and
    /// RSpec put them on it), `require_relative "x"` (the file's own directory) and `load "x.rb"`, each of one
    /// plain string literal; not one behind a modifier or with code after it.
    fn load_line(&self, line: &str, dir: &Path) -> Option<Load> {
        ruby_load(line, dir)
    }

    /// A literal glob required file by file: `Dir[…]`, `Dir.glob(…)` or Rails' `Rails.root.glob(…)`, optionally
    /// `.sort`ed, then `.each { |f| require f }`; the glob `File.join(__dir__, "a", "**", "*.rb")`,
    /// `File.expand_path("a/**/*.rb", __dir__)`, `"#{__dir__}/a/**/*.rb"` (from the file's directory), or
    /// `Rails.root.join("spec/support/**/*.rb")` (from the project's root), each of plain string literals.
    fn glob_load(&self, line: &str, dir: &Path) -> Option<String> {
        glob_load(line, dir)
    }

    /// `module Name` (a plain constant, no `::`) holding only `def name … end` methods, each with a plain name
    /// (no `self.`, no operator) and a body this reading can delimit (indented deeper than the `def`), then the
    /// module's `end`.
    fn support_module(&self, text: &str) -> Option<(String, Vec<String>)> {
        support_module(text)
    }

    fn defines_constant(&self, text: &str, name: &str) -> bool {
        let quoted = regex::escape(name);
        Regex::new(&format!(r"(?m)(?:\b(?:module|class)\s+(?:\w+::)*{quoted}\b|^\s*{quoted}\s*=[^=~])"))
            .is_ok_and(|found| found.is_match(text))
    }

    fn names_used(&self, text: &str) -> std::collections::BTreeSet<String> {
        NAME_USED
            .find_iter(text)
            .map(|m| m.as_str().trim_start_matches(':').to_string())
            .collect()
    }

    /// A name an example already answers to — `Object`'s and `BasicObject`'s methods, RSpec's example group's,
    /// its matchers' and its mocks' (`ANSWERED`, read from RSpec 3.12 and Ruby 3.1) — so a module mixed into
    /// the examples that defines it would replace what a sealed spec calls.
    fn names_a_command(&self, name: &str) -> bool {
        ANSWERED.split_whitespace().any(|answered| answered == name)
    }

    fn without_includes(&self, text: &str, modules: &[String]) -> String {
        without_includes(text, modules)
    }

    /// `'a'` and `"a"` are one string where nothing in it interpolates or escapes (RuboCop's
    /// `Style/StringLiterals` switches them); `norm` keeps a `#` or a backslash by its quotes.
    fn strings_by_value(&self) -> bool {
        true
    }

    /// `#` interpolates between double quotes (`"#{x}"`), not between single ones.
    fn quote_sensitive(&self) -> &'static [char] {
        &['#']
    }

    /// `eq(3)` is `eq 3` (RuboCop's `Style/MethodCallWithArgsParentheses` adds them, authors drop them), where
    /// both spellings are one call (`norm`).
    fn optional_call_parens(&self) -> bool {
        true
    }
}

/// A whole line that loads one literal path: the keyword and the path.
static LOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r##"^(require|require_relative|load)\s*\(?\s*(?:"([^"#\\]+)"|'([^'\\]+)')\s*\)?\s*;?$"##)
        .expect("a valid pattern")
});

fn ruby_load(line: &str, dir: &Path) -> Option<Load> {
    let found = LOAD.captures(line.trim())?;
    let name = found.get(2).or_else(|| found.get(3))?.as_str();
    if name.starts_with('/') {
        return None;
    }
    let file = if name.ends_with(".rb") {
        name.to_string()
    } else {
        format!("{name}.rb")
    };
    let (candidates, relative_to_loader) = match &found[1] {
        "require_relative" => (vec![dir.join(&file)], true),
        "load" => (vec![PathBuf::from(name), dir.join(name)], false),
        _ if name.starts_with("./") || name.starts_with("../") => (vec![PathBuf::from(&file)], false),
        _ => (
            ["", "test", "spec", "lib"]
                .iter()
                .map(|base| {
                    if base.is_empty() {
                        dir.join(&file)
                    } else {
                        Path::new(base).join(&file)
                    }
                })
                .collect(),
            false,
        ),
    };
    Some(Load {
        candidates,
        relative_to_loader,
    })
}

/// The methods an RSpec example answers to before any module is mixed in, with `Object`'s (Ruby 3.1, RSpec 3.12:
/// `Object`, `BasicObject`, an example group's instance methods public and private, `RSpec::Matchers`,
/// `RSpec::Mocks::ExampleMethods`; plain names only). A support module that defines one of them replaces it in
/// every example that includes the module.
const ANSWERED: &str = "__callee__ __dir__ __id__ __init_memoized __memoized __method__ __send__ a_block_changing a_block_outputting a_block_raising a_block_throwing a_block_yielding_control a_block_yielding_successive_args a_block_yielding_with_args a_block_yielding_with_no_args a_collection_containing_exactly a_collection_ending_with a_collection_including a_collection_starting_with a_falsey_value a_falsy_value a_hash_including a_kind_of a_nil_value a_range_covering a_string_ending_with a_string_including a_string_matching a_string_starting_with a_truthy_value a_value a_value_between a_value_within abort aggregate_failures all allow allow_any_instance_of allow_message_expectations_on_nil an_array_matching an_instance_of an_object_eq_to an_object_eql_to an_object_equal_to an_object_existing an_object_having_attributes an_object_matching an_object_responding_to an_object_satisfying any_args anything array_including as_null_object at_exit autoload autoload? be be_a be_a_kind_of be_an be_an_instance_of be_between be_falsey be_falsy be_instance_of be_kind_of be_nil be_truthy be_within binding block_given? boolean caller caller_locations catch change changing class class_double class_spy clone contain_exactly containing_exactly cover covering define_singleton_method described_class display double duck_type dup end_with ending_with enforce_value_expectation enum_for eq eq_to eql eql? eql_to equal equal? equal_to eval exec exist existing exit exit! expect expect_any_instance_of extend fail fork format freeze frozen? gem gem_original_require gets global_variables hash hash_excluding hash_including hash_not_including have_attributes have_received having_attributes hide_const include including initialize initialize_clone initialize_copy initialize_dup inspect instance_double instance_eval instance_exec instance_of instance_of? instance_spy instance_variable_defined? instance_variable_get instance_variable_set instance_variables is_a? is_expected iterator? itself kind_of kind_of? lambda load local_variables loop match match_array match_regex matcher_supports_value_expectations? matching method method_missing methods nil? no_args null_object? object_double object_id object_spy open output p pending pp print printf private_methods proc protected_methods public_method public_methods public_send putc puts raise raise_error raise_exception raising rand readline readlines receive receive_message_chain receive_messages received_message? remove_instance_variable require require_relative respond_to respond_to? respond_to_missing? responding_to satisfy satisfying select send set_trace_func setup_mocks_for_rspec should should_not should_not_receive should_receive singleton_class singleton_method singleton_method_added singleton_method_removed singleton_method_undefined singleton_methods skip sleep spawn sprintf spy srand start_with starting_with stub stub_chain stub_const subject syscall system taint tainted? tap teardown_mocks_for_rspec test then throw throw_symbol throwing to_enum to_s trace_var trap trust unstub untaint untrace_var untrust untrusted? verify_mocks_for_rspec warn within without_partial_double_verification yield_control yield_self yield_successive_args yield_with_args yield_with_no_args yielding_control yielding_successive_args yielding_with_args yielding_with_no_args";

/// A name a Ruby file uses: a word, with a method's `?` or `!`.
static NAME_USED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z_]\w*[?!]?").expect("a valid pattern"));

/// A plain string literal.
const PLAIN: &str = r##"(?:"[^"#\\]*"|'[^'\\]*')"##;

/// The glob-require line: the glob's expression, then the block that requires each file.
static GLOB_LOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:Dir\s*\[\s*(.+?)\s*\]|Dir\.glob\s*\(\s*(.+?)\s*\)|Rails\.root\.glob\s*\(\s*(.+?)\s*\))(?:\.sort)?\.each\s*(?:\{\s*\|\s*(\w+)\s*\|\s*require\s*\(?\s*(\w+)\s*\)?\s*\}|\(\s*&method\(\s*:require\s*\)\s*\))$",
    )
    .expect("a valid pattern")
});

/// `File.join(BASE, "a", …)` with the file's directory as its base.
static JOIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^File\.join\s*\(\s*(?:__dir__|File\.dirname\s*\(\s*__FILE__\s*\))\s*((?:,\s*{PLAIN}\s*)+)\)$"
    ))
    .expect("a valid pattern")
});

/// `File.expand_path("a/**/*.rb", __dir__)`.
static EXPAND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^File\.expand_path\s*\(\s*({PLAIN})\s*,\s*__dir__\s*\)$")).expect("a valid pattern")
});

/// `"#{__dir__}/a/**/*.rb"`.
static INTERPOLATED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r##"^"#\{__dir__\}/([^"#\\]+)"$"##).expect("a valid pattern"));

/// `Rails.root.join("spec/support/**/*.rb")`, or `("spec", "support", "**", "*.rb")`.
static ROOT_JOIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^Rails\.root\.join\s*\(\s*({PLAIN}(?:\s*,\s*{PLAIN})*)\s*\)$"
    ))
    .expect("a valid pattern")
});

/// One plain string literal.
static ONE_PLAIN: LazyLock<Regex> = LazyLock::new(|| Regex::new(PLAIN).expect("a valid pattern"));

/// The values of the plain string literals in `list`, joined as a path.
fn joined(list: &str) -> String {
    ONE_PLAIN
        .find_iter(list)
        .map(|m| &m.as_str()[1..m.as_str().len() - 1])
        .collect::<Vec<_>>()
        .join("/")
}

fn glob_load(line: &str, dir: &Path) -> Option<String> {
    let found = GLOB_LOAD.captures(line.trim())?;
    if let (Some(var), Some(required)) = (found.get(4), found.get(5))
        && var.as_str() != required.as_str()
    {
        return None;
    }
    let from_dir = |rel: String| Some(dir.join(rel).to_string_lossy().replace('\\', "/"));
    if let Some(rails) = found.get(3) {
        let literal = rails.as_str();
        return ONE_PLAIN
            .is_match(literal)
            .then(|| joined(literal))
            .filter(|_| ONE_PLAIN.find(literal).is_some_and(|m| m.as_str() == literal));
    }
    let expr = found.get(1).or_else(|| found.get(2))?.as_str();
    if let Some(c) = JOIN.captures(expr) {
        return from_dir(joined(&c[1]));
    }
    if let Some(c) = EXPAND.captures(expr) {
        return from_dir(joined(&c[1]));
    }
    if let Some(c) = INTERPOLATED.captures(expr) {
        return from_dir(c[1].to_string());
    }
    if let Some(c) = ROOT_JOIN.captures(expr) {
        return Some(joined(&c[1]));
    }
    None
}

/// `module Name`, its methods, its `end` (see `Language::support_module`).
fn support_module(text: &str) -> Option<(String, Vec<String>)> {
    static MODULE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^module\s+([A-Z]\w*)$").expect("a valid pattern"));
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^def\s+([a-z_]\w*[?!]?)\s*(?:\([\w\s,*&:=]*\)|[\w\s,*&]*)$").expect("a valid pattern")
    });
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let (first, rest) = lines.split_first()?;
    let name = MODULE.captures(first.trim_end())?[1].to_string();
    let (last, body) = rest.split_last()?;
    if *last != "end" {
        return None;
    }
    let mut methods = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let line = body[i];
        let indent = line.len() - line.trim_start().len();
        let found = DEF.captures(line.trim())?;
        methods.push(found[1].to_string());
        // Its body: lines indented deeper, then an `end` at the `def`'s own indentation.
        let mut j = i + 1;
        while j < body.len() && body[j].len() - body[j].trim_start().len() > indent {
            j += 1;
        }
        let closing = body.get(j)?;
        if closing.trim() != "end" || closing.len() - closing.trim_start().len() != indent || indent == 0 {
            return None;
        }
        i = j + 1;
    }
    Some((name, methods))
}

/// `text` without `config.include M` lines for `modules`, and an `RSpec.configure` block left empty.
fn without_includes(text: &str, modules: &[String]) -> String {
    static INCLUDE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\w+\.include\s*\(?\s*([A-Z]\w*)\s*\)?$").expect("a valid pattern"));
    static CONFIGURE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^RSpec\.configure\s+do\s*\|\s*\w+\s*\|$").expect("a valid pattern"));
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| {
            !INCLUDE
                .captures(line.trim())
                .is_some_and(|c| modules.iter().any(|m| *m == c[1]))
        })
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < kept.len() {
        let next_code = (i + 1..kept.len()).find(|&j| !kept[j].trim().is_empty());
        if CONFIGURE.is_match(kept[i].trim())
            && let Some(j) = next_code.filter(|&j| kept[j].trim() == "end")
        {
            i = j + 1;
            continue;
        }
        out.push_str(kept[i]);
        out.push('\n');
        i += 1;
    }
    out
}
