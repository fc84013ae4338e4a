//! The policy fast path of `choose` (`src/runtime/policy_path.rs`, issue 31) against the general
//! path: every bundled ruleset with its encounter, under its default policy, `first` and
//! `random`, over several seeds, run once by a plain policy (the fast path wherever it applies)
//! and once by the same policy behind a decider that does not say it is one (the general path
//! everywhere). The traces must be the same bytes, and the runs end alike, at the same step (a
//! budget of 20,000 steps stops the longer ones).
//!
//! The general runs also set aside what the compiler fixed for the run loop
//! (`src/compile/fixed.rs`): no rank table (the policy walks its preferences), no fixed cost, an
//! action's moments and a turn's edges visited as if they could have work. So the fast runs
//! prove the tables too.

mod common;

use common::{bundled, read_bundled, run_traced};
use turnscript::Project;
use turnscript::compile::ir::Who;
use turnscript::compile::{Fixed, PolicyRef};
use turnscript::runtime::decide::{Decider, DecisionPoint, Policy};
use turnscript::trace::{DecidedBy, World};

const SEEDS: [u64; 3] = [0, 7, 2024];

/// The step budget of each run.
const MAX_STEPS: u64 = 20_000;

/// The same policy, without `policy_only`: the runtime takes its general path at every decision.
struct General(Policy);

impl Decider for General {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), turnscript::Diag> {
        self.0.decide(w, d)
    }

    fn policy(&self, chooser: Who) -> Option<PolicyRef> {
        self.0.policy(chooser)
    }
}

/// The trace (JSON lines) and how the run ended (its outcome, or the error's code and message).
fn run(ruleset: &str, encounter: &str, policy: PolicyRef, seed: u64, fast: bool) -> (String, String) {
    let project = Project::load([(ruleset, read_bundled(ruleset)), (encounter, read_bundled(encounter))]);
    let mut program = project.compile().expect("the bundled files compile");
    if !fast {
        program.fixed = unfixed(&program);
    }
    // Long enough for thousands of decisions, short enough for a debug build; a run stopped by
    // the budget must stop at the same step both ways.
    let (trace, ended) = run_traced(&program, seed, MAX_STEPS, |config, sink| {
        if fast {
            let mut decider = Policy::new(policy, seed);
            turnscript::runtime::run(&program, config, &mut decider, sink)
        } else {
            let mut decider = General(Policy::new(policy, seed));
            turnscript::runtime::run(&program, config, &mut decider, sink)
        }
    });
    let ended = match ended {
        Ok(outcome) => format!("{outcome:?}"),
        Err(d) => format!("{}: {}", d.code, d.message),
    };
    (trace, ended)
}

/// Nothing fixed: every policy walks its preferences, every cost is worked out, every action's
/// moments and every turn's edges are visited.
fn unfixed(program: &turnscript::compile::Program) -> Fixed {
    Fixed {
        edges: vec![true; program.actions.len()],
        turn_edges: true,
        ..Fixed::default()
    }
}

#[test]
fn the_fast_path_traces_what_the_general_path_traces() {
    let cases = bundled();
    assert!(cases.len() >= 15, "the bundled rulesets are found: {cases:?}");
    let mut decisions = 0;
    for (ruleset, encounter) in &cases {
        let program = Project::load([(ruleset.as_str(), read_bundled(ruleset))])
            .compile()
            .expect("the bundled ruleset compiles");
        let mut policies = vec![PolicyRef::First, PolicyRef::Random];
        policies.extend(program.default_policy);
        for policy in policies {
            for seed in SEEDS {
                let (fast, fast_end) = run(ruleset, encounter, policy, seed, true);
                let (general, general_end) = run(ruleset, encounter, policy, seed, false);
                let what = format!("{encounter} under {policy:?}, seed {seed}");
                assert_eq!(fast_end, general_end, "{what}: the runs end alike");
                if fast != general {
                    let at = fast.lines().zip(general.lines()).position(|(a, b)| a != b);
                    panic!("{what}: the traces part at line {at:?}");
                }
                decisions += fast.matches(r#""event":"decision""#).count();
            }
        }
    }
    // The comparison is not empty: the runs make decisions, which is where the paths differ.
    assert!(decisions > 1000, "{decisions} decisions compared");
}
