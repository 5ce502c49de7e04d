//! The Claude Code CLI, as `loopgate install` uses it: list the installed plugins, add or remove a marketplace,
//! install or uninstall a plugin (`claude plugin …`). Each call runs with stdin from `/dev/null` and fails with
//! the command line and the CLI's own last line of output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use crate::error::Error;

/// A Claude Code CLI to call.
pub(crate) struct Claude {
    bin: PathBuf,
}

#[derive(Deserialize)]
struct InstalledPlugin {
    id: String,
}

#[derive(Deserialize)]
struct Marketplace {
    name: String,
}

impl Claude {
    /// `flag` if given, else `claude` on `PATH`.
    pub(crate) fn find(flag: Option<&Path>) -> Result<Self, Error> {
        let bin = match flag {
            Some(path) => path.to_path_buf(),
            None => std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .map(|dir| dir.join("claude"))
                .find(|path| path.is_file())
                .ok_or_else(|| Error::Tool {
                    command: "claude".to_string(),
                    problem: "it is not on PATH; install Claude Code first, or pass `--claude PATH`".to_string(),
                })?,
        };
        Ok(Self { bin })
    }

    /// The ids of the installed plugins named `loopgate`, in any marketplace and scope.
    pub(crate) fn installed_loopgate(&self) -> Result<Vec<String>, Error> {
        let json = self.run(&["plugin", "list", "--json"])?;
        let plugins: Vec<InstalledPlugin> = serde_json::from_str(&json).map_err(|e| {
            self.failed(
                &["plugin", "list", "--json"],
                &format!("its output is not the expected JSON list ({e})"),
            )
        })?;
        Ok(plugins
            .into_iter()
            .map(|p| p.id)
            .filter(|id| id.split('@').next() == Some("loopgate"))
            .collect())
    }

    /// Whether a marketplace of this name is configured.
    pub(crate) fn has_marketplace(&self, name: &str) -> Result<bool, Error> {
        let args = ["plugin", "marketplace", "list", "--json"];
        let json = self.run(&args)?;
        let list: Vec<Marketplace> = serde_json::from_str(&json)
            .map_err(|e| self.failed(&args, &format!("its output is not the expected JSON list ({e})")))?;
        Ok(list.iter().any(|m| m.name == name))
    }

    /// `claude plugin marketplace add DIR`.
    pub(crate) fn add_marketplace(&self, dir: &Path) -> Result<(), Error> {
        let dir = dir.to_string_lossy();
        self.run(&["plugin", "marketplace", "add", &dir]).map(drop)
    }

    /// `claude plugin marketplace remove NAME`.
    pub(crate) fn remove_marketplace(&self, name: &str) -> Result<(), Error> {
        self.run(&["plugin", "marketplace", "remove", name]).map(drop)
    }

    /// `claude plugin install ID` (user scope).
    pub(crate) fn install_plugin(&self, id: &str) -> Result<(), Error> {
        self.run(&["plugin", "install", id]).map(drop)
    }

    /// `claude plugin uninstall ID`.
    pub(crate) fn uninstall_plugin(&self, id: &str) -> Result<(), Error> {
        self.run(&["plugin", "uninstall", id]).map(drop)
    }

    fn run(&self, args: &[&str]) -> Result<String, Error> {
        let output = Command::new(&self.bin)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.failed(args, &format!("{e}; install Claude Code, or pass `--claude PATH`")))?;
        if output.status.success() {
            return Ok(String::from_utf8_lossy(&output.stdout).into_owned());
        }
        let text = format!(
            "{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let last = text
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .unwrap_or("no output");
        let code = output
            .status
            .code()
            .map_or_else(|| "a signal".to_string(), |c| c.to_string());
        Err(self.failed(args, &format!("it exited with {code}: {last}")))
    }

    fn failed(&self, args: &[&str], problem: &str) -> Error {
        Error::Tool {
            command: format!("{} {}", self.bin.display(), args.join(" ")),
            problem: problem.to_string(),
        }
    }
}
