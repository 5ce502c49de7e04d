//! A directory for one run's throw-away files: made empty and private to the user, removed with whatever the run
//! left in it when dropped (the reviewer's working directory, the held-out run's temporary files).

use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// A private, empty directory that is removed when this is dropped.
#[derive(Debug)]
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// `dir`, emptied of what an earlier run left (a run killed before its drop) and made anew.
    pub(crate) fn fresh(dir: &Path) -> io::Result<Scratch> {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::DirBuilder::new().mode(0o700).create(dir)?;
        Ok(Scratch(dir.to_path_buf()))
    }

    /// A new directory named `prefix`, the process id and a clock reading, in the system's temporary directory.
    pub(crate) fn in_temp(prefix: &str) -> io::Result<Scratch> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}", std::process::id()));
        std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
        Ok(Scratch(dir))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
