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
    // The read gives the lean queue of pairs (`lean::Queue`), which the AST builder reads as it
    // is (`syntax::parser::node`), not pest's `Pairs`.
    let header = "impl :: pest :: Parser < Rule > for Lean { fn parse < 'i > (rule : Rule , input : & 'i str) -> \
                  :: std :: result :: Result < :: pest :: iterators :: Pairs < 'i , Rule > , :: pest :: error :: Error < Rule > >";
    let code = &code[at..];
    let code = code
        .strip_prefix(header)
        .expect("pest_generator writes the parser's impl as it did when this was written");
    let code = format!(
        "impl Lean {{ pub(in crate::syntax::parser) fn parse (rule : Rule , input : & str) \
         -> Option < crate :: syntax :: parser :: lean :: Queue > {code}"
    );
    let code = code
        .replace(":: pest :: ParserState", "crate :: syntax :: parser :: lean :: State")
        .replace(":: pest :: state (", "crate :: syntax :: parser :: lean :: state (");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lean.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
