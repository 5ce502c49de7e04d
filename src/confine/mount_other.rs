//! Where there are no mount namespaces (macOS, the BSDs) the room's tree cannot stand at the project's path, so
//! the verify command runs in the copy at the copy's own path (`room::TreeState::Copied`), with the room's
//! private caches, environment and the confinement this platform has (`confine`); setup and `status` say so.

use std::io;
use std::path::{Path, PathBuf};

/// Never built here: [`probe`] always says why.
#[derive(Clone, Debug)]
pub enum Mount {}

impl Mount {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn prepare(
        _root: &Path,
        _tree: &Path,
        _bound: &[String],
        _private: &[PathBuf],
        _fresh: &[PathBuf],
        _home: &Path,
        _room: &Path,
        _outside: &[(PathBuf, bool)],
        _sealed: &[String],
        _snapshot: Option<&dyn crate::confine::Presenter>,
    ) -> io::Result<Mount> {
        Err(io::Error::other(probe().err().unwrap_or_default()))
    }

    pub(crate) fn in_room(&self, _name: &str) -> PathBuf {
        match *self {}
    }

    pub(crate) fn private_dirs(&self) -> Vec<PathBuf> {
        match *self {}
    }

    pub(crate) fn presented(&self) -> &[PathBuf] {
        match *self {}
    }

    pub(crate) fn keeping_caches(&self, _dir: &Path) -> io::Result<Mount> {
        match *self {}
    }

    pub(crate) fn kept_upper(&self, _dir: &Path, _cache: &Path) -> Option<PathBuf> {
        match *self {}
    }

    pub(crate) fn enter(&self) -> io::Result<()> {
        match *self {}
    }

    pub(crate) fn stand_in(&mut self, _standins: &[(PathBuf, PathBuf, PathBuf)]) -> io::Result<()> {
        match *self {}
    }

    pub(crate) fn freeze(&mut self, _places: &[(PathBuf, crate::confine::Frozen)]) -> io::Result<()> {
        match *self {}
    }
}

/// Why the tree cannot be mounted on this platform.
pub(crate) fn probe() -> Result<(), String> {
    Err("this operating system has no mount namespaces".to_string())
}

/// The oracle's private scratch (`$HOME`, `/tmp` overlaid for one run) needs a mount namespace: never here.
#[derive(Debug)]
pub(crate) enum Private {}

impl Private {
    /// Why no scratch can be made on this platform.
    pub(crate) fn probe() -> Result<(), String> {
        probe()
    }
}

/// A tournament's layered trees need a mount namespace: never here, so `enter` refuses and the tournament makes
/// a clone per candidate (`commands::run::tournament::layer`); nothing else is ever called.
pub(crate) mod layer {
    use std::ffi::CString;
    use std::io;
    use std::path::Path;

    pub(crate) fn enter() -> io::Result<()> {
        Err(io::Error::other(super::probe().err().unwrap_or_default()))
    }

    pub(crate) fn overlay(_lower: &Path, _upper: &Path, _work: &Path, _at: &Path) -> io::Result<()> {
        enter()
    }

    #[derive(Debug)]
    pub(crate) enum Overlay {}

    impl Overlay {
        pub(crate) fn new(_lower: &Path, _upper: &Path, _work: &Path, _at: &Path) -> io::Result<Overlay> {
            Err(enter().unwrap_err())
        }
    }

    pub(crate) fn alone(_others: &[CString], _own: Option<&Overlay>) -> io::Result<()> {
        enter()
    }

    pub(crate) fn detach(_at: &Path) {}

    pub(crate) fn paths(paths: &[&Path]) -> io::Result<Vec<CString>> {
        use std::os::unix::ffi::OsStrExt;
        paths
            .iter()
            .map(|p| CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other))
            .collect()
    }
}
