//! Ruby's runners in a verify command: `rspec` (and `bundle exec rspec`, seen through `bundle exec`), `rake`
//! (`rake test`: rake's `TestTask` runs minitest) and `ruby` on a test file.
//!
//! RSpec's option files (`.rspec`, `.rspec-local` where it runs, `~/.rspec`) are sealed option by option, as
//! absent where missing: a new one with `--tag ~slow` or `--pattern` narrows the run, while the options that only
//! change what RSpec prints ([`RSPEC_FREE`]) are free. rake reads the first of `rakefile`,
//! `Rakefile`, `rakefile.rb`, `Rakefile.rb`, and every `rakelib/*.rake`; the Rakefile is Ruby code that defines
//! the test task (its files, load path and options), so it is sealed as code, every line but the test task's
//! display switches and its literal file list and load path, which are read as rake resolves them: a list that
//! keeps the baseline's globs and adds only globs of test names is the baseline's, `Minitest::TestTask.create`
//! is read as the same parts with its own defaults, and the four names rake searches are one resolution read
//! from its place (`rakefile.rs`); `rakelib/*.rake` is sealed whole. What the test files `require`
//! (`test_helper.rb`, `spec_helper.rb` under `test/` and `spec/`) is the test side, sealed with the tests.

use std::path::Path;

use super::{Deriver, Lang, Runner, Scripts, Simple, Why, skip_flags};
use crate::closure::rakefile::RAKEFILES;

/// Ruby's scripts (`derive::SCRIPTS`).
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["rb"],
    runs_first_word: |_| false,
};

/// RSpec's options that change only what it prints: colour, the slowest examples (`--profile [COUNT]`, whose
/// optional count is a word of its own: a path after it would be swallowed, so only a count is free), and a
/// built-in formatter by name. Not any formatter: RSpec `require`s one it does not know from the load path (`--format CalcFormatter`
/// loads `calc_formatter.rb`, code the agent writes, running in the test process), so only the built-in names
/// are free, each spelled as RSpec takes it (`--format d`, `--format=d`, `-f d`, `-fd`). And `--order defined`:
/// RSpec's own order when nothing sets one, so the run is the one it would be without it (a `config.order` in
/// `spec_helper.rb` is set after the options file and still wins); any other order counts.
fn rspec_free() -> Vec<String> {
    const FLAGS: [&str; 10] = [
        "--color",
        "--colour",
        "--no-color",
        "--no-colour",
        "--force-color",
        "--profile",
        "--profile=#",
        "--no-profile",
        "--force-colour",
        "--order=defined",
    ];
    const FORMATTERS: [&str; 9] = [
        "progress",
        "p",
        "documentation",
        "d",
        "html",
        "h",
        "json",
        "j",
        "failures",
    ];
    let mut free: Vec<String> = FLAGS.iter().map(|flag| (*flag).to_string()).collect();
    for name in FORMATTERS {
        free.extend([format!("--format={name}"), format!("-f={name}"), format!("-f{name}")]);
    }
    free
}

impl Deriver<'_> {
    /// `rspec` run in `cwd`.
    pub(super) fn rspec(&mut self, cwd: &Path) {
        self.plan.ecosystems.insert(Lang::Ruby);
        self.plan.runners.insert(Runner::Rspec);
        let why = Why::Configures("rspec".into());
        let options = || crate::closure::Scope::Options { free: rspec_free() };
        for name in Runner::Rspec.row().config.files {
            self.add(cwd.join(name), options(), why.clone());
        }
        if let Some(home) = self.home {
            self.add(home.join(".rspec"), options(), why);
        }
    }

    /// `rake [TASK…]` run in `cwd`: its Rakefile, as code but its test task's display switches
    /// (`ruby/rakefile.rs`), and `rakelib/`, whole. Its test task runs minitest; a `spec`
    /// task (RSpec's `RakeTask`), or the default task where `spec/` holds the tests, runs RSpec.
    pub(super) fn rake(&mut self, args: &[String], cwd: &Path) {
        self.plan.ecosystems.insert(Lang::Ruby);
        self.plan.runners.insert(Runner::Minitest);
        let tasks: Vec<&String> = args
            .iter()
            .filter(|w| !w.starts_with('-') && !w.contains('='))
            .collect();
        let spec_dir = self.root.join(cwd).join("spec").is_dir();
        if tasks.iter().any(|t| t.contains("spec")) || (tasks.is_empty() && spec_dir) {
            self.rspec(cwd);
        }
        let why = Why::Configures("rake".into());
        let rakefile = &crate::closure::rakefile::READING;
        // One search, read from its place: the first rakefile that exists, the test tasks' globs and load paths
        // as they are now (a later one is read against them), the tasks the run reaches from (a task it cannot
        // reach is inert), where rake runs and which rakefiles existed (`ruby/rakefile.rs`).
        let dir = cwd.to_string_lossy().replace('\\', "/");
        let found: Vec<&str> = RAKEFILES
            .into_iter()
            .filter(|name| self.root.join(cwd).join(name).is_file())
            .collect();
        let now = found
            .first()
            .and_then(|name| std::fs::read_to_string(self.root.join(cwd).join(name)).ok())
            .unwrap_or_default();
        let mut names = crate::closure::rakefile::baseline_in(&now, &self.root.join(cwd));
        let runs = if tasks.is_empty() {
            vec!["default"]
        } else {
            tasks.iter().map(|t| t.as_str()).collect()
        };
        names.extend(runs.iter().map(|t| format!("{}{t}", crate::closure::rakefile::RUNS)));
        if !dir.is_empty() && dir != "." {
            names.push(format!("{}{dir}", crate::closure::rakefile::DIR));
        }
        for name in found {
            let path = cwd.join(name).to_string_lossy().replace('\\', "/");
            names.push(format!(
                "{}{}",
                crate::closure::rakefile::EXISTED,
                path.trim_start_matches("./")
            ));
        }
        for name in RAKEFILES {
            let code = crate::closure::parts::Read::by(rakefile, names.clone());
            self.add(cwd.join(name), code, why.clone());
        }
        let lib = self.root.join(cwd).join("rakelib");
        if let Ok(entries) = std::fs::read_dir(&lib) {
            let mut found: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".rake"))
                .collect();
            found.sort();
            for name in found {
                self.whole(cwd.join("rakelib").join(name), why.clone());
            }
        }
    }

    /// `ruby ARGS…`: a run of a test file (minitest's tests run themselves: `require "minitest/autorun"`) or
    /// one that requires minitest on its command line.
    pub(super) fn ruby(&mut self, args: &[String]) {
        let requires_minitest = args
            .iter()
            .any(|w| w.starts_with("-rminitest") || w == "minitest/autorun");
        // A test file named, or code (`-e`) that loads test files (`Dir.glob("./test/**/*_test.rb")`).
        let runs_a_test = args.iter().filter(|w| !w.starts_with('-')).any(|w| {
            crate::testsig::is_test_file(Path::new(w))
                || w.contains("_test")
                || w.contains("test_")
                || w.contains("minitest")
        });
        if requires_minitest || runs_a_test {
            self.plan.ecosystems.insert(Lang::Ruby);
            self.plan.runners.insert(Runner::Minitest);
        }
    }
}

/// The closure's rule for RSpec, rake, ruby and `bundle exec` (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "rspec" => d.rspec(cmd.cwd),
        "rake" => d.rake(cmd.rest, cmd.cwd),
        "ruby" => d.ruby(cmd.rest),
        // `bundle exec`, and Debian's `bundle3.1 exec`.
        n if n.starts_with("bundle") && cmd.rest.first().is_some_and(|w| w == "exec") => {
            d.argv(skip_flags(&cmd.rest[1..]), cmd.cwd, cmd.depth + 1);
        }
        _ => return false,
    }
    true
}
