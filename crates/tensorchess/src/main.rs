use std::process::ExitCode;

fn main() -> ExitCode {
    tensorchess::cli::main()
}
