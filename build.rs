//! Generates the lean read of the grammar (`syntax::parser::lean`): the parser pest_derive makes
//! of `grammar/turnscript.pest`, run on a parser state of the crate's own that keeps no record of
//! what it tried (a parse that fails is read again by the plain parser, for its syntax error).

use std::env;
use std::fs;
use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=grammar/turnscript.pest");
    println!("cargo::rerun-if-changed=build.rs");
    let input: proc_macro2::TokenStream = "#[derive(Parser)] #[grammar = \"grammar/turnscript.pest\"] struct Lean;"
        .parse()
        .expect("the derive input is Rust");
    let code = pest_generator::derive_parser(input, false).to_string();
    let at = code
        .find("impl :: pest :: Parser")
        .expect("pest_generator writes the parser's impl after the rules' enum");
    let code = code[at..]
        .replace(":: pest :: ParserState", "crate :: syntax :: parser :: lean :: State")
        .replace(":: pest :: state (", "crate :: syntax :: parser :: lean :: state (");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lean.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
