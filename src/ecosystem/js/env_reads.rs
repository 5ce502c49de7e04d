//! How JavaScript and TypeScript test code reads the environment (`testsig::env_reads`): `process.env.X`,
//! `process.env['X']`, `'X' in process.env`, `const { X } = process.env`, Vite's `import.meta.env.X` and Deno's
//! `Deno.env.get('X')`; template literals are read as code. The environment taken out of its holder under another
//! name (`const { env } = import.meta`, `process['env']`) is read whole.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    maps: &[&["process", "env"], &["meta", "env"], &["Deno", "env"], &["Bun", "env"]],
    methods: &["get", "has", "hasOwnProperty"],
    writes: &["set", "delete"],
    members: true,
    membership: Some("in"),
    destructures: true,
    holders: &[
        (&["import", "meta"], "env"),
        (&["process"], "env"),
        (&["Deno"], "env"),
        (&["Bun"], "env"),
    ],
    interpolates: &["${"],
    ..Reads::none(Lang::JavaScript)
};
