//! What the seal holds of a loop's held-out tests (`--holdout`, see `crate::holdout`): plain data, so the seal,
//! the guard and `status` read it without the module that moves the files.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The held-out tests of a loop, as setup took them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holdout {
    /// The private directory under loopgate's home where the files wait (and the private copy runs).
    pub dir: PathBuf,
    /// The `--holdout` values as given (globs inside the project, directories outside it).
    pub sources: Vec<String>,
    /// Files moved out of the project: project-relative path → SHA-256. They go back when the loop ends.
    #[serde(default)]
    pub moved: BTreeMap<String, String>,
    /// Files copied from directories outside the project: path relative to that directory (laid over the
    /// private copy at the same relative path) → SHA-256.
    #[serde(default)]
    pub copied: BTreeMap<String, String>,
    /// The directories outside the project the copies came from (canonical): the guard keeps the agent's
    /// tools from reading them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<PathBuf>,
    /// Moved files that git history holds (readable from git objects whatever the guard does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_git: Vec<String>,
}

impl Holdout {
    /// How many held-out files the loop has.
    pub fn len(&self) -> usize {
        self.moved.len() + self.copied.len()
    }

    /// Whether it holds no file (never the case for a loop that has one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What putting a loop's held-out files back did (for the words the user reads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HoldoutRestored {
    /// Files moved back into the project.
    pub back: usize,
    /// Paths recreated during the loop: (project-relative path, where that copy was kept).
    pub kept_aside: Vec<(String, PathBuf)>,
}
