//! The parser alone: any text gives a file or diagnostics whose spans lie inside it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(diags) = turnscript::syntax::parse(text, 0) {
        for d in &diags {
            for (span, _) in &d.labels {
                assert!(span.start <= span.end && span.end as usize <= text.len(), "{}: a span outside the text", d.code);
            }
        }
    }
});
