use std::path::Path;

use super::finding;
use crate::closure::steps::{Finding, Step};
use crate::trace::parse::processes;

/// A trace of `sh -c 'pre; test'` in `/p`: the verify's shell (100) starts the step (101) and, after it, the
/// runner (102); `step` and `runner` are the lines each adds after it started.
fn trace(step: &str, runner: &str) -> String {
    format!(
        "100 execve(\"/bin/sh\", [\"sh\", \"-c\", \"x\"], 0x1 /* 1 var */) = 0\n\
         100 clone(child_stack=NULL, flags=SIGCHLD) = 101\n\
         101 execve(\"/usr/bin/node\", [\"node\", \"--check\", \"a.js\"], 0x1 /* 1 var */) = 0\n\
         {step}\
         101 exit_group(0)                     = ?\n\
         101 +++ exited with 0 +++\n\
         100 clone(child_stack=NULL, flags=SIGCHLD) = 102\n\
         102 execve(\"/usr/bin/node\", [\"node\", \"--test\"], 0x1 /* 1 var */) = 0\n\
         {runner}\
         102 +++ exited with 0 +++\n"
    )
}

fn judged(text: &str) -> Option<Finding> {
    let steps = [Step::Argv(vec!["node".into(), "--check".into(), "a.js".into()])];
    finding(
        &processes(text, Path::new("/p")),
        &steps,
        Path::new("/room/promise.trace"),
    )
}

const WRITES_X: &str = "101 openat(AT_FDCWD</p>, \"x\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</p/x>\n";
const READS_X: &str = "102 openat(AT_FDCWD</p>, \"x\", O_RDONLY|O_CLOEXEC) = 3</p/x>\n";

#[test]
fn a_step_that_writes_nothing_the_rest_touches_is_free() {
    assert_eq!(judged(&trace(WRITES_X, "")), None);
    assert_eq!(
        judged(&trace(
            "101 openat(AT_FDCWD</p>, \"a.js\", O_RDONLY) = 3</p/a.js>\n",
            "102 openat(AT_FDCWD</p>, \"a.js\", O_RDONLY) = 3</p/a.js>\n"
        )),
        None
    );
}

#[test]
fn what_a_step_wrote_and_the_rest_touched_is_named() {
    assert_eq!(judged(&trace(WRITES_X, READS_X)), Some(Finding::Fed("/p/x".into())));
    // Run, probed or looked for: touched all the same.
    for runner in [
        "102 execve(\"/p/x\", [\"x\"], 0x1 /* 1 var */) = 0\n",
        "102 newfstatat(AT_FDCWD</p>, \"x\", {st_mode=S_IFREG|0644}, 0) = 0\n",
    ] {
        assert_eq!(
            judged(&trace(WRITES_X, runner)),
            Some(Finding::Fed("/p/x".into())),
            "{runner}"
        );
    }
}

#[test]
fn a_link_or_a_directory_renamed_into_place_counts_with_everything_below_it() {
    let link = "101 symlinkat(\"/elsewhere\", AT_FDCWD</p>, \"lib\") = 0\n";
    let read_below = "102 openat(AT_FDCWD</p>, \"lib/m.js\", O_RDONLY) = 3</elsewhere/m.js>\n";
    assert_eq!(judged(&trace(link, read_below)), Some(Finding::Fed("/p/lib".into())));
    let renamed = "101 rename(\"/p/tmp\", \"/p/lib\") = 0\n";
    assert_eq!(judged(&trace(renamed, read_below)), Some(Finding::Fed("/p/lib".into())));
}

#[test]
fn a_directory_the_step_only_made_is_no_content() {
    let made = "101 mkdir(\"/p/node_modules\", 0777) = 0\n";
    let probed = "102 newfstatat(AT_FDCWD</p>, \"node_modules/x\", 0x1, 0) = -1 ENOENT (No such file or directory)\n";
    assert_eq!(judged(&trace(made, probed)), None);
}

#[test]
fn a_process_of_the_step_still_running_when_the_run_goes_on_is_refused() {
    let text = trace(
        "101 clone(child_stack=NULL, flags=SIGCHLD) = 103\n",
        "103 +++ exited with 0 +++\n",
    );
    assert_eq!(judged(&text), Some(Finding::Outlived));
}

#[test]
fn another_processs_memory_is_refused() {
    let write_mem = "101 openat(AT_FDCWD</p>, \"/proc/100/mem\", O_RDWR) = 3</proc/100/mem>\n";
    assert!(matches!(judged(&trace(write_mem, "")), Some(Finding::Memory(_))));
    let own_cwd = "101 symlinkat(\"/x\", AT_FDCWD</p>, \"/proc/self/cwd/lib\") = 0\n";
    assert!(matches!(judged(&trace(own_cwd, "")), Some(Finding::Memory(_))));
    let stdout = "101 openat(AT_FDCWD</p>, \"/proc/self/fd/1\", O_WRONLY) = 3</dev/pts/0>\n";
    assert_eq!(judged(&trace(stdout, "")), None);
    let vm = "101 process_vm_writev(100, [{iov_base=0x1, iov_len=8}], 1, [{iov_base=0x2, iov_len=8}], 1, 0) = 8\n";
    assert!(matches!(judged(&trace(vm, "")), Some(Finding::Memory(_))));
}

#[test]
fn what_cannot_be_shown_fails_closed() {
    // A process with no known parent, a line that is no process's, a step never started.
    let orphan = trace("", "777 openat(AT_FDCWD</p>, \"x\", O_RDONLY) = 3</p/x>\n");
    assert!(matches!(judged(&orphan), Some(Finding::Unread(_))));
    let forged = trace("", "this is not strace\n");
    assert!(matches!(judged(&forged), Some(Finding::Unread(_))));
    let other = trace("", "").replace("--check", "--other");
    assert_eq!(judged(&other), Some(Finding::NotSeen));
    let cut = trace("", "").replace("\"a.js\"]", "\"a.js\"...]");
    assert!(matches!(judged(&cut), Some(Finding::Unread(_))));
}

#[test]
fn a_name_reached_through_a_link_that_was_there_before_is_the_same_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let real = dir.path().join("node_modules");
    std::fs::create_dir_all(real.join(".bin")).expect("node_modules/.bin");
    std::os::unix::fs::symlink(&real, dir.path().join("nm")).expect("the link nm");
    let p = dir.path().display();
    let step = format!("101 symlinkat(\"/t\", AT_FDCWD<{p}>, \"{p}/nm/.bin/node\") = 0\n");
    let runner = format!("102 execve(\"{p}/node_modules/.bin/node\", [\"node\"], 0x1 /* 1 var */) = 0\n");
    let found = judged(&trace(&step, &runner));
    assert!(
        matches!(&found, Some(Finding::Fed(path)) if path.ends_with("node_modules/.bin/node")),
        "{found:?}"
    );
}
