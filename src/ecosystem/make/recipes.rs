//! The files GNU make reads, as the reader of the files that name commands (`recipes`) knows them.

/// The names GNU make looks for without `-f`, in its order: it reads the first that exists.
pub(crate) const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// A Makefile's targets, which `make TARGET` runs (`recipes::TASKS`).
pub(crate) const MAKE_TASKS: super::Tasks = super::Tasks {
    files: &MAKEFILES,
    shown: "Makefile",
    program: "make",
    names: super::make_targets,
    recipes: false,
};
