//! How the guard reads the Python interpreter's command line (`guard::code`): `python -c CODE`, `-m MODULE`.

use super::{Flags, Interpreter};

pub(super) const INTERPRETER: Interpreter = Interpreter {
    is: |name| name.starts_with("python") || name.starts_with("pypy"),
    flags: Flags {
        code: "c",
        long: &[],
        value: "WXQ",
        stop: "m",
    },
};
