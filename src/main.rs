//! The binary: the command line, with the REPL, the language server and the browser table
//! handed in (no front end imports another).

use turnscript::{cli, lsp, repl, serve};

fn main() {
    std::process::exit(cli::main(cli::FrontEnds {
        repl: |a: cli::ReplArgs| {
            repl::main(repl::Options {
                ruleset: a.ruleset,
                encounter: a.encounter,
                seed: a.seed,
                autosave: a.autosave,
                colour: a.colour,
                width: 0,
            })
        },
        lsp: lsp::main,
        serve: |a: cli::ServeArgs| {
            serve::main(serve::ServeOptions {
                table: turnscript::table::Options {
                    ruleset: a.ruleset,
                    encounter: a.encounter,
                    seed: a.seed,
                    autosave: a.autosave,
                    colour: Some(false),
                    width: 0,
                },
                host: a.host,
                port: a.port,
            })
        },
    }));
}
