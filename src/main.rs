//! The binary: the command line, with the REPL and the language server handed in (no front end
//! imports another).

use turnscript::{cli, lsp, repl};

fn main() {
    std::process::exit(cli::main(
        |a| {
            repl::main(repl::Options {
                ruleset: a.ruleset,
                encounter: a.encounter,
                seed: a.seed,
                autosave: a.autosave,
                colour: a.colour,
                width: 0,
            })
        },
        lsp::main,
    ));
}
