use super::*;

fn seen(trace: &str) -> Vec<(Access, String)> {
    events(trace, Path::new("/p"), &std::collections::HashSet::new(), |_| false)
        .into_iter()
        .map(|e| (e.access, e.path.to_string_lossy().into_owned()))
        .collect()
}

#[test]
fn opens_read_write_and_missing() {
    let trace = r#"10 openat(AT_FDCWD</p>, "pytest.ini", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
10 openat(AT_FDCWD</p>, "/p/tests/test_a.py", O_RDONLY|O_CLOEXEC) = 3</p/tests/test_a.py>
10 openat(AT_FDCWD</p>, "out.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</p/out.txt>
10 openat(AT_FDCWD</p>, "/p/src", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 5</p/src>
10 openat(AT_FDCWD</p>, "/root/.netrc", O_RDONLY) = -1 EACCES (Permission denied)
10 openat(AT_FDCWD</p>, "/tmp", O_RDWR|O_EXCL|O_NOFOLLOW|O_CLOEXEC|O_TMPFILE, 0600) = 6</tmp/#10010675>(deleted)"#;
    assert_eq!(
        seen(trace),
        vec![
            (Access::Missing, "/p/pytest.ini".into()),
            (Access::Read, "/p/tests/test_a.py".into()),
            (Access::Wrote, "/p/out.txt".into()),
        ]
    );
}

#[test]
fn a_successful_open_records_the_file_it_reached_through_symlinks() {
    let trace = r#"10 openat(AT_FDCWD</p>, "node_modules/.bin/jest", O_RDONLY) = 3</p/node_modules/jest/bin/jest.js>"#;
    assert_eq!(
        seen(trace),
        vec![(Access::Read, "/p/node_modules/jest/bin/jest.js".into())]
    );
}

#[test]
fn relative_paths_resolve_against_the_directory_descriptor() {
    let trace = r#"10 newfstatat(12</p/tests>, "conftest.py", 0x7ffd, 0) = -1 ENOENT (No such file or directory)
10 getdents64(12</p/tests>, 0x5567 /* 3 entries */, 32768) = 80
10 newfstatat(12</p/tests/x.py>, "", {st_mode=S_IFREG|0644, st_size=54, ...}, AT_EMPTY_PATH) = 0"#;
    assert_eq!(
        seen(trace),
        vec![
            (Access::Missing, "/p/tests/conftest.py".into()),
            (Access::Listed, "/p/tests".into()),
        ]
    );
}

#[test]
fn execs_found_and_looked_for_on_path() {
    let trace = r#"10 execve("/p/node_modules/.bin/node", ["node", "x.js"], 0x7ff /* 3 vars */) = -1 ENOENT (No such file or directory)
10 execve("/usr/bin/node", ["node", "x.js"], 0x7ff /* 3 vars */) = 0"#;
    assert_eq!(
        seen(trace),
        vec![
            (Access::MissingProgram, "/p/node_modules/.bin/node".into()),
            (Access::Executed, "/usr/bin/node".into()),
        ]
    );
}

#[test]
fn the_working_directory_follows_chdir_and_is_inherited_by_children() {
    let trace = r#"10 chdir("sub") = 0
10 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 11
11 stat("Makefile", 0x7ffd) = -1 ENOENT (No such file or directory)
11 access("../run.sh", X_OK) = 0"#;
    assert_eq!(
        seen(trace),
        vec![
            (Access::Missing, "/p/sub/Makefile".into()),
            (Access::Probed, "/p/run.sh".into()),
        ]
    );
}

#[test]
fn an_interrupted_call_is_joined_with_its_resumption() {
    let trace = r#"10 openat(AT_FDCWD</p>, "setup.cfg", O_RDONLY <unfinished ...>
11 getdents64(3</p>, 0x1 /* 4 entries */, 32768) = 112
10 <... openat resumed>) = 3</p/setup.cfg>"#;
    assert_eq!(
        seen(trace),
        vec![(Access::Listed, "/p".into()), (Access::Read, "/p/setup.cfg".into())]
    );
}

#[test]
fn renames_links_and_removals_are_writes_of_every_path_they_name() {
    let trace = r#"10 rename("/p/tmp-x", "/p/.pytest_cache") = 0
10 symlinkat("target", AT_FDCWD</p>, "link") = 0
10 unlink("/p/gone") = -1 ENOENT (No such file or directory)
10 mkdir("/p/.cache", 0777) = 0"#;
    assert_eq!(
        seen(trace),
        vec![
            (Access::Wrote, "/p/tmp-x".into()),
            (Access::Wrote, "/p/.pytest_cache".into()),
            (Access::Wrote, "/p/link".into()),
            (Access::Wrote, "/p/.cache".into()),
        ]
    );
}

#[test]
fn escapes_dots_and_odd_lines() {
    let trace = "10 openat(AT_FDCWD</p>, \"a\\\"b/../c\\x41.txt\", O_RDONLY) = 3</p/cA.txt>\n\
                 10 +++ exited with 0 +++\n\
                 garbage\n\
                 10 execve(\"/bin/sh\", [\"sh\"], 0x1 /* 1 var */) = ?\n\
                 10 readlink(\"/p/l\", \"target\", 4095) = 6";
    assert_eq!(
        seen(trace),
        vec![(Access::Read, "/p/cA.txt".into()), (Access::Probed, "/p/l".into())]
    );
}

/// The events of processes asked to be skipped (a cleared step's) are left out, the others' kept in order.
#[test]
fn the_events_of_skipped_processes_are_left_out() {
    let trace = "1 openat(AT_FDCWD</p>, \"a.py\", O_RDONLY) = 3</p/a.py>\n\
                 2 openat(AT_FDCWD</p>, \"b.py\", O_RDONLY) = 3</p/b.py>\n\
                 1 openat(AT_FDCWD</p>, \"c.py\", O_RDONLY) = 3</p/c.py>\n";
    let paths = |skip: &[u32]| -> Vec<PathBuf> {
        events(trace, Path::new("/p"), &skip.iter().copied().collect(), |_| false)
            .into_iter()
            .map(|e| e.path)
            .collect()
    };
    assert_eq!(paths(&[]), ["/p/a.py", "/p/b.py", "/p/c.py"].map(PathBuf::from));
    assert_eq!(paths(&[2]), ["/p/a.py", "/p/c.py"].map(PathBuf::from));
}

/// What a program judged by its output (a build script), or a process it started, read in the project is left
/// out; what it wrote, what it read outside the project, and what other processes read there stay.
#[test]
fn what_a_program_judged_by_its_output_read_in_the_project_is_left_out() {
    let trace = "1 execve(\"/p/target/debug/build/calc-1/build-script-build\", [\"build-script-build\"], 0x1 /* 1 var */) = 0\n\
                 1 openat(AT_FDCWD</p>, \"build.conf\", O_RDONLY) = 3</p/build.conf>\n\
                 1 openat(AT_FDCWD</p>, \"/usr/include/stdio.h\", O_RDONLY) = 3</usr/include/stdio.h>\n\
                 1 clone(child_stack=NULL, flags=SIGCHLD) = 2\n\
                 2 execve(\"/usr/bin/protoc\", [\"protoc\"], 0x1 /* 1 var */) = 0\n\
                 2 openat(AT_FDCWD</p>, \"proto/calc.proto\", O_RDONLY) = 3</p/proto/calc.proto>\n\
                 1 openat(AT_FDCWD</p>, \"/p/target/out/gen.rs\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</p/target/out/gen.rs>\n\
                 3 openat(AT_FDCWD</p>, \"build.conf\", O_RDONLY) = 3</p/build.conf>\n";
    let judged = |program: &Path| program.file_name().is_some_and(|n| n == "build-script-build");
    let seen: Vec<(Access, PathBuf)> = events(trace, Path::new("/p"), &Default::default(), judged)
        .into_iter()
        .map(|e| (e.access, e.path))
        .collect();
    assert_eq!(
        seen,
        [
            (Access::Read, "/usr/include/stdio.h"),
            (Access::Executed, "/usr/bin/protoc"),
            (Access::Wrote, "/p/target/out/gen.rs"),
            (Access::Read, "/p/build.conf"),
        ]
        .map(|(access, path)| (access, PathBuf::from(path)))
    );
}
