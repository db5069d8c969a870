//! The `tensorchess` binary: the command line of [`tensorchess::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    tensorchess::cli::main()
}
