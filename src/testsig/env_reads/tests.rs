//! Each language's reads, by class: a literal name read, written only, or read whole.

use super::read;
use crate::testsig::Lang;

/// The names `text` reads and whether it reads the environment whole.
fn reads(lang: Lang, text: &str) -> (Vec<String>, bool) {
    let found = read(lang, text, false);
    (found.names.into_iter().collect(), found.wholesale)
}

#[track_caller]
fn names(lang: Lang, text: &str, expected: &[&str]) {
    assert_eq!(
        reads(lang, text),
        (expected.iter().map(|s| s.to_string()).collect(), false),
        "{text}"
    );
}

#[track_caller]
fn whole(lang: Lang, text: &str) {
    assert!(reads(lang, text).1, "{text} reads the environment whole");
}

#[test]
fn python_reads_by_index_get_getenv_and_membership() {
    names(
        Lang::Python,
        "import os\nfrom os import environ\n\ndef test_a():\n    if os.environ.get(\"CALC_QUICK\"):\n        return\n    a = os.environ['A']\n    b = os.getenv('B', '1')\n    assert 'C' in os.environ and 'D' not in environ\n    e = f\"{os.environ['E']}\"\n",
        &["A", "B", "C", "CALC_QUICK", "D", "E"],
    );
    // Writes read nothing; a comment is no code.
    names(
        Lang::Python,
        "import os\nfrom unittest import mock\n\n@mock.patch.dict(os.environ, {\"X\": \"1\"})\ndef test_a(monkeypatch):\n    monkeypatch.setenv(\"Y\", \"1\")\n    os.environ.update({\"Z\": \"1\"})\n    # os.environ.get('W')\n",
        &[],
    );
    whole(Lang::Python, "import os\nenv = os.environ.copy()\n");
    whole(Lang::Python, "import os\nfor k in os.environ:\n    pass\n");
    whole(Lang::Python, "import os\nname = 'X'\nv = os.environ[name]\n");
    whole(Lang::Python, "import os\nv = os.getenv(PREFIX + 'X')\n");
}

#[test]
fn rust_reads_at_run_time_and_at_build_time() {
    names(
        Lang::Rust,
        "#[test]\nfn a() {\n    if std::env::var(\"CALC_QUICK\").is_ok() { return; }\n    let _ = env::var_os(\"B\");\n    let _ = env!(\"C\");\n    let _ = option_env!(\"D\");\n    std::env::set_var(\"E\", \"1\");\n}\n",
        &["B", "C", "CALC_QUICK", "D"],
    );
    whole(Lang::Rust, "fn a() { for (k, v) in std::env::vars() {} }\n");
    whole(Lang::Rust, "fn a() { let n = \"X\"; let _ = std::env::var(n); }\n");
}

#[test]
fn javascript_reads_members_indexes_and_destructuring() {
    names(
        Lang::JavaScript,
        "const { A, B: b, C = '1' } = process.env;\ntest('x', () => {\n  if (process.env.CALC_QUICK) return;\n  const d = process.env['D'];\n  const e = `${process.env.E}`;\n  expect('F' in process.env).toBe(false);\n  const g = process.env?.G;\n});\n",
        &["A", "B", "C", "CALC_QUICK", "D", "E", "F", "G"],
    );
    whole(Lang::JavaScript, "const env = { ...process.env };\n");
    whole(Lang::JavaScript, "const { A, ...rest } = process.env;\n");
    whole(Lang::JavaScript, "const v = process.env[name];\n");
    whole(Lang::JavaScript, "Object.keys(process.env).forEach(k => {});\n");
    // The environment taken out of its holder under another name.
    whole(
        Lang::JavaScript,
        "const { env } = import.meta;\nif (env.VITE_QUICK) {}\n",
    );
    whole(Lang::JavaScript, "const v = import.meta['env'].VITE_QUICK;\n");
    whole(Lang::JavaScript, "const v = import.meta[key];\n");
    whole(Lang::JavaScript, "const { env: e } = process;\n");
    whole(Lang::JavaScript, "const { argv, ...rest } = process;\n");
    whole(Lang::JavaScript, "const v = process['env'].CALC_QUICK;\n");
    // Other uses of the holders read nothing.
    names(
        Lang::JavaScript,
        "const here = import.meta.url;\nconst { argv } = process;\nconst d = import.meta['dirname'];\nprocess.exit(0);\n",
        &[],
    );
}

#[test]
fn go_ruby_php_jvm_cpp_read_by_their_calls_and_maps() {
    names(
        Lang::Go,
        "func TestA(t *testing.T) {\n\tt.Setenv(\"X\", \"1\")\n\tif os.Getenv(\"CALC_QUICK\") != \"\" {\n\t\treturn\n\t}\n\t_, ok := os.LookupEnv(\"B\")\n}\n",
        &["B", "CALC_QUICK"],
    );
    whole(Lang::Go, "func TestA(t *testing.T) { _ = os.Environ() }\n");
    names(
        Lang::Ruby,
        "it 'adds' do\n  return if ENV['CALC_QUICK']\n  ENV.fetch('B', nil)\n  ENV.key?('C')\n  x = \"#{ENV['D']}\"\nend\n",
        &["B", "C", "CALC_QUICK", "D"],
    );
    whole(Lang::Ruby, "ENV.each { |k, v| p k }\n");
    names(
        Lang::Php,
        "<?php\nfunction testAdd() {\n    if (getenv('CALC_QUICK')) { return; }\n    $b = $_ENV['B'] ?? null;\n    $c = $_SERVER['C'];\n}\n",
        &["B", "C", "CALC_QUICK"],
    );
    whole(Lang::Php, "<?php\n$all = getenv();\n");
    names(
        Lang::Java,
        "class CalcTest {\n  @Test void adds() {\n    if (System.getenv(\"CALC_QUICK\") != null) return;\n  }\n}\n",
        &["CALC_QUICK"],
    );
    whole(Lang::Java, "class T { void a() { var m = System.getenv(); } }\n");
    names(
        Lang::Cpp,
        "TEST(Calc, Adds) {\n  if (std::getenv(\"CALC_QUICK\")) return;\n  const char *b = getenv(\"B\");\n}\n",
        &["B", "CALC_QUICK"],
    );
    whole(Lang::Cpp, "extern char **environ;\n");
}

#[test]
fn shell_reads_what_the_file_does_not_set_first() {
    names(
        Lang::Shell,
        "#!/usr/bin/env bats\n\nsetup() {\n  OWN=1\n}\n\n@test \"adds\" {\n  QUICK=${CALC_QUICK:-0}\n  if [ \"$QUICK\" = 1 ]; then skip; fi\n  [ -n \"$OWN\" ]\n  run ./calc \"$1\" $B\n  echo '$NOT_READ'\n  for item in a b; do echo \"$item\"; done\n}\n",
        &["B", "CALC_QUICK"],
    );
    // Read before it is set, on the same line: the environment's value is the one read.
    names(Lang::Shell, "X=${X:-0}\n[ \"$X\" = 0 ]\n", &["X"]);
    whole(Lang::Shell, "name=CALC_QUICK\necho \"${!name}\"\n");
}

/// Only the given byte ranges are read: the test module of a source file that holds code too.
#[test]
fn a_source_file_is_read_in_its_test_modules_only() {
    let text = "pub fn mode() -> bool { std::env::var(\"CALC_MODE\").is_ok() }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() { if std::env::var(\"CALC_QUICK\").is_ok() { return; } }\n}\n";
    let found = read(Lang::Rust, text, true);
    assert_eq!(found.names.into_iter().collect::<Vec<_>>(), ["CALC_QUICK"]);
}

/// Ruby test code reads what the run prints or warns through an output matcher, a warning hook, a stream, a
/// subprocess or a method called by a computed name; a plain assertion, or the words in a comment, read nothing.
/// A language without the reading reads it, whatever the file holds.
#[test]
fn a_test_that_reads_the_runs_output_is_told_by_its_words() {
    use super::reads_output;
    for text in [
        "assert_silent { Calc.add(1, 2) }",
        "out, err = capture_io { Calc.add(1, 2) }",
        "expect { Calc.add(1, 2) }.not_to output.to_stderr",
        "expect { x }.to output(/slow/).to_stderr_from_any_process",
        "Warning[:deprecated] = true",
        "$stderr = StringIO.new",
        "expect(Calc).to receive(:warn)",
        "out = `ruby -Ilib bin/calc`",
        "public_send(\"assert_#{kind}\") { Calc.add(1, 2) }",
    ] {
        assert!(reads_output(Lang::Ruby, text), "{text}");
    }
    for text in [
        "assert_equal 3, Calc.add(1, 2)",
        "expect(Calc.add(1, 2)).to eq 3 # not to output anything to $stderr",
        "next if ENV.fetch(\"CALC_QUICK\", nil)",
    ] {
        assert!(!reads_output(Lang::Ruby, text), "{text}");
    }
    assert!(reads_output(
        Lang::Rust,
        "#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n"
    ));
}

/// Python test code reads what the run prints or warns through the `warnings` module, a warning or log
/// assertion, a capturing fixture, a stream or a subprocess, or a name reached at run time; a plain assertion
/// reads nothing.
#[test]
fn a_python_test_that_reads_the_runs_output_is_told_by_its_words() {
    use super::reads_output;
    for text in [
        "with self.assertWarns(DeprecationWarning):\n    add(1, 2)\n",
        "def test_add(recwarn):\n    add(1, 2)\n",
        "with pytest.deprecated_call():\n    add(1, 2)\n",
        "with warnings.catch_warnings(record=True) as w:\n    add(1, 2)\n",
        "def test_add(capsys):\n    add(1, 2)\n",
        "out = subprocess.run([sys.executable, '-m', 'calc'])\n",
        "getattr(self, 'assert' + kind)(add(1, 2))\n",
    ] {
        assert!(reads_output(Lang::Python, text), "{text}");
    }
    assert!(!reads_output(
        Lang::Python,
        "import os\n\ndef test_add():\n    assert add(1, 2) == 3  # warnings aside\n"
    ));
}
