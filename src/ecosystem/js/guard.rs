//! How the guard reads a JavaScript runtime's command line (`guard::code`): `node -e CODE`, `--eval`, `--print`.

use super::{Flags, Interpreter};

pub(super) const INTERPRETER: Interpreter = Interpreter {
    is: |name| matches!(name, "node" | "nodejs" | "bun" | "deno"),
    flags: Flags {
        code: "ep",
        long: &["--eval", "--print"],
        value: "r",
        stop: "",
    },
};
