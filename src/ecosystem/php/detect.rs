//! `--verify auto` for PHPUnit.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or PHPUnit (phpunit.xml, tests/*Test.php)",
    detect: |probe| phpunit(probe.root),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::php`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// PHPUnit's configuration file is at the root (`phpunit.xml`, …), or `tests/` holds `*Test.php` files
    /// (`file`: `None`); `composer`: Composer installed PHPUnit (`vendor/bin/phpunit`).
    Phpunit { file: Option<&'static str>, composer: bool },
}

/// PHPUnit, where its configuration file is at the root (`phpunit` reads it) or `tests/` holds `*Test.php`
/// files (`phpunit tests`): Composer's `vendor/bin/phpunit` where it installed one, else `phpunit` from `PATH`.
fn phpunit(root: &Path) -> Option<Candidate> {
    let row = crate::runner::Runner::Phpunit.row();
    let file = row.config.files.iter().copied().find(|f| root.join(f).is_file());
    let tests = file.is_none()
        && std::fs::read_dir(root.join("tests"))
            .ok()?
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with("Test.php"));
    if file.is_none() && !tests {
        return None;
    }
    let composer = root.join("vendor/bin/phpunit").is_file();
    let program = if composer { "vendor/bin/phpunit" } else { "phpunit" };
    let command = if tests {
        format!("{program} tests")
    } else {
        program.to_string()
    };
    Some((command, vec![Fact::own(Found::Phpunit { file, composer })]))
}
