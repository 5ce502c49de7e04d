//! A Rakefile read as code but for what only changes how its test task prints (`closure::READERS`: stored as
//! `rakefile`). The file is Ruby and stays sealed as code: its text is one part, every line of it but a test
//! task's `warning` or `verbose` switch set to a literal `true` or `false` through the variable a
//! `Rake::TestTask.new … do |t|` block names. Ruby's `-w` and the echo of the command change what is printed,
//! never which tests run or what they assert; the same switch set to anything but a literal, with a comment, or
//! on another receiver is a line like the rest, and any change to it counts.

use std::sync::LazyLock;

use regex::Regex;

use super::parts::{Reading, Texts};

/// A Rakefile read for its code (`closure::READERS`): stored as `rakefile`, never renamed.
pub(crate) const READING: Reading = Reading {
    kind: "rakefile",
    parts: |text, _| parts(text),
    labels: |_| vec![LABEL.to_string()],
    resolves: None,
};

/// The one part's label: the file's code.
const LABEL: &str = "its code";

/// The variable a test task's block names (`Rake::TestTask.new(:test) do |t|`).
static TEST_TASK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"Rake::TestTask\.new\b.*\bdo\s*\|\s*([A-Za-z_]\w*)\s*\|").expect("a valid pattern"));

/// A display switch set to a literal on a variable: `t.warning = false`.
static SWITCH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z_]\w*)\.(warning|verbose)\s*=\s*(true|false)$").expect("a valid pattern"));

fn parts(text: &str) -> Texts {
    vec![(LABEL.to_string(), sealed_text(text))]
}

/// The Rakefile's lines but its test tasks' display switches.
fn sealed_text(text: &str) -> String {
    let tasks: Vec<&str> = TEST_TASK
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect();
    let free = |line: &str| {
        SWITCH
            .captures(line.trim())
            .and_then(|c| c.get(1))
            .is_some_and(|var| tasks.contains(&var.as_str()))
    };
    text.lines()
        .filter(|line| !free(line))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::sealed_text;

    const RAKEFILE: &str = "require \"rake/testtask\"\n\nRake::TestTask.new(:test) do |t|\n  t.libs << \"test\"\n  t.pattern = \"test/**/*_test.rb\"\nend\n";

    fn with(line: &str) -> String {
        RAKEFILE.replace("  t.libs << \"test\"\n", &format!("  t.libs << \"test\"\n{line}\n"))
    }

    #[test]
    fn a_test_tasks_display_switch_set_to_a_literal_is_free() {
        for line in ["  t.warning = false", "  t.verbose = true", "\tt.warning=true"] {
            assert_eq!(sealed_text(&with(line)), sealed_text(RAKEFILE), "{line}");
        }
    }

    #[test]
    fn anything_else_is_code_and_counts() {
        for line in [
            "  t.warning = ENV[\"W\"] == \"1\"",
            "  t.warning = false # quiet",
            "  u.warning = false",
            "  t.ruby_opts << \"-rpatch\"",
            "  t.pattern = \"test/**/add_test.rb\"",
            "  # t.warning = false",
        ] {
            assert_ne!(sealed_text(&with(line)), sealed_text(RAKEFILE), "{line}");
        }
        // The switch outside a file that defines a test task is a line like the rest.
        assert_ne!(sealed_text("t.warning = false\n"), sealed_text(""));
    }
}
