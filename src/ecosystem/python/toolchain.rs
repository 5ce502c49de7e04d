//! A `.python-version`, judged by the interpreter it selects, not by whether it exists: pyenv's shim reads it
//! (the baseline run was seen to look for it), and a pin naming the interpreter that ran the baseline changes
//! nothing the tests see.
//!
//! pyenv takes the nearest `.python-version` from the directory it runs in upward, else the global
//! `$PYENV_ROOT/version`, else the system's. (`PYENV_VERSION` overrides them, but this process's environment is
//! not the oracle's run's, so it is not read: a pin is judged by files.) The identity is the version names in effect
//! (`3.11.7`), read from files; nothing is run.

use std::path::{Path, PathBuf};

/// The version names the pin file at `file` (absolute) selects, when other than what would be in effect without
/// it (the nearest pin above, else the global one); `None` for no pin or one that changes nothing, so that a pin
/// naming the baseline's interpreter is as if absent.
pub(crate) fn identity(file: &Path) -> Option<String> {
    let own = names(&std::fs::read_to_string(file).ok()?);
    let above = file
        .parent()?
        .ancestors()
        .skip(1)
        .find_map(|d| std::fs::read_to_string(d.join(".python-version")).ok());
    let global = || std::fs::read_to_string(pyenv_root()?.join("version")).ok();
    let without = above
        .or_else(global)
        .map_or_else(|| "system".to_string(), |text| names(&text));
    (own != without).then_some(own)
}

/// pyenv's root: `PYENV_ROOT`, else the directory above the `shims` on `PATH` (pyenv's shims carry the root
/// themselves, so the variable is often unset where they run), else `~/.pyenv`.
fn pyenv_root() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os("PYENV_ROOT") {
        return Some(PathBuf::from(root));
    }
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|dir| dir.ends_with("shims") && dir.parent().is_some_and(|root| root.join("versions").is_dir()))
            .and_then(|dir| dir.parent().map(Path::to_path_buf))
    });
    on_path.or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".pyenv")))
}

/// The version names of a pin's text, one per line or word, comments dropped.
fn names(text: &str) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}
