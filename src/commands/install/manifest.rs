//! The record of what `loopgate install` did (`install.json` in loopgate's data directory), so that
//! `loopgate uninstall` undoes exactly that: the plugin only if install installed it. (The command files need
//! no record: each one install writes carries its marker line.)

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// What `loopgate install` did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// The loopgate version that wrote it.
    pub(crate) version: String,
    /// The binary the user-level commands call.
    pub(crate) binary: PathBuf,
    /// Whether install added the `loopgate` marketplace and installed `loopgate@loopgate` (false when a loopgate
    /// plugin was already installed: its hooks are used, and uninstall leaves it).
    pub(crate) plugin_installed: bool,
    /// The sandbox settings as they were before `install --sandbox` first changed them; `uninstall` puts them
    /// back. `None`: install never changed them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sandbox: Option<super::sandbox::Prior>,
}

/// Reads the manifest; `None` when there is none. A corrupt one is an error naming the file.
pub(crate) fn load(path: &Path) -> Result<Option<Manifest>, Error> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(Error::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        Error::Usage(format!(
            "failed to read `{}`: not an install record ({e}); move it away and run `loopgate install` again",
            path.display()
        ))
    })
}

/// Writes the manifest atomically.
pub(crate) fn save(path: &Path, manifest: &Manifest) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(manifest).unwrap_or_default() + "\n";
    super::write_file(path, &text, 0o644)
}
