//! `bats`: it reads no configuration file (its options are its command line, which the seal holds). What it
//! loads is the tests' own doing: `load`/`source` of helpers under `test/` (the test side, sealed with the
//! tests) and of the code under test (`lib/*.sh`, the agent's, see `runner::TestFiles::loads_scripts`).
//!
//! Which file a test's `load NAME` reads is bats' resolution, not the test's text: `NAME.bash` if it exists,
//! else `NAME`. Where a test file's load resolved at setup to a later candidate (`load ../lib/calc.sh` reading
//! `lib/calc.sh`), each earlier one (`lib/calc.sh.bash`) is sealed as absent: created, it would be what the
//! unchanged, sealed test loads instead of the code it loaded at baseline, a shadow of it (as a new `calc.py`
//! ahead of the baseline's on Python's search path is, `closure::observed`). The code itself stays the agent's.

use std::path::{Path, PathBuf};

use super::{Deriver, Lang, Runner, Scripts, Simple, Why};

/// Shell scripts, bats' test files among them (`derive::SCRIPTS`); `sh FILE` is read by `code_under_test` itself.
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["sh", "bash", "zsh", "bats"],
    runs_first_word: |_| false,
};

/// How deep bats' operands are walked for test files (`bats -r test` recurses; a plain directory is one level).
const MAX_WALK: usize = 6;

impl Deriver<'_> {
    pub(super) fn bats(&mut self) {
        self.plan.ecosystems.insert(Lang::Shell);
        self.plan.runners.insert(Runner::Bats);
    }

    /// Seals, as absent, the candidates of each test file's loads that come before the one bats read at setup
    /// (module docs).
    fn bats_load_shadows(&mut self, operands: &[String], cwd: &Path) {
        let mut files = Vec::new();
        for operand in operands.iter().filter(|w| !w.starts_with('-')) {
            bats_files(self.root, &cwd.join(operand), 0, &mut files);
        }
        let language = crate::testsig::language(Lang::Shell);
        for file in files {
            let Ok(text) = std::fs::read_to_string(self.root.join(&file)) else {
                continue;
            };
            let dir = file.parent().unwrap_or(Path::new(""));
            for line in text.lines() {
                let Some(load) = language.load_line(line.trim(), dir) else {
                    continue;
                };
                let Some(found) = load.candidates.iter().position(|c| self.is_file(c)) else {
                    continue;
                };
                for earlier in &load.candidates[..found] {
                    self.whole(
                        earlier.clone(),
                        Why::Configures(format!("bats: `{}` would load it", line.trim())),
                    );
                }
            }
        }
    }
}

/// The `.bats` files at or under `path` (project-relative), at most [`MAX_WALK`] directories down.
fn bats_files(root: &Path, path: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let full = root.join(path);
    if full.is_file() {
        if path.extension().is_some_and(|e| e == "bats") {
            out.push(path.to_path_buf());
        }
        return;
    }
    let Ok(entries) = std::fs::read_dir(&full) else { return };
    if depth >= MAX_WALK {
        return;
    }
    let mut names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
    names.sort();
    for name in names {
        bats_files(root, &path.join(name), depth + 1, out);
    }
}

/// The closure's rule for bats (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "bats" => {
            d.bats();
            d.bats_load_shadows(cmd.rest, cmd.cwd);
        }
        _ => return false,
    }
    true
}
