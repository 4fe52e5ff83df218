//! The `postal` binary: the command line ([`postal::cli::main`]).

fn main() -> std::process::ExitCode {
    postal::cli::main()
}
