//! `ctest`, `cmake --build DIR --target test` and a GoogleTest binary run directly: the C++ ecosystem, and
//! every `CMakeLists.txt` of the project sealed by its test side (`closure::cmake`: the commands that name a
//! test or test target the baseline registered, and `enable_testing()`), whatever build directory the command
//! names — ctest runs what the build directory's `CTestTestfile.cmake` says, and CMake writes that from these
//! files at every build; the build directory itself is the run's own (the room's tree does not copy it).

use std::path::Path;

use super::{Deriver, Lang, Runner, Simple, Why};

impl Deriver<'_> {
    pub(super) fn ctest(&mut self, runner: Runner) {
        self.plan.ecosystems.insert(Lang::Cpp);
        self.plan.runners.insert(runner);
        let why = Why::Configures(runner.name().to_string());
        for relative in crate::walk::find_named(self.root, &["CMakeLists.txt"]) {
            let Ok(text) = std::fs::read_to_string(self.root.join(&relative)) else {
                continue;
            };
            let mut names = super::super::cmake::registered(&text);
            if !names.is_empty() || !super::super::cmake::parts(&text, &[]).is_empty() {
                names.push(super::super::cmake::CTEST_ENABLES_TESTING.to_string());
                self.add(
                    relative.into(),
                    crate::closure::parts::Read::by(&super::super::cmake::READING, names),
                    why.clone(),
                );
            }
        }
    }

    /// `cmake ARGS`: a build with `--target test` (or `-t test`) runs ctest; any other is the ecosystem's build.
    pub(super) fn cmake(&mut self, rest: &[String]) {
        let target_test = rest
            .windows(2)
            .any(|w| matches!(w[0].as_str(), "--target" | "-t") && w[1].split(',').any(|t| t == "test"))
            || rest.iter().any(|w| w == "--target=test");
        if target_test {
            self.ctest(Runner::Ctest);
        } else {
            self.plan.ecosystems.insert(Lang::Cpp);
        }
    }
}

/// Whether `verb` (a path the command runs) is a GoogleTest binary: a file holding GoogleTest's own flag name,
/// or — not built yet at setup — one named like a test binary under a directory (`build/calc_test`).
pub(super) fn is_gtest_binary(root: &Path, cwd: &Path, verb: &str) -> bool {
    if !verb.contains('/') {
        return false;
    }
    match std::fs::read(root.join(cwd).join(verb)) {
        Ok(bytes) => bytes.starts_with(b"\x7fELF") && bytes.windows(12).any(|w| w == b"gtest_filter"),
        Err(_) => {
            let name = verb.rsplit('/').next().unwrap_or(verb);
            ["_test", "_tests", "_unittest", "_unittests"]
                .iter()
                .any(|end| name.ends_with(end))
        }
    }
}

/// The closure's rule for ctest, CMake and a GoogleTest binary (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "ctest" => d.ctest(Runner::Ctest),
        "cmake" => d.cmake(cmd.rest),
        _ if is_gtest_binary(d.root, cmd.cwd, cmd.verb) => d.ctest(Runner::Gtest),
        _ => return false,
    }
    true
}
