//! Parse and check: a ruleset (the input) with a small encounter; every diagnostic renders and
//! points inside the files.
#![no_main]

use libfuzzer_sys::fuzz_target;
use turnscript::Project;

const CAST: &str = "encounter \"fuzz\"\ncharacter Ana { }\ncharacter Bo { }\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let project = Project::load([("r.turn", text), ("e.turn", CAST)]);
    if let Err(diags) = project.compile() {
        let _ = project.render(&diags, turnscript::Style::default());
        for d in &diags {
            for (span, _) in &d.labels {
                let len = project.sources().text(span.file).len();
                assert!(span.start <= span.end && span.end as usize <= len, "{}: a span outside its file", d.code);
            }
        }
    }
});
