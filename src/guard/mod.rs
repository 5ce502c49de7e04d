//! TEMPORARY placeholder (the full guard is being written). Same API.
use std::path::{Path, PathBuf};

pub struct Protected {
    pub project_root: PathBuf,
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
    pub sealed: Option<globset::GlobSet>,
    pub sealed_files: Vec<PathBuf>,
}

pub enum Verdict {
    Allow,
    Deny { reason: String },
}

pub fn check(_tool_name: &str, _tool_input: &serde_json::Value, _cwd: &Path, _protected: &Protected) -> Verdict {
    Verdict::Allow
}
