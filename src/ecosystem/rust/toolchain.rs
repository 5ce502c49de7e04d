//! A `rust-toolchain(.toml)`, judged by the toolchain it selects, not by whether it exists: a pin equal to the
//! toolchain that ran the baseline changes nothing the tests see.
//!
//! rustup takes the nearest pin file from the directory cargo runs in upward, else the default in
//! `$RUSTUP_HOME/settings.toml`. (`RUSTUP_TOOLCHAIN` overrides both, but this process's environment is not the
//! oracle's run's — cargo sets the variable for what it starts — so it is not read: a pin is judged by files.) The identity of a toolchain is the
//! `rustc` version its installation records (`lib/rustlib/multirust-channel-manifest.toml`: `1.95.0 (59807616e
//! 2026-04-14)`), so `stable` and `1.95.0` are the same compiler when they are. A name that resolves to no
//! installed toolchain, or a `path`, is its own identity. Everything here reads files; nothing is run.

use std::path::{Path, PathBuf};

/// The pin files rustup reads in a directory, in its order.
const PINS: [&str; 2] = ["rust-toolchain", "rust-toolchain.toml"];

/// The identity of the toolchain the pin file at `file` (absolute) selects, when it selects one other than what
/// would be in effect without it (the nearest pin above, else the default); `None` for no pin or one that
/// changes nothing, so that a pin equal to the baseline's toolchain is as if absent.
pub(crate) fn identity(file: &Path) -> Option<String> {
    let own = resolve(&channel(&std::fs::read_to_string(file).ok()?));
    let above = file.parent()?.ancestors().skip(1).find_map(|dir| {
        PINS.iter()
            .find_map(|pin| std::fs::read_to_string(dir.join(pin)).ok())
            .map(|text| channel(&text))
    });
    let without = match above {
        Some(name) => resolve(&name),
        None => default().map_or_else(|| "default".to_string(), |name| resolve(&name)),
    };
    (own != without).then_some(own)
}

/// The channel a pin file names (`[toolchain] channel` or `path`, or the legacy file's one line).
fn channel(text: &str) -> String {
    match text.parse::<toml::Table>() {
        Ok(doc) => {
            let toolchain = doc.get("toolchain").and_then(toml::Value::as_table);
            let get = |key: &str| toolchain.and_then(|t| t.get(key)).and_then(toml::Value::as_str);
            match (get("channel"), get("path")) {
                (_, Some(path)) => format!("path:{path}"),
                (Some(channel), None) => channel.to_string(),
                (None, None) => text.trim().to_string(),
            }
        }
        Err(_) => text.trim().to_string(),
    }
}

fn rustup_home() -> Option<PathBuf> {
    std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".rustup")))
}

/// rustup's default toolchain.
fn default() -> Option<String> {
    let text = std::fs::read_to_string(rustup_home()?.join("settings.toml")).ok()?;
    let doc = text.parse::<toml::Table>().ok()?;
    doc.get("default_toolchain")?.as_str().map(str::to_string)
}

/// A toolchain name's identity: the version of `rustc` installed under it, or the name when none is.
fn resolve(name: &str) -> String {
    if name.starts_with("path:") {
        return name.to_string();
    }
    let installed = rustup_home().map(|h| h.join("toolchains")).and_then(|dir| {
        let exact = dir.join(name);
        if exact.is_dir() {
            return Some(exact);
        }
        let prefix = format!("{name}-");
        std::fs::read_dir(&dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&prefix)))
            .min()
    });
    installed
        .and_then(|dir| rustc_version(&dir))
        .unwrap_or_else(|| format!("unresolved:{name}"))
}

/// The `rustc` version recorded under `[pkg.rustc]` in the toolchain's channel manifest (about a megabyte: read
/// by lines, not parsed, and once per process).
fn rustc_version(toolchain: &Path) -> Option<String> {
    static SEEN: std::sync::Mutex<Vec<(PathBuf, Option<String>)>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, version)) = seen.iter().find(|(dir, _)| dir == toolchain) {
        return version.clone();
    }
    let text = std::fs::read_to_string(toolchain.join("lib/rustlib/multirust-channel-manifest.toml")).ok();
    let version = text.and_then(|text| {
        let lines = text.lines().skip_while(|l| l.trim() != "[pkg.rustc]").skip(1);
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .find_map(|l| l.trim().strip_prefix("version = "))
            .map(|v| format!("rustc {}", v.trim_matches('"')))
    });
    seen.push((toolchain.to_path_buf(), version.clone()));
    version
}
