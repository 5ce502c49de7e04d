//! `loopgate install` and `loopgate uninstall`: make the product's own command names work in Claude Code.
//!
//! Claude Code namespaces plugin commands (`/loopgate:pua-loop`); only user-level commands
//! (`~/.claude/commands/NAME.md`) answer to a bare `/pua-loop`. So `install`:
//!
//! 1. installs the plugin — hooks, namespaced commands, skill — from a copy of the plugin files embedded in this
//!    binary, written to loopgate's data directory (`$XDG_DATA_HOME/loopgate/plugin`, else
//!    `~/.local/share/loopgate/plugin`), with `claude plugin marketplace add` and `claude plugin install
//!    loopgate@loopgate`; **unless a loopgate plugin is already installed** (from a clone, another marketplace,
//!    any scope): then that one's hooks are used. The hooks come from exactly one place, the plugin, so they are
//!    never registered twice, and the bare commands work whether or not install installed the plugin;
//! 2. writes `/pua-loop`, `/cancel-loop` and `/loop-status` as user-level commands (`$CLAUDE_CONFIG_DIR/commands`,
//!    else `~/.claude/commands`) that call this binary by its absolute path (see `bundle`). A file of that name
//!    without install's marker line is the user's own: it is never overwritten or removed — install keeps it,
//!    says so on stderr (the namespaced command still works) and still exits 0;
//! 3. records whether it installed the plugin in `install.json` beside the plugin copy.
//!
//! Running install again changes nothing unless something is missing or out of date (a moved binary, a newer
//! plugin: then the plugin is reinstalled, since Claude Code 2.1.197 caches a plugin by its version).
//! `uninstall` removes the command files that carry the marker, and the plugin and marketplace only if install
//! added them.

mod agents;
mod bundle;
mod claude;
mod codex_trust;
mod manifest;
pub mod sandbox;

use std::path::{Path, PathBuf};

use crate::cli::InstallArgs;
use crate::error::Error;
use crate::exit_codes;

pub(crate) use agents::ready;
pub(crate) use bundle::{COMMANDS, PLUGIN, user_command};

use bundle::{MARKETPLACE, PLUGIN_ID};
use claude::Claude;
use manifest::Manifest;

/// Where install writes (the control plane, `plane::ROWS`, holds these too).
pub(crate) struct Places {
    /// loopgate's data directory: the plugin copy and the manifest.
    pub(crate) data: PathBuf,
    /// Claude Code's user-level command directory.
    pub(crate) commands: PathBuf,
    /// Claude Code's user settings file (for `--sandbox`).
    pub(crate) settings: PathBuf,
}

impl Places {
    pub(crate) fn from_env() -> Result<Self, Error> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = || {
            var("HOME").ok_or_else(|| Error::Usage("failed to find the home directory: `HOME` is not set".to_string()))
        };
        // The plane's own answer, so the guard protects exactly the place install writes.
        let data = match crate::plane::data_dir() {
            Some(dir) => dir,
            None => home()?.join(".local/share/loopgate"),
        };
        let config = match crate::project::claude_config_dir() {
            Some(dir) => dir,
            None => home()?.join(".claude"),
        };
        Ok(Self {
            data,
            commands: config.join("commands"),
            settings: config.join("settings.json"),
        })
    }

    fn plugin(&self) -> PathBuf {
        self.data.join("plugin")
    }

    fn manifest(&self) -> PathBuf {
        self.data.join("install.json")
    }

    pub(crate) fn command(&self, name: &str) -> PathBuf {
        self.commands.join(format!("{name}.md"))
    }
}

/// `loopgate install`.
pub(crate) fn install(args: &InstallArgs) -> Result<u8, Error> {
    if args.purge {
        return Err(Error::Usage(
            "`--purge` is a flag of `loopgate uninstall`: `loopgate install` removes nothing".into(),
        ));
    }
    if args.agent != crate::cli::Agent::Claude {
        if args.sandbox {
            return Err(Error::Usage(format!(
                "`--sandbox` turns on Claude Code's sandbox; it has no meaning with `--agent {}`",
                args.agent.name()
            )));
        }
        agents::install(args.agent, &this_binary()?)?;
        return Ok(exit_codes::OK);
    }
    let places = Places::from_env()?;
    let binary = this_binary()?;
    let claude = Claude::find(args.claude.as_deref())?;
    let old = manifest::load(&places.manifest())?;
    let mut record = old.clone().unwrap_or_default();
    record.version = <crate::cli::Cli as clap::CommandFactory>::command()
        .get_version()
        .unwrap_or_default()
        .to_string();
    record.binary = PathBuf::from(&binary);

    install_plugin(&claude, &places, &mut record)?;
    for name in COMMANDS {
        install_command(&places, name, &binary)?;
    }
    if args.sandbox {
        let prior = sandbox::apply(&places.settings, &crate::project::loopgate_home())?;
        // The first install's view of the settings is what uninstall restores; a later one sees loopgate's own.
        if record.sandbox.is_none() && !prior.changes_nothing() {
            record.sandbox = Some(prior);
        }
    }
    if old.as_ref() != Some(&record) {
        manifest::save(&places.manifest(), &record)?;
    }
    crate::say(
        "loopgate: ready. In Claude Code (a new session): /pua-loop \"task\" --verify 'cmd' · /loop-status · /cancel-loop",
    );
    Ok(exit_codes::OK)
}

/// `loopgate uninstall`.
pub(crate) fn uninstall(args: &InstallArgs) -> Result<u8, Error> {
    if args.sandbox {
        return Err(Error::Usage(
            "`--sandbox` is a flag of `loopgate install`; `loopgate uninstall` already puts back the sandbox settings install changed"
                .into(),
        ));
    }
    if args.agent != crate::cli::Agent::Claude {
        agents::uninstall(args.agent)?;
        if args.purge {
            purge()?;
        } else {
            crate::say(crate::messages::agents::what_stays(&crate::project::loopgate_home()));
        }
        return Ok(exit_codes::OK);
    }
    let places = Places::from_env()?;
    let record = manifest::load(&places.manifest())?.unwrap_or_default();
    let mut removed = 0;
    if let Some(prior) = &record.sandbox {
        match sandbox::unapply(&places.settings, &crate::project::loopgate_home(), prior) {
            Ok(line) => crate::say(line),
            Err(why) => crate::say(format!(
                "loopgate: left Claude Code's sandbox settings as they are: {why}; `loopgate install --sandbox` had turned on `sandbox.enabled` and set `sandbox.allowUnsandboxedCommands` to false — change them back by hand if you want"
            )),
        }
        removed += 1;
    }
    for name in COMMANDS {
        let path = places.command(name);
        match std::fs::read_to_string(&path) {
            Ok(text) if bundle::is_ours(&text) => {
                std::fs::remove_file(&path).map_err(|source| Error::Io {
                    action: "remove",
                    path: path.clone(),
                    source,
                })?;
                removed += 1;
                crate::say(format!("loopgate: removed /{name} ({})", path.display()));
            }
            Ok(_) => crate::say(format!(
                "loopgate: kept `{}`: it is your own file, not one `loopgate install` wrote",
                path.display()
            )),
            Err(_) => {}
        }
    }
    if record.plugin_installed {
        let claude = Claude::find(args.claude.as_deref())?;
        if claude.installed_loopgate()?.iter().any(|id| id == PLUGIN_ID) {
            claude.uninstall_plugin(PLUGIN_ID)?;
            crate::say(format!("loopgate: uninstalled the plugin {PLUGIN_ID}"));
        }
        if claude.has_marketplace(MARKETPLACE)? {
            claude.remove_marketplace(MARKETPLACE)?;
        }
        removed += 1;
    }
    for path in [places.plugin(), places.manifest()] {
        let gone = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match gone {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(Error::Io {
                    action: "remove",
                    path,
                    source,
                });
            }
        }
    }
    // Only if empty: the seal store or anything else may live beside it; and the directories install made for
    // it, where nothing else is in them (`~/.local/share`, `~/.claude/commands`).
    let made = if std::env::var_os("XDG_DATA_HOME").is_some() {
        1
    } else {
        3
    };
    for dir in places
        .data
        .ancestors()
        .take(made)
        .chain(places.commands.ancestors().take(1))
    {
        if std::env::var_os("HOME").is_some_and(|home| Path::new(&home) == dir) {
            break;
        }
        let _ = std::fs::remove_dir(dir);
    }
    if removed == 0 {
        crate::say("loopgate: nothing to remove (`loopgate install` has not run here, or it was undone)");
    }
    if args.purge {
        purge()?;
    } else {
        crate::say(crate::messages::agents::what_stays(&crate::project::loopgate_home()));
    }
    Ok(exit_codes::OK)
}

/// `uninstall --purge`: loopgate's store goes too. Refused where the store is `/`, `$HOME` or above it (a
/// `LOOPGATE_HOME` set to such a place holds more than loopgate's).
fn purge() -> Result<(), Error> {
    let store = crate::project::loopgate_home();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if store.parent().is_none() || home.as_deref().is_some_and(|home| home.starts_with(&store)) {
        return Err(Error::Usage(format!(
            "refusing to purge `{}`: it is not a directory of loopgate's own; set `LOOPGATE_HOME` to loopgate's store, or remove it by hand",
            store.display()
        )));
    }
    match std::fs::remove_dir_all(&store) {
        Ok(()) => crate::say(format!("loopgate: removed loopgate's store `{}`", store.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(Error::Io {
                action: "remove",
                path: store,
                source,
            });
        }
    }
    Ok(())
}

/// Installs the plugin unless a loopgate plugin is there; refreshes the one install installed.
fn install_plugin(claude: &Claude, places: &Places, record: &mut Manifest) -> Result<(), Error> {
    let installed = claude.installed_loopgate()?;
    let ours = record.plugin_installed && installed.iter().any(|id| id == PLUGIN_ID);
    if let Some(other) = installed.first().filter(|_| !ours) {
        record.plugin_installed = false;
        crate::say(format!(
            "loopgate: the plugin {other} is already installed; its hooks are used (not registered twice)"
        ));
        return Ok(());
    }
    let changed = write_plugin(&places.plugin(), &record.binary)?;
    if ours && !changed {
        crate::say(format!("loopgate: the plugin {PLUGIN_ID} is installed and up to date"));
        return Ok(());
    }
    if ours {
        // Claude Code 2.1.197 caches a plugin by its version: reinstall to pick up the changed files.
        claude.uninstall_plugin(PLUGIN_ID)?;
    }
    claude.add_marketplace(&places.plugin())?;
    claude.install_plugin(PLUGIN_ID)?;
    record.plugin_installed = true;
    crate::say(format!(
        "loopgate: installed the plugin {PLUGIN_ID} (hooks, /loopgate:* commands, skill) from {}",
        places.plugin().display()
    ));
    Ok(())
}

/// Writes the embedded plugin files where they differ, and `hooks/loopgate.bin`: the path of this binary, which
/// `hooks/loopgate.sh` runs directly (for an npm install, the platform package's binary rather than the Node
/// launcher on `PATH`, which would add Node's start-up to every hook). Whether anything changed.
fn write_plugin(dir: &Path, binary: &Path) -> Result<bool, Error> {
    let recorded = format!("{}\n", binary.display());
    let files = PLUGIN
        .iter()
        .map(|file| (file.path, file.text, file.executable))
        .chain([(bundle::RECORDED_BINARY, recorded.as_str(), false)]);
    let mut changed = false;
    for (rel, text, executable) in files {
        let path = dir.join(rel);
        if std::fs::read(&path).is_ok_and(|bytes| bytes == text.as_bytes()) {
            continue;
        }
        let mode = if executable { 0o755 } else { 0o644 };
        write_file(&path, text, mode)?;
        changed = true;
    }
    Ok(changed)
}

/// Writes one user-level command, unless a file of the user's own is there.
fn install_command(places: &Places, name: &str, binary: &str) -> Result<(), Error> {
    let path = places.command(name);
    let Some(text) = user_command(name, binary) else {
        return Ok(());
    };
    let found = match std::fs::read_to_string(&path) {
        Ok(found) => Some(found),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        // Unreadable or not UTF-8: not something install wrote.
        Err(_) => Some(String::new()),
    };
    match found {
        Some(found) if found == text => {}
        Some(found) if !bundle::is_ours(&found) => {
            eprintln!(
                "loopgate: kept your own `{}`: /{name} runs it, not loopgate (use /loopgate:{name}, or move the file away and run `loopgate install` again)",
                path.display()
            );
        }
        found => {
            write_file(&path, &text, 0o644)?;
            let verb = if found.is_some() { "updated" } else { "added" };
            crate::say(format!("loopgate: {verb} /{name} ({})", path.display()));
        }
    }
    Ok(())
}

/// Writes a file atomically, creating its directory.
fn write_file(path: &Path, text: &str, mode: u32) -> Result<(), Error> {
    let io = |source| Error::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    crate::fsutil::write_atomic(path, text.as_bytes(), mode).map_err(io)
}

/// The absolute path of this binary, checked to be quotable in a command.
fn this_binary() -> Result<String, Error> {
    let exe = std::env::current_exe().map_err(|source| Error::Io {
        action: "find the running binary",
        path: PathBuf::from("/proc/self/exe"),
        source,
    })?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let text = exe.to_string_lossy().into_owned();
    bundle::check_path(&text).map_err(Error::Usage)?;
    Ok(text)
}
