//! go test in the closure (`closure::derive`): `go test` and `go vet` run the packages' tests.

use super::{Deriver, Lang, Runner, Simple};

/// The closure's rule for go (`closure::derive::PROGRAMS`): whether `cmd` runs its tests.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    if cmd.name != "go" || !cmd.rest.iter().any(|w| w == "test" || w == "vet") {
        return false;
    }
    d.plan.ecosystems.insert(Lang::Go);
    d.plan.runners.insert(Runner::Go);
    true
}
