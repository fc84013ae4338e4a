//! The whole pipeline: parse, check, compile and run (20,000 steps at most) a ruleset (the input)
//! with a small encounter, on the interpreter's own stack; a run error renders and points inside
//! the files.
#![no_main]

use libfuzzer_sys::fuzz_target;
use turnscript::trace::NullSink;
use turnscript::{Project, RunOptions};

const CAST: &str = "encounter \"fuzz\"\ncharacter Ana { }\ncharacter Bo { }\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let project = Project::load([("r.turn", text), ("e.turn", CAST)]);
    let Ok(program) = project.compile() else {
        return;
    };
    let opts = RunOptions {
        max_steps: 20_000,
        ..RunOptions::default()
    };
    let Ok(mut prepared) = opts.prepare(&program) else {
        return;
    };
    let result = turnscript::runtime::on_run_stack(|| {
        turnscript::runtime::run(&program, &prepared.config, &mut prepared.decider, &mut NullSink)
    });
    if let Err(d) = result {
        let _ = project.render(std::slice::from_ref(&d), turnscript::Style::default());
    }
});
