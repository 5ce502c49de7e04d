//! A `.python-version`, judged by the interpreter it selects, not by whether it exists: pyenv's shim reads it
//! (the baseline run was seen to look for it), and a pin naming the interpreter that ran the baseline changes
//! nothing the tests see.
//!
//! pyenv takes the nearest `.python-version` from the directory it runs in upward, else the global
//! `$PYENV_ROOT/version`, else the system's. (`PYENV_VERSION` overrides them, but this process's environment is
//! not the oracle's run's, so it is not read: a pin is judged by files.) The identity is the version names in effect
//! (`3.11.7`), read from files; nothing is run. A name is resolved as pyenv resolves it: `python-3.11` is `3.11`,
//! and a prefix no installed version is named by (`3.11`, what `uv python pin` writes) is the latest installed
//! version it prefixes (`3.11.7`), so a pin of the baseline's interpreter by its minor version is the same pin.
//!
//! A pin of several versions (`pyenv local 3.11.7 3.12.1`, for tox) makes pyenv look for each command in them in
//! order; one that begins with every version in effect without it, in the same order, finds every command the
//! baseline ran where the baseline found it (a command none of those has was not found at all), so it is the same
//! pin too. A pin that puts any other version first, an interpreter the agent made under `versions/` included,
//! counts.

use std::path::{Path, PathBuf};

/// The version names the pin file at `file` (absolute) selects, when other than what would be in effect without
/// it (the nearest pin above, else the global one); `None` for no pin or one that changes nothing, so that a pin
/// naming the baseline's interpreter is as if absent.
pub(crate) fn identity(file: &Path) -> Option<String> {
    let versions = pyenv_root()
        .map(|root| installed(&root.join("versions")))
        .unwrap_or_default();
    let own = names(&std::fs::read_to_string(file).ok()?, &versions);
    let above = file
        .parent()?
        .ancestors()
        .skip(1)
        .find_map(|d| std::fs::read_to_string(d.join(".python-version")).ok());
    let global = || std::fs::read_to_string(pyenv_root()?.join("version")).ok();
    let without = above
        .or_else(global)
        .map_or_else(|| "system".to_string(), |text| names(&text, &versions));
    changes(&own, &without).then_some(own)
}

/// Whether the versions `own` (space-separated, resolved) select other commands than `without` does: unless they
/// are the same list, or `without` followed by more (see the module doc).
fn changes(own: &str, without: &str) -> bool {
    own != without && !own.strip_prefix(without).is_some_and(|rest| rest.starts_with(' '))
}

/// The names of the versions installed under pyenv's `versions` directory.
fn installed(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect()
}

/// A version name as pyenv resolves it among the `installed` ones: without a `python-` prefix; itself when
/// installed (or `system`); else the latest installed version it is a dotted prefix of (`3.11` → `3.11.7`);
/// else itself (pyenv then fails, and the name counts as written).
fn resolve(name: &str, installed: &[String]) -> String {
    let name = name.strip_prefix("python-").unwrap_or(name);
    if name == "system" || installed.iter().any(|v| v == name) {
        return name.to_string();
    }
    let numbers = |v: &str| -> Option<Vec<u64>> { v.split('.').map(|n| n.parse().ok()).collect() };
    installed
        .iter()
        .filter(|v| v.strip_prefix(name).is_some_and(|rest| rest.starts_with('.')))
        .filter_map(|v| Some((numbers(v)?, v)))
        .max()
        .map_or_else(|| name.to_string(), |(_, v)| v.clone())
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

/// The version names of a pin's text, one per line or word, comments dropped, each resolved ([`resolve`]).
fn names(text: &str, installed: &[String]) -> String {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .flat_map(str::split_whitespace)
        .map(|name| resolve(name, installed))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::{changes, resolve};

    /// A pin changes nothing when it lists the versions in effect without it, perhaps followed by others; any
    /// other first version, order or name counts.
    #[test]
    fn a_pin_that_begins_with_the_versions_in_effect_changes_nothing() {
        for (own, without) in [
            ("3.11.7", "3.11.7"),
            ("3.11.7 3.12.1", "3.11.7"),
            ("3.11.7 3.9.18 system", "3.11.7 3.9.18"),
        ] {
            assert!(!changes(own, without), "{own} over {without}");
        }
        for (own, without) in [
            ("3.12.1 3.11.7", "3.11.7"),
            ("3.11.70", "3.11.7"),
            ("3.11.7", "3.11.7 3.12.1"),
            ("my-python", "3.11.7"),
            ("3.9.18 3.11.7", "3.11.7 3.9.18"),
        ] {
            assert!(changes(own, without), "{own} over {without}");
        }
    }

    /// pyenv's resolution: an installed name is itself, a prefix the latest version it prefixes by number (not by
    /// text: `3.1` is not `3.11`), `python-` dropped, anything else as written.
    #[test]
    fn a_version_name_resolves_as_pyenv_resolves_it() {
        let installed: Vec<String> = ["3.9.18", "3.11.7", "3.11.10", "3.12.1", "pypy3.10-7.3.12"]
            .map(str::to_string)
            .to_vec();
        for (name, want) in [
            ("3.11.7", "3.11.7"),
            ("3.11", "3.11.10"),
            ("python-3.12", "3.12.1"),
            ("3", "3.12.1"),
            ("3.1", "3.1"),
            ("system", "system"),
            ("3.14", "3.14"),
            ("pypy3.10-7.3.12", "pypy3.10-7.3.12"),
        ] {
            assert_eq!(resolve(name, &installed), want, "{name}");
        }
    }
}
