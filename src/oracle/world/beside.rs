//! What a step's writes stand for, asked of the world the run stood in (`oracle::steps::Beside`): the room's tree
//! against the agent's, the names whose existence the oracle seals, and bytecode against its source.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::World;
use crate::inputs::Inputs;
use crate::lifecycle::ActiveLoop;

impl World<'_> {
    /// The room's tree the run stood in, where it had one.
    fn room_tree(&self) -> Option<PathBuf> {
        let (Some(r), Some(_)) = (&self.room, &self.tree) else {
            return None;
        };
        Some(r.room.dir().join(crate::room::tree::PLACE))
    }

    /// Whether `path` (as the run named it, in the project at `root`) stands in the room's tree as it does in the
    /// agent's: both regular files, with the same mode and the same bytes.
    pub(crate) fn as_the_agents(&self, root: &Path, path: &Path) -> bool {
        let (Some(tree), Ok(relative)) = (self.room_tree(), path.strip_prefix(root)) else {
            return false;
        };
        !relative.as_os_str().is_empty() && same_file(&root.join(relative), &tree.join(relative))
    }

    /// Whether a file at `path` (in the project at `root`) could stand in the agent's tree without its existence
    /// being judged: inside the project, not a link in the room's tree, and no name the oracle seals by its
    /// existence — a file the observed closure keeps (by content or as absent) or the derived closure judges or
    /// watches (`conftest.py`).
    pub(crate) fn existence_free(&self, inputs: &Inputs, root: &Path, path: &Path) -> bool {
        let (Some(tree), Ok(relative)) = (self.room_tree(), path.strip_prefix(root)) else {
            return false;
        };
        if relative.as_os_str().is_empty()
            || tree
                .join(relative)
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
        {
            return false;
        }
        let key = relative.to_string_lossy().replace('\\', "/");
        let sealed = |closure: &crate::closure::Closure| closure.files.iter().any(|f| f.path == key);
        !(inputs.observed.as_ref().is_some_and(|o| sealed(&o.closure))
            || inputs
                .derived
                .as_ref()
                .is_some_and(|d| sealed(d) || d.watches_name_of(relative)))
    }
}

impl World<'_> {
    /// Which of `files` (bytecode in the run's pycache as the run named it, each with the interpreter that read it)
    /// hold their source's code (`room::pycache::compiled_from_sources`), read from what the run of `command`
    /// kept of its writes (`kept`) and compiled where it stood. None where nothing was kept, or a file there
    /// changed after the run ended (a process of it left behind rewriting what the rest had read).
    pub(crate) fn compiled(
        &self,
        active: &ActiveLoop,
        command: &str,
        log_path: &Path,
        kept: Option<&crate::oracle::run::KeptCaches>,
        files: &[crate::oracle::steps::ReadBytecode],
    ) -> Vec<bool> {
        use std::os::unix::fs::MetadataExt;
        let stand = self.stand(&active.project.root);
        let prefix = crate::closure::resolved::pycache_prefix(stand.env);
        let (Some(prefix), Some(kept)) = (prefix, kept) else {
            return vec![false; files.len()];
        };
        let Some(upper) = kept.upper(&prefix) else {
            return vec![false; files.len()];
        };
        let ended = kept
            .ended
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let written_by_the_run = |bytes: &Path| {
            bytes.symlink_metadata().is_ok_and(|m| {
                let changed = i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec());
                m.is_file() && u128::try_from(changed).is_ok_and(|changed| changed <= ended)
            })
        };
        // The check compiles each source as the room's tree holds it after the run: a source of the project's
        // counts only where that is still the agent's (a step that rewrote `calc.py` with a fix and compiled it
        // fed the run code the agent's tree does not hold, as a plain read of the rewritten file would).
        let root = &active.project.root;
        let agents_source = |named: &Path| {
            crate::room::pycache::source_of(&prefix, named)
                .is_some_and(|source| !source.starts_with(root) || self.as_the_agents(root, &source))
        };
        let read: Vec<(PathBuf, PathBuf, PathBuf)> = files
            .iter()
            .filter(|(named, _)| agents_source(named))
            .filter_map(|(named, interpreter)| {
                let bytes = upper.join(named.strip_prefix(&prefix).ok()?);
                Some((named.clone(), bytes, interpreter.clone()))
            })
            .filter(|(_, bytes, _)| written_by_the_run(bytes))
            .collect();
        if read.len() != files.len() {
            return vec![false; files.len()];
        }
        self.beside(active, command, log_path, |request| {
            crate::room::pycache::compiled_from_sources(request, &prefix, &read)
        })
    }
}

/// Whether `a` and `b` are both regular files with the same permissions and the same bytes.
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(meta_a), Ok(meta_b)) = (a.symlink_metadata(), b.symlink_metadata()) else {
        return false;
    };
    if !meta_a.is_file()
        || !meta_b.is_file()
        || meta_a.len() != meta_b.len()
        || meta_a.permissions() != meta_b.permissions()
    {
        return false;
    }
    let (Ok(mut file_a), Ok(mut file_b)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    let (mut buf_a, mut buf_b) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let Ok(n) = file_a.read(&mut buf_a) else { return false };
        if n == 0 {
            return file_b.read(&mut buf_b[..1]).is_ok_and(|m| m == 0);
        }
        if file_b.read_exact(&mut buf_b[..n]).is_err() || buf_a[..n] != buf_b[..n] {
            return false;
        }
    }
}
