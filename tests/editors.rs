//! The editor support in `editors/` agrees with the language: the tree-sitter grammar's keyword
//! list is the formatter's (`format::lex::KEYWORDS`), so a new keyword is highlighted in Neovim
//! and Helix as it is in VS Code. (The grammar itself is generated and tested with the tree-sitter
//! CLI by `editors/tree-sitter-turnscript/test/run`, which `.ci/run` runs.)

use std::collections::BTreeSet;

/// The quoted words of the JavaScript array `const NAME = [ ... ];` in `src`.
fn js_list(src: &str, name: &str) -> BTreeSet<String> {
    let start = src
        .find(&format!("const {name} = ["))
        .unwrap_or_else(|| panic!("no `const {name}` in grammar.js"));
    let rest = &src[start..];
    let end = rest.find("];").expect("the array ends");
    rest[..end].split('\'').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn the_tree_sitter_grammar_knows_every_keyword() {
    let grammar = std::fs::read_to_string("editors/tree-sitter-turnscript/grammar.js").expect("grammar.js");
    let mut listed = js_list(&grammar, "KEYWORDS");
    // `true`, `false` and `none` are nodes of their own (boolean, none).
    for own in ["true", "false", "none"] {
        assert!(grammar.contains(&format!("'{own}'")), "grammar.js has no '{own}'");
        listed.insert(own.to_string());
    }
    let keywords: BTreeSet<String> = turnscript::format::lex::KEYWORDS
        .iter()
        .map(|k| k.to_string())
        .collect();
    let missing: Vec<&String> = keywords.difference(&listed).collect();
    let extra: Vec<&String> = listed.difference(&keywords).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "editors/tree-sitter-turnscript/grammar.js KEYWORDS: missing {missing:?}, not keywords {extra:?}"
    );
    for list in ["DECLARING", "BINDING"] {
        let words = js_list(&grammar, list);
        let stray: Vec<&String> = words.difference(&keywords).collect();
        assert!(stray.is_empty(), "{list} in grammar.js: not keywords {stray:?}");
    }
}
