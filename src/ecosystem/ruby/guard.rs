//! How the guard reads the Ruby interpreter's command line (`guard::shell`): as perl's, `ruby -e CODE`, `ruby -pi`.

use super::PerlLike;

pub(super) const PERL_LIKE: PerlLike = PerlLike {
    name: "ruby",
    code: "e",
    value: "IrCEFxW0T",
};
