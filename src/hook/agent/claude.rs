//! Claude Code: loopgate's hooks speak its format natively, so this adapter changes nothing.

use super::Adapter;
use crate::cli::HookEvent;
use crate::hook::HookOutput;

pub(super) struct Claude;

impl Adapter for Claude {
    fn write(&self, _event: &HookEvent, output: HookOutput) -> String {
        output.to_json()
    }

    /// Claude Code's own cap (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`), which loopgate stays ahead of.
    fn block_cap(&self) -> (Option<u64>, bool) {
        (crate::stop::block_cap::cap_from_env(), false)
    }
}
