fn main() {
    std::process::exit(turnscript::cli::main());
}
