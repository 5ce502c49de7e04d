//! Python's start hook (`room::hook`): `sitecustomize.py` beside this file, found by every Python process of a
//! run through `PYTHONPATH` (unittest, Django's `manage.py test`), records unittest's per-test events.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook's directory in the room (first on `PYTHONPATH`) and its one file.
const DIR: &str = "hook/python";
const SITECUSTOMIZE: &str = include_str!("sitecustomize.py");

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn completes(&self) -> Option<super::Completed> {
        Some(super::Completed {
            var: "PYTEST_ADDOPTS",
            program: None,
            binaries: &["python", "python3"],
            ours: |word| {
                // The room's pytest cache (`-o cache_dir=…`) and JUnit report (`--junitxml=…`).
                (word.starts_with("cache_dir=") && word.ends_with("/pytest-cache"))
                    || (word.starts_with("--junitxml=") && word.ends_with("/report/pytest.xml"))
            },
        })
    }

    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, &format!("{DIR}/sitecustomize.py"), SITECUSTOMIZE, false)
    }

    /// First on `PYTHONPATH`, before the run's own entries (the hook takes itself out of it in the runner's
    /// process).
    fn set(&self, room: &Path, vars: &mut BTreeMap<String, OsString>) {
        let mut path = room.join(DIR).into_os_string();
        if let Some(theirs) = vars.get("PYTHONPATH").filter(|v| !v.is_empty()) {
            path.push(":");
            path.push(theirs);
        }
        vars.insert("PYTHONPATH".to_string(), path);
    }
}
