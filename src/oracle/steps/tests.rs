use std::path::Path;

use super::{Beside, Filled, finding};
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
        &Beside::none(),
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

/// A trace of make running `go vet ./...` (101, whose vet tool is 103) before `go test ./...` (102), Go's build
/// cache at `/room/go-build`; `step` and `runner` are lines each adds (`step` after vet ended).
fn go_trace(step: &str, runner: &str) -> String {
    format!(
        "100 execve(\"/usr/bin/make\", [\"make\", \"test\"], 0x1 /* 1 var */) = 0\n\
         100 clone(child_stack=NULL, flags=SIGCHLD) = 101\n\
         101 execve(\"/usr/bin/go\", [\"go\", \"vet\", \"./...\"], 0x1 /* 1 var */) = 0\n\
         101 mkdir(\"/tmp/go-build1\", 0700) = 0\n\
         101 clone(child_stack=NULL, flags=SIGCHLD) = 103\n\
         103 execve(\"/usr/lib/go/pkg/tool/linux_amd64/vet\", [\"vet\", \"./vet.cfg\"], 0x1 /* 1 var */) = 0\n\
         103 openat(AT_FDCWD</p>, \"/tmp/go-build1/b001/vet.out\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/go-build1/b001/vet.out>\n\
         103 +++ exited with 0 +++\n\
         101 openat(AT_FDCWD</p>, \"/room/go-build/ab/ab12-d\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</room/go-build/ab/ab12-d>\n\
         {step}\
         101 +++ exited with 0 +++\n\
         100 clone(child_stack=NULL, flags=SIGCHLD) = 102\n\
         102 execve(\"/usr/bin/go\", [\"go\", \"test\", \"./...\"], 0x1 /* 1 var */) = 0\n\
         102 openat(AT_FDCWD</p>, \"/room/go-build/ab/ab12-d\", O_RDONLY|O_CLOEXEC) = 3</room/go-build/ab/ab12-d>\n\
         {runner}\
         102 +++ exited with 0 +++\n"
    )
}

/// [`go_trace`] judged with Go's build cache filled by its toolchain, whose programs under `/usr` the agent
/// cannot change, and whose `go` the room runs from `/room/hook/real/0`.
fn go_judged(text: &str) -> Option<Finding> {
    let steps = [Step::Argv(vec!["go".into(), "vet".into(), "./...".into()])];
    let program = |ran: &Path| {
        let real = ran
            .strip_prefix("/room/hook/real")
            .ok()
            .map(|_| Path::new("/usr/lib/go/bin/go"));
        Some(real.unwrap_or(ran).to_path_buf()).filter(|program| program.starts_with("/usr"))
    };
    let filled = Filled {
        caches: vec![("/room/go-build".into(), crate::room::caches::FILLED[0].1)],
        program: &program,
    };
    finding(
        &processes(text, Path::new("/p")),
        &steps,
        Path::new("/room/promise.trace"),
        &Beside {
            filled,
            ..Beside::none()
        },
    )
}

const CACHE_ENTRY: &str = "/room/go-build/ab/ab12-d";

#[test]
fn entries_the_toolchain_alone_wrote_into_its_cache_feed_the_rest_nothing() {
    assert_eq!(go_judged(&go_trace("", "")), None);
    // A child the toolchain forked writes as the toolchain until it runs something else.
    let forked = "101 clone(child_stack=NULL, flags=SIGCHLD) = 104\n\
                  104 openat(AT_FDCWD</p>, \"/room/go-build/cd/cd34-a\", O_WRONLY|O_CREAT, 0666) = 3</room/go-build/cd/cd34-a>\n\
                  104 +++ exited with 0 +++\n";
    assert_eq!(go_judged(&go_trace(forked, "")), None);
    // The start channel's stand-in over `go` runs the real binary from the room's private path.
    let standin = go_trace("", "").replace(
        "101 mkdir(",
        "101 execve(\"/room/hook/real/0\", [\"go\", \"vet\", \"./...\"], 0x1 /* 1 var */) = 0\n101 mkdir(",
    );
    assert_eq!(go_judged(&standin), None);
    // The same trace with no cache filled so: the entry the runner read is the step's.
    let text = go_trace("", "");
    assert_eq!(
        finding(
            &processes(&text, Path::new("/p")),
            &[Step::Argv(vec!["go".into(), "vet".into(), "./...".into()])],
            Path::new("/room/promise.trace"),
            &Beside::none(),
        ),
        Some(Finding::Fed(CACHE_ENTRY.into()))
    );
}

#[test]
fn one_write_by_another_program_vouches_for_no_entry() {
    // A copy into the cache, a program named like the toolchain's where the agent can change it, a shell's
    // redirect into the vet tool's work directory (what `go` then stores): each is a step's own content.
    let copy = "101 clone(child_stack=NULL, flags=SIGCHLD) = 104\n\
                104 execve(\"/usr/bin/cp\", [\"cp\", \"f\", \"/room/go-build/ab/ab12-d\"], 0x1 /* 1 var */) = 0\n\
                104 openat(AT_FDCWD</p>, \"/room/go-build/ab/ab12-d\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</room/go-build/ab/ab12-d>\n\
                104 +++ exited with 0 +++\n";
    let changeable = "101 clone(child_stack=NULL, flags=SIGCHLD) = 104\n\
                      104 execve(\"/home/u/sdk/bin/go\", [\"go\", \"build\"], 0x1 /* 1 var */) = 0\n\
                      104 openat(AT_FDCWD</p>, \"/room/go-build/ef/ef56-d\", O_WRONLY|O_CREAT, 0666) = 3</room/go-build/ef/ef56-d>\n\
                      104 +++ exited with 0 +++\n";
    let work = "101 clone(child_stack=NULL, flags=SIGCHLD) = 104\n\
                104 execve(\"/bin/sh\", [\"sh\", \"-c\", \"x\"], 0x1 /* 1 var */) = 0\n\
                104 openat(AT_FDCWD</p>, \"/tmp/go-build1/b001/_pkg_.a\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/go-build1/b001/_pkg_.a>\n\
                104 +++ exited with 0 +++\n";
    for step in [copy, changeable, work] {
        assert_eq!(
            go_judged(&go_trace(step, "")),
            Some(Finding::Fed(CACHE_ENTRY.into())),
            "{step}"
        );
    }
}

#[test]
fn a_write_before_the_process_ran_the_toolchain_is_its_parents() {
    // make's child opens the entry (a redirect) and only then runs `go vet`: the write is make's.
    let text = go_trace("", "").replace(
        "101 execve(\"/usr/bin/go\"",
        "101 openat(AT_FDCWD</p>, \"/room/go-build/ab/ab12-a\", O_WRONLY|O_CREAT, 0666) = 3</room/go-build/ab/ab12-a>\n\
         101 execve(\"/usr/bin/go\"",
    );
    assert_eq!(go_judged(&text), Some(Finding::Fed(CACHE_ENTRY.into())));
}

#[test]
fn what_the_toolchain_wrote_outside_its_cache_is_judged_as_before() {
    // `go env -w GOFLAGS=-tags=lenient`: the toolchain's own write, but a file the next `go` reads as settings.
    let env = "101 openat(AT_FDCWD</p>, \"/home/u/.config/go/env\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</home/u/.config/go/env>\n";
    let read = "102 openat(AT_FDCWD</p>, \"/home/u/.config/go/env\", O_RDONLY|O_CLOEXEC) = 3</home/u/.config/go/env>\n";
    assert_eq!(
        go_judged(&go_trace(env, read)),
        Some(Finding::Fed("/home/u/.config/go/env".into()))
    );
}

/// [`judged`] with what the run met beside the step's writes: `/p/same` stands in the room's tree as in the
/// agent's, only `/p/gen/…` and `/p/data/…` are names whose existence nothing seals, and the bytecode of
/// `/src` is its source's.
fn judged_beside(text: &str) -> Option<Finding> {
    let steps = [Step::Argv(vec!["node".into(), "--check".into(), "a.js".into()])];
    let program = |ran: &Path| Some(ran.to_path_buf()).filter(|p| p.starts_with("/usr"));
    let compiled = |files: &[super::ReadBytecode]| {
        files
            .iter()
            .map(|(pyc, interpreter)| {
                pyc.starts_with("/room/pycache/src") && interpreter == Path::new("/usr/bin/python3")
            })
            .collect()
    };
    finding(
        &processes(text, Path::new("/p")),
        &steps,
        Path::new("/room/promise.trace"),
        &Beside {
            filled: Filled {
                caches: Vec::new(),
                program: &program,
            },
            as_the_agents: &|path| path == Path::new("/p/same"),
            existence_free: &|path| path.starts_with("/p/gen") || path.starts_with("/p/data"),
            compiled: &compiled,
        },
    )
}

/// The step's write of `path`, and the runner's `touch` of it.
fn wrote_then(path: &str, touch: &str) -> String {
    trace(
        &format!("101 openat(AT_FDCWD</p>, \"{path}\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</p/{path}>\n"),
        &format!("{touch}\n"),
    )
}

#[test]
fn a_name_only_looked_at_feeds_its_existence_alone_where_nothing_seals_it() {
    let probe = |path: &str| format!("102 newfstatat(AT_FDCWD</p>, \"{path}\", {{st_mode=S_IFREG|0644}}, 0) = 0");
    assert_eq!(
        judged_beside(&wrote_then("gen/__init__.py", &probe("gen/__init__.py"))),
        None
    );
    let listed = "102 openat(AT_FDCWD</p>, \"data\", O_RDONLY|O_DIRECTORY) = 3</p/data>\n\
                  102 getdents64(3</p/data>, 0x1 /* 3 entries */, 32768) = 80";
    assert_eq!(judged_beside(&wrote_then("data", listed)), None);
    // Its content read, or a name whose existence is sealed: fed.
    let read = "102 openat(AT_FDCWD</p>, \"gen/__init__.py\", O_RDONLY|O_CLOEXEC) = 3</p/gen/__init__.py>";
    assert_eq!(
        judged_beside(&wrote_then("gen/__init__.py", read)),
        Some(Finding::Fed("/p/gen/__init__.py".into()))
    );
    assert_eq!(
        judged_beside(&wrote_then(".quick", &probe(".quick"))),
        Some(Finding::Fed("/p/.quick".into()))
    );
    // Make looking at a target the step made: it may skip the recipe its plan holds.
    let by_make = wrote_then("gen/lint.ok", "").replace(
        "102 +++ exited with 0 +++\n",
        "102 +++ exited with 0 +++\n\
         100 execve(\"/usr/bin/make\", [\"make\", \"test\"], 0x1 /* 1 var */) = 0\n\
         100 newfstatat(AT_FDCWD</p>, \"gen/lint.ok\", {st_mode=S_IFREG|0644}, 0) = 0\n",
    );
    assert_eq!(judged_beside(&by_make), Some(Finding::Fed("/p/gen/lint.ok".into())));
}

#[test]
fn a_file_rewritten_as_the_agents_tree_has_it_feeds_nothing() {
    let read = "102 openat(AT_FDCWD</p>, \"same\", O_RDONLY|O_CLOEXEC) = 3</p/same>";
    assert_eq!(judged_beside(&wrote_then("same", read)), None);
    let other = read.replace("same", "other");
    assert_eq!(
        judged_beside(&wrote_then("other", &other)),
        Some(Finding::Fed("/p/other".into()))
    );
    // Read while the step still ran: what it met then is not what the tree has.
    let early = trace(
        "101 openat(AT_FDCWD</p>, \"same\", O_WRONLY|O_TRUNC, 0666) = 3</p/same>\n\
         100 openat(AT_FDCWD</p>, \"same\", O_RDONLY) = 4</p/same>\n",
        "",
    );
    assert_eq!(judged_beside(&early), Some(Finding::Fed("/p/same".into())));
}

#[test]
fn bytecode_counts_as_its_sources_only_where_its_code_is_what_the_source_compiles_to() {
    let pyc = |dir: &str, reader: &str| {
        let path = format!("/room/pycache/{dir}/m.cpython-311.pyc");
        format!(
            "100 execve(\"/bin/sh\", [\"sh\", \"-c\", \"x\"], 0x1 /* 1 var */) = 0\n\
             100 clone(child_stack=NULL, flags=SIGCHLD) = 101\n\
             101 execve(\"/usr/bin/node\", [\"node\", \"--check\", \"a.js\"], 0x1 /* 1 var */) = 0\n\
             101 openat(AT_FDCWD</p>, \"{path}\", O_WRONLY|O_CREAT, 0644) = 3<{path}>\n\
             101 +++ exited with 0 +++\n\
             100 clone(child_stack=NULL, flags=SIGCHLD) = 102\n\
             102 execve(\"{reader}\", [\"python3\", \"-m\", \"pytest\"], 0x1 /* 1 var */) = 0\n\
             102 openat(AT_FDCWD</p>, \"{path}\", O_RDONLY|O_CLOEXEC) = 3<{path}>\n\
             102 +++ exited with 0 +++\n"
        )
    };
    assert_eq!(judged_beside(&pyc("src", "/usr/bin/python3")), None);
    // Code the source does not compile to, or read by an interpreter the agent could have changed.
    assert_eq!(
        judged_beside(&pyc("forged", "/usr/bin/python3")),
        Some(Finding::Fed("/room/pycache/forged/m.cpython-311.pyc".into()))
    );
    assert_eq!(
        judged_beside(&pyc("src", "/home/u/bin/python3")),
        Some(Finding::Fed("/room/pycache/src/m.cpython-311.pyc".into()))
    );
}

/// What a cleared step did is its own: its processes (whose loads the comparison with the baseline leaves out)
/// and the files it alone wrote (no longer the run's own making); a file the rest wrote too stays the rest's.
#[test]
fn a_cleared_steps_processes_and_what_it_alone_wrote_are_its_own() {
    let writes_y = "102 openat(AT_FDCWD</p>, \"y\", O_WRONLY|O_CREAT, 0666) = 3</p/y>\n";
    let both = format!("{WRITES_X}101 openat(AT_FDCWD</p>, \"y\", O_WRONLY|O_CREAT, 0666) = 3</p/y>\n");
    let procs = processes(&trace(&both, writes_y), Path::new("/p"));
    let steps = [Step::Argv(vec!["node".into(), "--check".into(), "a.js".into()])];
    let stepped = super::Stepped::of(&procs, &steps, Path::new("/p"));
    assert_eq!(stepped.pids, [101].into_iter().collect());
    assert_eq!(stepped.wrote, ["x".to_string()].into_iter().collect());
}

/// A step's start seen twice, neither below the other (a step whose line is the goal's own), cannot be told from
/// the rest; a shell that runs its line's program in its own process, or a program the step's own process
/// starts again below it, is the step's once.
#[test]
fn a_step_started_twice_apart_cannot_be_told_from_the_rest() {
    let again = "100 clone(child_stack=NULL, flags=SIGCHLD) = 103\n\
                 103 execve(\"/usr/bin/node\", [\"node\", \"--check\", \"a.js\"], 0x1 /* 1 var */) = 0\n\
                 103 +++ exited with 0 +++\n";
    assert_eq!(judged(&format!("{}{again}", trace("", ""))), Some(Finding::Twice));
    let below = "101 clone(child_stack=NULL, flags=SIGCHLD) = 104\n\
                 104 execve(\"/usr/bin/node\", [\"node\", \"--check\", \"a.js\"], 0x1 /* 1 var */) = 0\n\
                 104 +++ exited with 0 +++\n";
    let exec_again = "101 execve(\"/usr/bin/node\", [\"node\", \"--check\", \"a.js\"], 0x1 /* 1 var */) = 0\n";
    for step in [below, exec_again] {
        assert_eq!(judged(&trace(step, "")), None, "{step}");
    }
}
