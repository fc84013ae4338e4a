//! Guards over the source itself, for classes of bugs that a test of behaviour would only catch
//! one instance at a time.

use std::path::Path;

/// The lines of the `.rs` files under `dir` that hold a rest pattern (`..` closing a struct or
/// tuple pattern), outside comments.
fn rest_patterns(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder is there")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim();
            let rest = code == ".."
                || code.contains(", ..}")
                || code.contains(", .. }")
                || code.contains("{ .. }")
                || code.contains(", ..)")
                || code.contains("(..)");
            if rest {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

/// Issue 24: `option action unless C` passed the checker and was then dropped. Lowering takes
/// every AST node apart exhaustively, naming each field it leaves (`span: _`), so a field added
/// to the AST is a compile error in the compiler until it is lowered or knowingly left.
#[test]
fn lowering_takes_every_ast_node_apart_exhaustively() {
    let found = rest_patterns(Path::new("src/compile"));
    assert!(
        found.is_empty(),
        "rest patterns (`..`) in the compiler; name every field instead:\n{}",
        found.join("\n")
    );
}

/// The guard finds what it guards against.
#[test]
fn the_rest_pattern_guard_finds_a_rest_pattern() {
    let dir = std::env::temp_dir().join(format!("turnscript-guard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(
        dir.join("a.rs"),
        "fn f(s: &S) {\n    let S { a, .. } = s; // a rest\n    let r = 0..n; // a range, not a rest\n}\n",
    )
    .expect("written");
    let found = rest_patterns(&dir);
    std::fs::remove_dir_all(&dir).expect("removed");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(":2: let S { a, .. } = s; // a rest"), "{found:?}");
}

/// Every field written in a statement's target is in the parsed target, in order: a target of
/// an owner in parentheses followed by two fields once lost the first (`(e).held.uses` was
/// `(e).uses`). One case per shape of owner (a variable, a name, a quoted name, parentheses)
/// and per number of fields.
#[test]
fn a_target_keeps_every_field_written() {
    let owners = ["c", "Ana", "\"Big Bob\"", "(first x in characters)"];
    let chains: [&[&str]; 3] = [&["fa"], &["fb", "fc"], &["fd", "fe", "ff"]];
    for owner in owners {
        for chain in chains {
            let target = format!("{owner}.{}", chain.join("."));
            let src = format!("play {{ spend 1 {target} }}\n");
            let file = turnscript::syntax::parse(&src, 0).unwrap_or_else(|_| panic!("`{target}` parses"));
            let tree = format!("{:?}", file.items);
            let mut at = 0;
            for f in chain {
                let needle = format!("\"{f}\"");
                match tree[at..].find(&needle) {
                    Some(i) => at += i + needle.len(),
                    None => panic!("`{target}`: the field `{f}` is missing or out of order in\n{tree}"),
                }
            }
        }
    }
}
