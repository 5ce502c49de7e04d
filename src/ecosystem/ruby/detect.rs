//! `--verify auto` for Ruby: RSpec where `spec/` holds `*_spec.rb` files; `rake test` where the Rakefile
//! defines a test task (`Rake::TestTask`, or a `task :test`/`task test:`) and `test/` holds minitest files;
//! else `ruby` loading every `test/**/*_test.rb` and `test_*.rb` (minitest runs them at exit, through
//! `require "minitest/autorun"` in each), with `lib/` and `test/` on the load path as `rake test` would put them.

use std::path::Path;

use super::{Candidate, Detector, Fact};

/// The command that runs every minitest file under `test/` without a Rakefile.
pub(super) const RUBY_TESTS: &str =
    "ruby -Ilib -Itest -e 'Dir.glob(\"./test/**/{*_test,test_*}.rb\").sort.each { |f| require f }'";

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or Ruby tests (spec/*_spec.rb, test/*_test.rb)",
    detect: |probe| ruby(probe.root),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::ruby`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// `dir/` holds Ruby test files `runner` runs (`spec/*_spec.rb`: rspec; `test/*_test.rb`: minitest).
    RubyTests { dir: &'static str, runner: &'static str },
    /// `file` defines a rake test task (`Rake::TestTask`).
    RakeTestTask { file: &'static str },
}

fn ruby(root: &Path) -> Option<Candidate> {
    if holds(&root.join("spec"), &|name| name.ends_with("_spec.rb"), 3) {
        return Some((
            "rspec".into(),
            vec![Fact::own(Found::RubyTests {
                dir: "spec",
                runner: "rspec",
            })],
        ));
    }
    if !holds(
        &root.join("test"),
        &|name| name.ends_with("_test.rb") || name.starts_with("test_") && name.ends_with(".rb"),
        3,
    ) {
        return None;
    }
    let rakefile = ["rakefile", "Rakefile", "rakefile.rb", "Rakefile.rb"]
        .into_iter()
        .find_map(|name| Some((name, std::fs::read_to_string(root.join(name)).ok()?)));
    if let Some((file, text)) = rakefile
        && (text.contains("TestTask") || text.contains("task :test") || text.contains("task test:"))
    {
        return Some(("rake test".into(), vec![Fact::own(Found::RakeTestTask { file })]));
    }
    Some((
        RUBY_TESTS.into(),
        vec![Fact::own(Found::RubyTests {
            dir: "test",
            runner: "minitest",
        })],
    ))
}

/// Whether `dir` or a directory under it (`depth` levels at most) holds a file whose name `matches`.
fn holds(dir: &Path, matches: &dyn Fn(&str) -> bool, depth: usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => {
                depth > 0 && !name.starts_with('.') && holds(&entry.path(), matches, depth - 1)
            }
            Ok(_) => matches(&name),
            Err(_) => false,
        }
    })
}
