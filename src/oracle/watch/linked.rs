//! The snapshot's linked objects watched by inode while the verify command runs (`room::snapshot::objects`): on
//! a file system without reflinks a held file's object is a hard link to the user's file itself, so an edit in
//! place of that file during the run reaches what the run reads. The checks before and after the run compare
//! its bytes with its name; one put back before the run ended is seen only here.
//!
//! inotify watches an inode, so a watch on the object in the store hears a write through any path of the file.
//! Only a write to its data counts (`IN_MODIFY`: `write`, `truncate`): another loop linking the same file, a
//! `chmod` or a `touch` change its stat, not its bytes, and are not reported (the kernel reports a modification
//! time set *alone*, `touch -m`, as a write: that one is, and nothing honest does it to a held file mid-run). Where the kernel refuses a watch
//! (inotify's limit reached), the files it could not watch have the checks before and after the run alone; where
//! the queue overflowed, every watched file is reported (nothing honest writes a held file in place during a run,
//! so only a flood of writes fills it).

use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// The watch over the linked objects for one run.
pub(in crate::oracle) struct Linked {
    fd: OwnedFd,
    /// The watch descriptors, each to the held path its object presents.
    held: BTreeMap<i32, String>,
}

impl Linked {
    /// Starts watching each `(object, held path)`; `None` when nothing could be watched.
    pub(in crate::oracle) fn start(objects: &[(PathBuf, String)]) -> Option<Linked> {
        if objects.is_empty() {
            return None;
        }
        // SAFETY: inotify_init1 takes flags only; a non-negative result is a new descriptor we own.
        let raw = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if raw < 0 {
            return None;
        }
        // SAFETY: `raw` is a fresh descriptor nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let mut held = BTreeMap::new();
        for (object, path) in objects {
            let Ok(c) = std::ffi::CString::new(object.as_os_str().as_bytes()) else {
                continue;
            };
            // SAFETY: a NUL-terminated path that outlives the call, on our descriptor.
            let wd =
                unsafe { libc::inotify_add_watch(fd.as_raw_fd(), c.as_ptr(), libc::IN_MODIFY | libc::IN_DONT_FOLLOW) };
            if wd >= 0 {
                held.insert(wd, path.clone());
            }
        }
        (!held.is_empty()).then_some(Linked { fd, held })
    }

    /// Stops watching; the held paths whose files were written during the run, in order.
    pub(in crate::oracle) fn finish(self) -> Vec<String> {
        let mut written = std::collections::BTreeSet::new();
        let mut buf = vec![0u8; 64 * 1024];
        let header = std::mem::size_of::<libc::inotify_event>();
        loop {
            // SAFETY: reading into a buffer we own, at most its length.
            let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            let Ok(n) = usize::try_from(n) else { break };
            if n == 0 {
                break;
            }
            let mut at = 0;
            while at + header <= n {
                // SAFETY: the kernel wrote whole events; an unaligned read copies one header out of the buffer.
                let event: libc::inotify_event = unsafe { std::ptr::read_unaligned(buf[at..].as_ptr().cast()) };
                if event.mask & libc::IN_Q_OVERFLOW != 0 {
                    written.extend(self.held.values().cloned());
                } else if event.mask & libc::IN_MODIFY != 0
                    && let Some(path) = self.held.get(&event.wd)
                {
                    written.insert(path.clone());
                }
                at += header + event.len as usize;
            }
        }
        written.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Linked;

    /// A write to the file through its own path is heard on the object's (one inode), even when put back before
    /// the watch ends; another link, a `chmod` or a `touch` of another watched file is not a write.
    #[test]
    fn a_write_through_any_path_is_heard_and_a_link_chmod_or_touch_is_not() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let (file, object) = (dir.path().join("index.js"), dir.path().join("object"));
        let (other, other_object) = (dir.path().join("other.js"), dir.path().join("other-object"));
        for (path, link) in [(&file, &object), (&other, &other_object)] {
            std::fs::write(path, "baseline\n").expect("write");
            std::fs::hard_link(path, link).expect("link");
        }
        let watched = [
            (object.clone(), "/held/index.js".to_string()),
            (other_object.clone(), "/held/other.js".to_string()),
        ];
        let linked = Linked::start(&watched).expect("watching");
        std::fs::write(&file, "EDITED\n").expect("edit in place");
        std::fs::write(&file, "baseline\n").expect("put back");
        std::fs::hard_link(&other, dir.path().join("another-loop")).expect("another link");
        std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::File::options()
            .write(true)
            .open(&other)
            .and_then(|f| {
                let now = std::time::SystemTime::now();
                f.set_times(std::fs::FileTimes::new().set_accessed(now).set_modified(now))
            })
            .expect("touch");
        assert_eq!(linked.finish(), ["/held/index.js"]);
        assert!(Linked::start(&[]).is_none());
    }
}
