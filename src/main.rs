fn main() -> std::process::ExitCode {
    postal::cli::main()
}
