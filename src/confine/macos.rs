//! Seatbelt on macOS: `sandbox-exec -p PROFILE program args…`, with a profile that allows everything and then
//! denies writes to the plane (a directory and all below it, a file by its own path). Seatbelt has deny rules, so
//! no directory above the plane is closed to new entries as on Linux. Seatbelt judges paths: a hard link made
//! before the loop started is not covered.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use super::Protection;
use crate::plane::Plane;

const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

pub(super) fn probe() -> Protection {
    if Path::new(SANDBOX_EXEC).exists() {
        Protection::Seatbelt
    } else {
        Protection::Unprotected {
            why: format!("`{SANDBOX_EXEC}` is missing"),
        }
    }
}

/// The profile: allow by default, deny writing the plane.
pub(super) fn profile(plane: &Plane) -> String {
    let mut rules = String::new();
    for path in plane.paths() {
        let text = path.to_string_lossy().replace('\\', "\\\\").replace('"', "\\\"");
        let filter = if path.is_dir() { "subpath" } else { "literal" };
        rules.push_str(&format!(" ({filter} \"{text}\")"));
    }
    format!("(version 1)\n(allow default)\n(deny file-write*{rules})\n")
}

pub(super) fn command<A: AsRef<OsStr>>(plane: &Plane, program: &OsStr, args: &[A]) -> Command {
    let mut command = Command::new(SANDBOX_EXEC);
    command.arg("-p").arg(profile(plane)).arg(program).args(args);
    command
}
