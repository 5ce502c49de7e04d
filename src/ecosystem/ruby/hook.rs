//! Ruby's start hook (`room::hook`): `report.rb` beside this file, loaded by every Ruby process of a run
//! (`RUBYOPT=-r…`: a `rake test` runs its tests in a child `ruby`), records minitest's and RSpec's per-test
//! events, which are also where their tests are named (`room::hook::add_named`). It finds the events file from
//! where it stands (`room::hook::PLACE` is two directories up).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook, in the room.
const FILE: &str = "hook/ruby/loopgate_report.rb";
const REPORT: &str = include_str!("report.rb");

pub(super) struct Hook;

impl super::StartHook for Hook {
    /// `RUBYOPT`'s `-r` of the hook is put back at ruby's start (`room::hook::complete`), so a makefile's
    /// `export RUBYOPT = -W0` replaces only the user's words.
    fn completes(&self) -> Option<super::Completed> {
        Some(super::Completed {
            var: "RUBYOPT",
            program: Some("ruby"),
            binaries: &["ruby"],
            ours: |word| word.starts_with("-r") && word.ends_with(&format!("/{FILE}")),
        })
    }

    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, FILE, REPORT, false)
    }

    /// Last in `RUBYOPT`, which is split at spaces with no quoting: a room whose path holds one is left out.
    fn set(&self, room: &Path, vars: &mut BTreeMap<String, OsString>) {
        let hook = room.join(FILE).into_os_string();
        if !hook.to_string_lossy().contains(char::is_whitespace) {
            let mut word = OsString::from("-r");
            word.push(hook);
            super::push_word(vars, "RUBYOPT", word);
        }
    }
}
