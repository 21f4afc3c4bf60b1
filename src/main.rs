fn main() -> std::process::ExitCode {
    muster::cli::main()
}
