//! Installing without a Rust toolchain, end to end: the npm packages `scripts/dist.sh` packed
//! (`target/dist/npm/`, or `$LOOPGATE_DIST_DIR/npm/`) served by a static registry on 127.0.0.1, a fresh `HOME`
//! and npm prefix, and a `PATH` with node, npm, Claude Code and the system's tools but no `cargo`, no `rustc`
//! and no test build of loopgate. Two routes, each ending in a real Claude Code loop (the end-to-end harness's
//! scripted model) that is rejected once and then completes:
//!
//! - npm: `npm install -g loopgate` → `loopgate --version` → `loopgate install` → `/pua-loop`;
//! - the plugin marketplace: `claude plugin marketplace add` + `claude plugin install` of the plugin files with
//!   their `package.json` and lockfile (Claude Code runs `npm ci --ignore-scripts` in the installed plugin)
//!   → `/loopgate:pua-loop`, with `loopgate` on the agent's `PATH` through the plugin's `bin/`.
//!
//! The packages are what `scripts/dist.sh` packed last (CI runs it first); when none are there for this
//! version, the suite runs `scripts/dist.sh --platforms PLATFORM` for this machine itself. Nothing is skipped.

#[path = "support/common.rs"]
mod common;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "e2e/mock_api.rs"]
mod mock_api;
#[path = "dist/registry.rs"]
mod registry;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{CHECK_SH, TASK};
use harness::{Output, Project, claude_bin, repo_root};
use mock_api::{MockApi, Reply};
use registry::Registry;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The npm name of this machine's platform package (`@loopgate/linux-x64`, …).
fn platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        (os, arch) => panic!("no prebuilt loopgate for {os}/{arch}"),
    }
}

/// The directory holding the packed `*.tgz`, packed for this version (by `scripts/dist.sh`, run here if needed).
fn packed() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dist = std::env::var_os("LOOPGATE_DIST_DIR")
            .filter(|d| !d.is_empty())
            .map_or_else(|| repo_root().join("target/dist"), PathBuf::from);
        let npm = dist.join("npm");
        let wanted = [
            format!("loopgate-{VERSION}.tgz"),
            format!("loopgate-{}-{VERSION}.tgz", platform()),
        ];
        if !wanted.iter().all(|f| npm.join(f).is_file()) {
            assert!(
                std::env::var_os("LOOPGATE_DIST_DIR").is_none(),
                "{} lacks {wanted:?}: run `scripts/dist.sh` (LOOPGATE_DIST_DIR names where it wrote)",
                npm.display()
            );
            eprintln!(
                "[dist] no packages for {VERSION} in {}: running scripts/dist.sh",
                npm.display()
            );
            let status = Command::new(repo_root().join("scripts/dist.sh"))
                .args(["--platforms", platform()])
                .status()
                .expect("run scripts/dist.sh");
            assert!(status.success(), "scripts/dist.sh --platforms {} failed", platform());
        }
        npm
    })
}

/// A scratch machine without Rust: a project, `HOME` with an `.npmrc` that points at the local registry and a
/// global prefix of its own, and a `PATH` of the prefix's `bin`, node and npm, Claude Code and the system.
struct Machine {
    project: Project,
    registry: Registry,
    prefix: PathBuf,
    path: OsString,
}

impl Machine {
    fn new() -> Self {
        let project = Project::new();
        let registry = Registry::serve(packed(), Some(project.home.join("served")));
        project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
        let prefix = project.home.join("npm-global");
        let npmrc = format!(
            "registry={}\nprefix={}\ncache={}\naudit=false\nfund=false\nupdate-notifier=false\n",
            registry.url(),
            prefix.display(),
            project.home.join("npm-cache").display(),
        );
        std::fs::write(project.home.join(".npmrc"), npmrc).expect("write .npmrc");

        let node = which("node").expect("node on PATH (apt-get install nodejs npm)");
        let npm = which("npm").expect("npm on PATH (apt-get install nodejs npm)");
        let mut dirs = vec![prefix.join("bin")];
        for tool in [&node, &npm, &claude_bin()] {
            dirs.push(tool.parent().expect("a directory").to_path_buf());
        }
        let rust_free = |dir: &Path| !["cargo", "rustc", "loopgate"].iter().any(|t| dir.join(t).exists());
        // The system's tools (sh, git, coreutils); /usr/local/bin only when no Rust or loopgate is installed there.
        dirs.extend(
            ["/usr/local/bin", "/usr/bin", "/bin"]
                .map(PathBuf::from)
                .into_iter()
                .filter(|dir| dir != Path::new("/usr/local/bin") || rust_free(dir)),
        );
        dirs.dedup();
        for dir in &dirs {
            for tool in ["cargo", "rustc", "loopgate"] {
                assert!(
                    !dir.join(tool).exists() || dir.starts_with(&prefix),
                    "`{tool}` is in {} — this suite must run with no Rust toolchain and no other loopgate on PATH",
                    dir.display()
                );
            }
        }
        let path = std::env::join_paths(dirs).expect("join PATH");
        Machine {
            project,
            registry,
            prefix,
            path,
        }
    }

    /// `program ARGS` on this machine: its `PATH`, no `LOOPGATE_BIN`, no npm settings from outside, the mock
    /// API for Claude Code (`claude plugin …` contacts it when a key is set).
    fn run(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Output {
        let api = MockApi::start();
        let mut cmd = self.project.command(program);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().to_ascii_lowercase().starts_with("npm_config_") {
                cmd.env_remove(key);
            }
        }
        let child = cmd
            .args(args)
            .env("PATH", &self.path)
            .env_remove("LOOPGATE_BIN")
            .env("ANTHROPIC_BASE_URL", api.base_url())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        harness::wait_output(child, Duration::from_secs(180))
    }

    #[track_caller]
    fn ok(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Output {
        let shown = format!("{} {}", program.as_ref().to_string_lossy(), args.join(" "));
        let out = self.run(program, args);
        assert!(out.status.success() && !out.timed_out, "`{shown}` failed: {out:#?}");
        out
    }

    /// A loop with the scripted agent that is rejected once, then completes; `prompt` starts it.
    #[track_caller]
    fn loop_rejected_once_then_complete(&self, prompt: &str, first: Vec<Reply>) -> harness::Run {
        let run = self
            .project
            .session(prompt)
            .installed_plugins_only()
            .env("PATH", self.path.clone())
            .env("LOOPGATE_BIN", "")
            .replies(first)
            .replies([
                Reply::bash("echo still-broken > src.txt"),
                promise(),
                Reply::bash("echo fixed > src.txt"),
                promise(),
            ])
            .run();
        assert_eq!(
            self.project.statuses(),
            ["init", "promise_rejected", "complete"],
            "{}",
            run.describe()
        );
        let feedback = run.stop_feedback();
        assert!(
            feedback.len() == 1 && feedback[0].contains("VERIFY-MARK-7"),
            "the model was shown the failing verify once: {feedback:#?}\n{}",
            run.describe()
        );
        run
    }

    /// The tarballs the registry served, by file name.
    /// The package files npm fetched, sorted (npm fetches them in parallel, in no set order).
    fn downloaded(&self) -> Vec<String> {
        let mut files: Vec<String> = self
            .registry
            .requests()
            .iter()
            .filter_map(|r| r.strip_prefix("GET "))
            .filter_map(|p| p.split_once("/-/").map(|(_, file)| file.to_string()))
            .collect();
        files.sort();
        files
    }
}

fn promise() -> Reply {
    Reply::text("I believe the work is complete.\n\n<promise>LOOP_DONE</promise>")
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

#[test]
fn npm_install_then_loopgate_install_runs_a_loop_without_rust() {
    let machine = Machine::new();
    let started = Instant::now();
    machine.ok("npm", &["install", "-g", "loopgate"]);
    eprintln!(
        "[dist] npm install -g loopgate took {:.1}s",
        started.elapsed().as_secs_f64()
    );
    let downloaded = machine.downloaded();
    let mut expected = [
        format!("loopgate-{VERSION}.tgz"),
        format!("{}-{VERSION}.tgz", platform()),
    ];
    expected.sort();
    assert_eq!(
        downloaded, expected,
        "npm fetched the launcher and this platform's package, nothing else"
    );

    let launcher = machine.prefix.join("bin/loopgate");
    let version = machine.ok(&launcher, &["--version"]);
    assert_eq!(version.stdout.trim(), format!("loopgate {VERSION}"));
    // Exit codes pass through the launcher: a usage error is loopgate's own 2, with its message.
    let bad = machine.run(&launcher, &["no-such-command"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:#?}");
    assert!(bad.stderr.contains("no-such-command"), "{bad:#?}");

    let install = machine.ok(&launcher, &["install"]);
    assert!(
        install.stdout.contains("installed the plugin loopgate@loopgate"),
        "{install:#?}"
    );
    // The commands call the platform package's binary itself, not the Node launcher.
    let command = std::fs::read_to_string(machine.project.home.join(".claude/commands/pua-loop.md"))
        .expect("loopgate install wrote /pua-loop");
    let native = machine.prefix.join(format!(
        "lib/node_modules/loopgate/node_modules/@loopgate/{}/bin/loopgate",
        platform()
    ));
    assert!(
        command.contains(&format!("\"{}\"", native.display())),
        "/pua-loop calls {}:\n{command}",
        native.display()
    );

    machine.loop_rejected_once_then_complete(&format!("/pua-loop \"{TASK}\" --verify 'sh check.sh'"), Vec::new());

    // A SIGTERM to the launcher reaches the binary, and the launcher dies of it too (128+15 to a shell). The
    // binary waits for hook input on a pipe this test keeps open, so only the forwarded signal can end it.
    let mut waiting = machine
        .project
        .command(&launcher)
        .args(["hook", "stop"])
        .env("PATH", &machine.path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn the launcher");
    let started = common::eventually(Duration::from_secs(20), || {
        machine
            .project
            .leftover_processes()
            .iter()
            .any(|(_, cmdline)| cmdline.contains("@loopgate/") && cmdline.ends_with("hook stop"))
    });
    assert!(
        started,
        "the launcher started the binary: {:?}",
        machine.project.leftover_processes()
    );
    let kill = Command::new("kill").args(["-TERM", &waiting.id().to_string()]).status();
    assert!(kill.is_ok_and(|s| s.success()), "kill -TERM the launcher");
    // Not `wait()` yet: it closes stdin first, and the binary would then end on its own.
    let mut status = None;
    common::eventually(Duration::from_secs(20), || {
        status = waiting.try_wait().ok().flatten();
        status.is_some()
    });
    let status = status.expect("the launcher ended after SIGTERM");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(15),
        "{status:?}"
    );
    let leftovers = machine.project.leftover_processes();
    assert!(leftovers.is_empty(), "the binary outlived its launcher: {leftovers:?}");

    // Without the platform package (npm told to omit optional dependencies), one line says what to do.
    std::fs::remove_dir_all(machine.prefix.join("lib/node_modules/loopgate/node_modules/@loopgate"))
        .expect("remove the platform package");
    let missing = machine.run(&launcher, &["--version"]);
    assert_eq!(missing.status.code(), Some(127), "{missing:#?}");
    assert!(
        missing
            .stderr
            .contains(&format!("`@loopgate/{}` is not installed", platform()))
            && missing.stderr.trim().lines().count() == 1,
        "{missing:#?}"
    );
}

#[test]
fn the_marketplace_plugin_gets_its_binary_from_npm_without_rust() {
    let machine = Machine::new();
    // The plugin as users get it: a git repository (served over HTTP by `git http-backend` behind the local
    // registry, as GitHub serves one) holding the repository's plugin files.
    let source = machine.project.home.join("marketplace");
    std::fs::create_dir_all(&source).expect("create the marketplace directory");
    for item in [
        ".claude-plugin",
        "hooks",
        "commands",
        "skills",
        "bin",
        "package.json",
        "package-lock.json",
        "LICENSE",
    ] {
        machine.ok(
            "cp",
            &[
                "-R",
                harness::s(&repo_root().join(item)),
                harness::s(&source.join(item)),
            ],
        );
    }
    let served = machine.project.home.join("served/loopgate.git");
    let git = |args: &[&str]| {
        let mut all = vec!["-c", "user.name=e2e", "-c", "user.email=e2e@example.com"];
        all.extend(args);
        machine.ok("git", &all);
    };
    git(&["-C", harness::s(&source), "init", "-q", "-b", "main"]);
    git(&["-C", harness::s(&source), "add", "-A"]);
    git(&["-C", harness::s(&source), "commit", "-q", "-m", "loopgate plugin"]);
    git(&["clone", "-q", "--bare", harness::s(&source), harness::s(&served)]);
    let url = format!("{}git/loopgate.git", machine.registry.url());

    let claude = claude_bin();
    let started = Instant::now();
    machine.ok(&claude, &["plugin", "marketplace", "add", &url]);
    let installed = machine.ok(&claude, &["plugin", "install", "loopgate@loopgate"]);
    eprintln!(
        "[dist] claude plugin marketplace add + install took {:.1}s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        machine.downloaded(),
        [format!("{}-{VERSION}.tgz", platform())],
        "Claude Code's npm ci fetched this platform's package only: {installed:#?}"
    );

    let run = machine.loop_rejected_once_then_complete(
        &format!("/loopgate:pua-loop \"{TASK}\" --verify 'sh check.sh'"),
        vec![Reply::bash("loopgate --version")],
    );
    let results = run.tool_results();
    assert!(
        results
            .first()
            .is_some_and(|(error, text)| !error && text.contains(&format!("loopgate {VERSION}"))),
        "the agent's Bash runs `loopgate` from the plugin's bin/: {results:#?}"
    );
}

#[test]
fn committed_package_files_carry_the_cargo_version() {
    let out = Command::new("node")
        .arg(repo_root().join("npm/pack.mjs"))
        .args(["stamp", "--check"])
        .output()
        .expect("run node npm/pack.mjs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `cargo binstall` finds what `scripts/dist.sh` made: `[package.metadata.binstall]`'s URL names an archive in
/// the dist directory for each built target, holding the binary where `bin-dir` says.
#[test]
fn binstall_metadata_names_the_archives_dist_makes() {
    let dist = packed().parent().expect("the dist directory").to_path_buf();
    let manifest: toml::Table = std::fs::read_to_string(repo_root().join("Cargo.toml"))
        .expect("read Cargo.toml")
        .parse()
        .expect("Cargo.toml parses");
    let binstall = &manifest["package"]["metadata"]["binstall"];
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
    let fill = |template: &str, target: &str| {
        template
            .replace("{ repo }", "REPO")
            .replace("{ name }", "loopgate")
            .replace("{ version }", VERSION)
            .replace("{ target }", target)
            .replace("{ archive-suffix }", ".tar.gz")
            .replace("{ bin }", "loopgate")
            .replace("{ binary-ext }", "")
    };
    let mut checked = 0;
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
    ] {
        let url = fill(binstall["pkg-url"].as_str().expect("pkg-url"), target);
        let file = url
            .strip_prefix(&format!("REPO/releases/download/v{VERSION}/"))
            .expect("a release asset URL");
        let archive = dist.join(file);
        if !archive.exists() {
            continue;
        }
        let listing = Command::new("tar").arg("-tzf").arg(&archive).output().expect("run tar");
        let listing = String::from_utf8_lossy(&listing.stdout);
        let bin = fill(binstall["bin-dir"].as_str().expect("bin-dir"), target);
        assert!(
            listing.lines().any(|line| line == bin),
            "{} holds no {bin}:\n{listing}",
            archive.display()
        );
        checked += 1;
    }
    assert!(checked > 0, "no release archive in {}", dist.display());
}
