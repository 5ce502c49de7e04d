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

/// The profile: allow by default, deny writing the plane, then allow its carve-outs again (a later rule wins);
/// for [`Plane::only`], deny every write but the carve-outs and the devices.
pub(super) fn profile(plane: &Plane) -> String {
    let denied = if plane.is_only() {
        String::new()
    } else {
        filters(plane.paths())
    };
    let mut allowed = filters(plane.writable());
    if plane.is_only() {
        allowed.push_str(" (subpath \"/dev\")");
    }
    let mut profile = String::from("(version 1)\n(allow default)\n");
    if plane.is_only() || !denied.is_empty() {
        profile.push_str(&format!("(deny file-write*{denied})\n"));
    }
    if !allowed.is_empty() {
        profile.push_str(&format!("(allow file-write*{allowed})\n"));
    }
    profile
}

/// ` (subpath "/a") (literal "/b/f")`: a directory and all below it, a file by its own path.
fn filters(paths: &[std::path::PathBuf]) -> String {
    let mut rules = String::new();
    for path in paths {
        let text = path.to_string_lossy().replace('\\', "\\\\").replace('"', "\\\"");
        let filter = if path.is_dir() { "subpath" } else { "literal" };
        rules.push_str(&format!(" ({filter} \"{text}\")"));
    }
    rules
}

pub(super) fn command<A: AsRef<OsStr>>(plane: &Plane, program: &OsStr, args: &[A]) -> Command {
    let mut command = Command::new(SANDBOX_EXEC);
    command.arg("-p").arg(profile(plane)).arg(program).args(args);
    command
}
