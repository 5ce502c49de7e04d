//! The seed of the room's Go build cache (`room::caches::Seeding`): the standard library as this toolchain
//! compiles and vets it for `go test`, built once per toolchain into loopgate's store and copied into each new
//! room before its baseline runs.
//!
//! **Why.** The room's `go-build` is private and starts empty for every loop, since it holds verdicts (a cached
//! test result) and the agent's code, run by the oracle, could write entries into it. So every Go setup compiled
//! the standard library and ran `vet` over it to get the facts `go test`'s vet needs — most of a Go setup's CPU
//! (BENCHMARKS.md, "what a gaming case costs"), for output that is the same for every project on the machine.
//!
//! **Why a seed can be trusted.** It is filled by one `go test` of a package of loopgate's own — a test file that
//! imports the standard packages the project's tests depend on, and nothing else — in an empty module in the
//! seeds' directory, with the module proxy off, no `GOFLAGS` (no `-toolexec`, no `-overlay`), no `go.env`
//! settings and no workspace: no file of any project is compiled or run, and no test of anyone's executes. Go
//! keys every cache entry by a hash of everything its action reads (sources, flags, the compiler, the
//! environment that steers it), so an entry is only ever used by a build that would have produced it. Seeds are
//! keyed by the `go` binary's content and the settings that steer the standard library's build (`go env`), and
//! are never written again once published (a seed that lacks a package the project needs is replaced by a new
//! one holding both, built from a copy): a room copies a finished seed or nothing.
//!
//! **What it costs.** The first setup of a toolchain pays one build (about the cold compile it saves, plus a
//! `go list`); every later one a `go list` of the project (which reads its packages' imports, runs nothing) and
//! a copy of a few megabytes.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::room::caches::Seeding;

/// The seeds' folder of Go under loopgate's seeds directory.
const PLACE: &str = "go";

/// The settings that steer how the standard library is built, asked of `go env` for the seed's key.
const STEERING: &[&str] = &[
    "GOROOT",
    "GOVERSION",
    "GOOS",
    "GOARCH",
    "GOAMD64",
    "GOARM",
    "GOARM64",
    "GO386",
    "GOEXPERIMENT",
    "CGO_ENABLED",
    "CC",
    "CXX",
    "CGO_CFLAGS",
    "CGO_CPPFLAGS",
    "CGO_CXXFLAGS",
    "CGO_LDFLAGS",
];

/// Fills `at.into` (the room's empty `go-build`) from the seed of the project's toolchain, building or growing
/// the seed first where none holds every standard package the project's tests depend on.
pub(crate) fn seed(at: &Seeding) -> io::Result<()> {
    if !["go.mod", "go.work"].iter().any(|file| at.root.join(file).is_file()) {
        return Ok(());
    }
    let Some(go) = program("go", at.vars) else {
        return Ok(());
    };
    let needed = standard_imports(&go, at.root, at.vars);
    if needed.is_empty() {
        return Ok(());
    }
    let dir = at.seeds.join(PLACE);
    std::fs::create_dir_all(&dir)?;
    let work = Work::new(&dir)?;
    let env = seeding_env(at.vars, work.path());
    let key = key(&go, &env)?;
    let seeds = published(&dir, &key);
    let seed = match seeds.iter().find(|(imports, _)| imports.is_superset(&needed)) {
        Some((_, found)) => found.clone(),
        None => {
            let largest = seeds.iter().max_by_key(|(imports, _)| imports.len());
            let mut imports = needed;
            if let Some((more, _)) = largest {
                imports.extend(more.iter().cloned());
            }
            let built = build(&go, &env, &work, &imports, largest.map(|(_, dir)| dir.as_path()))?;
            let name = format!("{key}-{}", unique());
            let seed = dir.join(&name);
            std::fs::rename(&built, &seed)?;
            for (older, path) in &seeds {
                if older.is_subset(&imports) {
                    let _ = std::fs::remove_dir_all(path);
                }
            }
            seed
        }
    };
    crate::fsutil::copy_tree(&seed.join("cache"), at.into, &|_| true)
}

/// A scratch directory in the seeds' folder, removed when dropped (a module to build in, the cache being built).
struct Work(PathBuf);

impl Work {
    /// A new scratch directory in `dir`, after removing those a killed setup left there over an hour ago.
    fn new(dir: &Path) -> io::Result<Work> {
        let stale = |entry: &std::fs::DirEntry| {
            entry.file_name().to_string_lossy().starts_with(".work-")
                && entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|at| at.elapsed().is_ok_and(|age| age.as_secs() > 3600))
        };
        for entry in std::fs::read_dir(dir)?.flatten().filter(stale) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
        let path = dir.join(format!(".work-{}", unique()));
        std::fs::create_dir(&path)?;
        Ok(Work(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A name no other process of this machine picks at the same time.
fn unique() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

/// `name` as the recorded `PATH` finds it.
fn program(name: &str, vars: &BTreeMap<String, String>) -> Option<PathBuf> {
    std::env::split_paths(vars.get("PATH")?)
        .map(|dir| dir.join(name))
        .find(|file| std::fs::metadata(file).is_ok_and(|m| m.is_file()))
}

/// The importable standard packages the project's packages and tests depend on, as `go list` resolves them in
/// the recorded environment (it reads the packages' imports and runs nothing; the user's `GOFLAGS` stay, since
/// they choose the module mode, and `go list` runs no tool they name); empty where it cannot say.
fn standard_imports(go: &Path, root: &Path, vars: &BTreeMap<String, String>) -> BTreeSet<String> {
    let output = Command::new(go)
        .args([
            "list",
            "-e",
            "-deps",
            "-test",
            "-f",
            "{{if .Standard}}{{.ImportPath}}{{end}}",
            "./...",
        ])
        .current_dir(root)
        .env_clear()
        .envs(vars)
        .envs([("GOPROXY", "off"), ("GOTOOLCHAIN", "local")])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let Ok(output) = output else {
        return BTreeSet::new();
    };
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|path| importable(path))
        .map(str::to_string)
        .collect()
}

/// Whether a package of the standard library can be imported from a module outside it (not `internal`, not
/// its `vendor` copies, not cgo's `C`).
fn importable(path: &str) -> bool {
    !path.is_empty()
        && path != "C"
        && !path.starts_with("vendor/")
        && !path.split('/').any(|part| part == "internal")
        && !path.contains(char::is_whitespace)
}

/// The environment the seed is built in: the recorded one, with everything that could make the build run
/// anyone's code or read anyone's settings taken out, and the caches in `work`.
fn seeding_env(vars: &BTreeMap<String, String>, work: &Path) -> BTreeMap<String, String> {
    let mut env = vars.clone();
    for drop in ["GOFLAGS", "GOWORK", "GOCACHEPROG", "GODEBUG"] {
        env.remove(drop);
    }
    let path = |name: &str| work.join(name).to_string_lossy().into_owned();
    env.insert("GOENV".into(), "off".into());
    env.insert("GOTOOLCHAIN".into(), "local".into());
    env.insert("GOPROXY".into(), "off".into());
    env.insert("GO111MODULE".into(), "on".into());
    env.insert("GOWORK".into(), "off".into());
    env.insert("GOCACHE".into(), path("cache"));
    env.insert("GOPATH".into(), path("gopath"));
    env.insert("GOMODCACHE".into(), path("gopath/pkg/mod"));
    env
}

/// The seed's key: the `go` binary's content and what `go env` says of the settings that steer the standard
/// library's build, in the seeding environment.
fn key(go: &Path, env: &BTreeMap<String, String>) -> io::Result<String> {
    let binary = crate::fsutil::sha256_hex(std::fs::File::open(go)?)?;
    let output = Command::new(go)
        .arg("env")
        .args(STEERING)
        .env_clear()
        .envs(env)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()?;
    if !output.status.success() {
        return Err(io::Error::other("go env failed"));
    }
    let mut text = binary.into_bytes();
    text.extend_from_slice(&output.stdout);
    let digest = crate::fsutil::sha256_hex(text.as_slice())?;
    Ok(digest[..24].to_string())
}

/// The published seeds of `key`: the standard packages each holds, and its directory.
fn published(dir: &Path, key: &str) -> Vec<(BTreeSet<String>, PathBuf)> {
    let prefix = format!("{key}-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
        .filter_map(|entry| {
            let imports = std::fs::read_to_string(entry.path().join("imports")).ok()?;
            Some((imports.lines().map(str::to_string).collect(), entry.path()))
        })
        .collect()
}

/// Builds a seed holding `imports` in `work` (from a copy of `from`'s cache, where one is grown) and returns its
/// directory, ready to be renamed into place: `cache/`, and `imports` last.
fn build(
    go: &Path,
    env: &BTreeMap<String, String>,
    work: &Work,
    imports: &BTreeSet<String>,
    from: Option<&Path>,
) -> io::Result<PathBuf> {
    let seed = work.path().join("seed");
    let cache = seed.join("cache");
    std::fs::create_dir_all(&cache)?;
    if let Some(from) = from {
        crate::fsutil::copy_tree(&from.join("cache"), &cache, &|_| true)?;
    }
    let module = work.path().join("module");
    std::fs::create_dir_all(&module)?;
    std::fs::write(module.join("go.mod"), "module loopgate.invalid/seed\n")?;
    let blank: String = imports
        .iter()
        .filter(|path| *path != "testing")
        .map(|path| format!("\t_ {path:?}\n"))
        .collect();
    std::fs::write(
        module.join("seed_test.go"),
        format!("package seed\n\nimport (\n\t\"testing\"\n{blank})\n\nfunc TestSeed(t *testing.T) {{}}\n"),
    )?;
    let mut env = env.clone();
    env.insert("GOCACHE".into(), cache.to_string_lossy().into_owned());
    // Its exit does not matter: what compiled is in the cache, keyed by what it read, and a package that did not
    // is simply not there (the seed is not built again for it on every setup).
    Command::new(go)
        .args(["test", "-count=1", "-run", "^$", "."])
        .current_dir(&module)
        .env_clear()
        .envs(&env)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    let list: String = imports.iter().map(|path| format!("{path}\n")).collect();
    std::fs::write(seed.join("imports"), list)?;
    Ok(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_packages_a_module_can_import_are_seeded() {
        for path in ["fmt", "net/http", "unsafe", "testing"] {
            assert!(importable(path), "{path}");
        }
        for path in [
            "",
            "C",
            "internal/cpu",
            "runtime/internal/sys",
            "vendor/golang.org/x/net/idna",
            "a b",
        ] {
            assert!(!importable(path), "{path}");
        }
    }

    /// A Go module at `dir` whose test imports `extra` besides `testing`.
    fn module(dir: &Path, extra: &str) {
        std::fs::create_dir_all(dir).expect("write the test's files");
        std::fs::write(dir.join("go.mod"), "module calc\n\ngo 1.16\n").expect("write the test's files");
        std::fs::write(
            dir.join("calc.go"),
            "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
        )
        .expect("write the test's files");
        std::fs::write(
            dir.join("calc_test.go"),
            format!("package calc\n\nimport (\n\t\"testing\"\n\t_ \"{extra}\"\n)\n\nfunc TestAdd(t *testing.T) {{}}\n"),
        )
        .expect("write the test's files");
    }

    /// Files below `dir`, counted.
    fn files(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| if e.path().is_dir() { files(&e.path()) } else { 1 })
            .sum()
    }

    /// Where `go` is on this machine, or `None` (the test then says so and checks nothing else: CI installs Go).
    fn environment() -> Option<BTreeMap<String, String>> {
        let vars: BTreeMap<String, String> = std::env::vars().collect();
        program("go", &vars)?;
        Some(vars)
    }

    /// The seed is built once, copied into each room, grown (into a new seed that replaces the old) when a
    /// project needs a standard package it lacks, and its build runs nothing the user's settings name: a
    /// `-toolexec` program in `GOFLAGS` would leave a mark.
    #[test]
    fn a_seed_is_built_once_copied_into_each_room_and_grown_for_a_new_package() {
        let Some(mut vars) = environment() else {
            eprintln!("no go on PATH: the seed is not exercised");
            return;
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let mark = dir.path().join("toolexec-ran");
        let tool = dir.path().join("tool.sh");
        std::fs::write(&tool, format!("#!/bin/sh\ntouch '{}'\nexec \"$@\"\n", mark.display()))
            .expect("write the test's files");
        std::fs::set_permissions(&tool, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("write the test's files");
        vars.insert("GOFLAGS".into(), format!("-toolexec={}", tool.display()));
        let seeds = dir.path().join("seeds");
        let seed_into = |project: &Path, room: &str| {
            let into = dir.path().join(room);
            std::fs::create_dir_all(&into).expect("write the test's files");
            seed(&Seeding {
                seeds: &seeds,
                root: project,
                vars: &vars,
                into: &into,
            })
            .expect("seed");
            into
        };
        let all = || -> Vec<BTreeSet<String>> {
            std::fs::read_dir(seeds.join(PLACE))
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| std::fs::read_to_string(e.path().join("imports")).ok())
                .map(|text| text.lines().map(str::to_string).collect())
                .collect()
        };
        let published = || all().len();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        module(&a, "strings");
        module(&b, "container/list");

        let first = seed_into(&a, "room1");
        assert_eq!(published(), 1);
        assert!(files(&first) > 10, "the room's cache holds the seed");
        let second = seed_into(&a, "room2");
        assert_eq!(
            (published(), files(&second)),
            (1, files(&first)),
            "the same seed, copied"
        );
        let grown = seed_into(&b, "room3");
        assert_eq!(published(), 1, "the grown seed replaces the one it grew from");
        assert!(files(&grown) > files(&first));
        let imports = &all()[0];
        assert!(
            imports.contains("strings") && imports.contains("container/list"),
            "{imports:?}"
        );
        assert!(!mark.exists(), "the seed's build ran the user's -toolexec program");
    }

    #[test]
    fn a_project_without_a_go_module_is_not_seeded() {
        let Some(vars) = environment() else {
            return;
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let into = dir.path().join("room");
        std::fs::create_dir_all(&into).expect("write the test's files");
        let seeds = dir.path().join("seeds");
        seed(&Seeding {
            seeds: &seeds,
            root: dir.path(),
            vars: &vars,
            into: &into,
        })
        .expect("seed");
        assert!(!seeds.exists());
        assert_eq!(files(&into), 0);
    }

    #[test]
    fn the_seed_is_built_with_nothing_of_the_users_that_could_run_code() {
        let vars: BTreeMap<String, String> = [
            ("GOFLAGS", "-toolexec=./evil"),
            ("GOWORK", "/p/go.work"),
            ("PATH", "/usr/bin"),
            ("GOCACHE", "/home/u/.cache/go-build"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let env = seeding_env(&vars, Path::new("/seeds/go/.work-1"));
        assert!(!env.contains_key("GOFLAGS"));
        assert_eq!(env["GOWORK"], "off");
        assert_eq!(env["GOENV"], "off");
        assert_eq!(env["GOPROXY"], "off");
        assert_eq!(env["GOCACHE"], "/seeds/go/.work-1/cache");
        assert_eq!(env["PATH"], "/usr/bin");
    }
}
