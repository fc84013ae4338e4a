//! Tests of the JSON view's writing: strings and integers.

use super::*;

fn quoted(s: &str) -> String {
    let mut w = Vec::new();
    write_json_str(&mut w, s).expect("into memory");
    String::from_utf8(w).expect("UTF-8")
}

/// Every byte written as serde_json writes it, wherever it stands in the string (the fast path
/// copies a string that needs no backslash whole; the slow path starts at the first byte that
/// does).
#[test]
fn strings_are_written_as_serde_json_writes_them() {
    for b in 0u8..128 {
        let c = char::from(b);
        for s in [
            c.to_string(),
            format!("ab{c}"),
            format!("{c}cd"),
            format!("a{c}b{c}{c}é"),
        ] {
            let want = serde_json::to_string(&s).expect("serde_json");
            assert_eq!(quoted(&s), want, "byte {b:#04x}");
        }
    }
    for s in ["", "Kobold 1", "Ünïcødé ✓", "tab\there", "\u{7f}\u{80}"] {
        assert_eq!(quoted(s), serde_json::to_string(s).expect("serde_json"));
    }
}

/// Integers at the edges of both halves of the digit loop (64-bit and 128-bit division), and
/// around the one and two digits written without it.
#[test]
fn integers_are_written_as_rust_displays_them() {
    let edges: [i128; 12] = [
        0,
        -1,
        9,
        10,
        i64::MIN as i128,
        i64::MAX as i128,
        u64::MAX as i128,
        u64::MAX as i128 + 1,
        -(u64::MAX as i128) - 1,
        i128::MAX,
        i128::MIN,
        1_000_000_000_000_000_000_000,
    ];
    for v in edges.into_iter().chain(-101..=1001) {
        let mut w = Vec::new();
        int(&mut w, v).expect("into memory");
        assert_eq!(String::from_utf8(w).expect("UTF-8"), v.to_string());
    }
}
