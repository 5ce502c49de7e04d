//! Faults (issue 23, item 1): a full disk, a half-finished write, concurrent stops, odd paths. Each test first
//! reproduces the fault as it was reported, then checks that loopgate neither lies in its history nor accuses
//! the agent of what loopgate itself left unfinished.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::is_root;
use crate::project::{HISTORY, Project, STATE, assert_has, set_mode};

/// A full file system under the project's `.claude/`: a small tmpfs mounted over it (as root, where mounting
/// works) and filled up, else (unprivileged) the directory made read-only, which fails the same writes — new
/// files, as the atomic state-file write needs — while the existing history can still be appended to, as in
/// the report (a full disk still has room in the history's last block).
struct FullDisk {
    mount: Option<PathBuf>,
    dir: PathBuf,
}

impl FullDisk {
    /// `None` when neither way works here (the caller says why it skips).
    fn new(p: &Project) -> Option<Self> {
        let dir = p.path(".claude");
        if is_root() && Self::mount_tmpfs(&dir) {
            // Fill what is left, so the next new file fails with ENOSPC.
            let _ = fs::write(dir.join("fill"), vec![0u8; 1 << 20]);
            return Some(Self {
                mount: Some(dir.clone()),
                dir,
            });
        }
        if is_root() {
            return None;
        }
        set_mode(&dir, 0o555);
        Some(Self { mount: None, dir })
    }

    /// Mounts a 256 KiB tmpfs over `dir` with `dir`'s files copied in.
    fn mount_tmpfs(dir: &Path) -> bool {
        let saved = dir.with_extension("saved");
        let copy = |from: &Path, to: &Path| {
            Command::new("cp")
                .arg("-a")
                .arg(from.join("."))
                .arg(to)
                .status()
                .is_ok_and(|s| s.success())
        };
        let _ = fs::create_dir_all(&saved);
        if !copy(dir, &saved) {
            return false;
        }
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted && copy(&saved, dir)
    }

    /// Makes room again; the files stay where they are.
    fn free(&self) {
        let _ = fs::remove_file(self.dir.join("fill"));
        set_mode(&self.dir, 0o755);
    }
}

impl Drop for FullDisk {
    fn drop(&mut self) {
        if let Some(dir) = &self.mount {
            let _ = Command::new("umount").arg("-l").arg(dir).status();
        }
    }
}

/// Reported: with the disk full the Stop hook failed open although the history recorded `continue`, and once
/// there was space again the next stop called loopgate's own unfinished state-file write "TAMPERING DETECTED:
/// the state file's `iteration` … changed". Now the seal (outside the project) carries the loop: the stop is
/// decided as usual, the user is told the state file could not be written, and the next stop restores the
/// file without a word of tampering.
#[test]
fn a_full_disk_is_no_accusation() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    p.stop("S", "working").blocked();
    let Some(disk) = FullDisk::new(&p) else {
        eprintln!("SKIPPED a_full_disk_is_no_accusation: root, but `mount -t tmpfs` is not allowed here");
        return;
    };
    p.write("a.txt", "changed\n");
    let out = p.stop("S", "still working");
    let block = out.blocked();
    assert_has(&block.system_message, "pua-loop.local.md");
    assert_has(&block.system_message, "failed to write");
    let last = p.history().pop().expect("a record");
    assert_eq!(
        last["status"], "continue",
        "the record tells what happened: the stop was blocked"
    );
    assert_eq!(p.seal()["fields"]["iteration"], 3);

    disk.free();
    let block = p.stop("S", "again").blocked();
    assert!(!block.reason.contains("TAMPERING"), "{}", block.reason);
    assert!(!block.system_message.contains("TAMPERING"), "{}", block.system_message);
    assert!(
        p.history().iter().all(|r| r["status"] != "tamper_detected"),
        "{:?}",
        p.statuses()
    );
    assert_eq!(p.state_field("iteration"), "4", "the state file is whole again");
    assert!(p.exists(STATE) && p.exists(HISTORY));
}
