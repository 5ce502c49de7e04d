//! A passing verify held to the runs before it, on its test results rather than its exit code: by name against
//! the baseline run (`baseline`: every test that ran at setup ran again and passed), and by count against the
//! best this loop has seen (`ratchet`: no fewer tests ran, no more were skipped). Both are pure: the oracle runs
//! the command, loads and saves (`oracle::compare`); what the test files say is `testsig` / `testseal`, and how
//! the oracle's run sees them `testswap`.

pub mod baseline;
pub(crate) mod ratchet;
