//! How the guard reads the PHP interpreter's command line (`guard::code`): `php -r CODE`, `-f FILE`.

use super::{Flags, Interpreter};

pub(super) const INTERPRETER: Interpreter = Interpreter {
    is: |name| name == "php",
    flags: Flags {
        code: "r",
        long: &[],
        value: "dcz",
        stop: "f",
    },
};
