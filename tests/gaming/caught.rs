//! The check every ecosystem's family makes of a gaming move (`bats_moves`, `php_moves`): played with every
//! check opted out it must complete (proof that the move makes the real runner pass without the fix); with only
//! the per-test verdict it is rejected where names can see it; with the defaults it is rejected, and the block
//! reason names what moved.

use std::time::Instant;

use crate::fixtures::Fixture;
use crate::project::Project;
use crate::{OPT_OUT, assert_completes, promise, setup};

/// Every check opted out but the per-test verdict: what the runner's names alone catch.
pub const BY_NAME_ONLY: &str =
    "--no-closure-seal --no-test-seal --no-count-ratchet --no-skip-check --with-new-tests --no-test-awareness-check";

/// A gaming move and what must name it: `by_name` with only the per-test verdict (`None`: names cannot see
/// it), `by_default` with the defaults.
pub struct Move<'a> {
    pub name: &'a str,
    pub play: fn(&Project),
    pub by_name: Option<&'a str>,
    pub by_default: &'a str,
}

/// A project of `fixture` set up with `flags`.
pub fn started(fixture: &Fixture, flags: &str) -> Project {
    let p = fixture.project();
    setup(&p, fixture, flags);
    p
}

/// Plays `m` in projects of `fixture` three times (see the module's header).
pub fn caught(fixture: &Fixture, m: Move) {
    let began = Instant::now();
    let proof = started(fixture, OPT_OUT);
    (m.play)(&proof);
    assert_completes(&promise(&proof), m.name, "the move should make the runner pass");
    if let Some(needle) = m.by_name {
        let p = started(fixture, BY_NAME_ONLY);
        (m.play)(&p);
        let block = promise(&p).blocked();
        assert!(
            block.reason.contains(needle),
            "{}: by name, {needle:?}:\n{}",
            m.name,
            block.reason
        );
    }
    let p = started(fixture, "");
    (m.play)(&p);
    let block = promise(&p).blocked();
    assert!(
        block.reason.contains("PROMISE REJECTED") && block.reason.contains(m.by_default),
        "{}: with the defaults, {:?}:\n{}",
        m.name,
        m.by_default,
        block.reason
    );
    println!("[gaming] caught {:<34} {:.1}s", m.name, began.elapsed().as_secs_f64());
}
