//! The compiled run loop (`src/runtime/code/`, issue 31) against the tree walk it replaces
//! (`runtime::run_walked`): every bundled ruleset with its encounter, under its default policy,
//! `first` and `random`, over several seeds, and rulesets that fail at run time (division by
//! zero, `none`, overflow, the step budget) in the statements and expressions that are compiled.
//! The traces must be the same bytes, and the runs end alike: the same outcome (steps included),
//! or the same diagnostic (code, message, labels and help).

mod common;

use common::{bundled, read_bundled, run_traced};
use turnscript::compile::PolicyRef;
use turnscript::runtime::decide::Policy;
use turnscript::{Program, Project};

const SEEDS: [u64; 4] = [0, 1, 7, 2024];

/// The step budget of each bundled run: long enough for thousands of decisions, short enough
/// for a debug build; a run stopped by it must stop at the same step both ways.
const MAX_STEPS: u64 = 20_000;

/// The trace (JSON lines) and how the run ended (its outcome, or the whole diagnostic), run
/// compiled or walked.
fn run(program: &Program, policy: PolicyRef, seed: u64, max_steps: u64, compiled: bool) -> (String, String) {
    let mut decider = Policy::new(policy, seed);
    let (trace, ended) = run_traced(program, seed, max_steps, |config, sink| {
        if compiled {
            turnscript::runtime::run(program, config, &mut decider, sink)
        } else {
            turnscript::runtime::run_walked(program, config, &mut decider, sink)
        }
    });
    let ended = match ended {
        Ok(outcome) => format!("{outcome:?}"),
        Err(d) => format!("{d:?}"),
    };
    (trace, ended)
}

/// Runs `program` both ways and says where they part, if they do; gives the compiled run.
fn compare(program: &Program, what: &str, policy: PolicyRef, seed: u64, max_steps: u64) -> (String, String) {
    let (compiled, compiled_end) = run(program, policy, seed, max_steps, true);
    let (walked, walked_end) = run(program, policy, seed, max_steps, false);
    assert_eq!(compiled_end, walked_end, "{what}: the runs end alike");
    if compiled != walked {
        let at = compiled.lines().zip(walked.lines()).position(|(a, b)| a != b);
        panic!("{what}: the traces part at line {at:?}");
    }
    (compiled, compiled_end)
}

#[test]
fn the_compiled_run_loop_traces_what_the_walk_traces() {
    let cases = bundled();
    assert!(cases.len() >= 15, "the bundled rulesets are found: {cases:?}");
    let mut events = 0;
    for (ruleset, encounter) in &cases {
        let program = Project::load([
            (ruleset.as_str(), read_bundled(ruleset)),
            (encounter.as_str(), read_bundled(encounter)),
        ])
        .compile()
        .expect("the bundled files compile");
        let mut policies = vec![PolicyRef::First, PolicyRef::Random];
        policies.extend(program.default_policy);
        for policy in policies {
            for seed in SEEDS {
                let what = format!("{encounter} under {policy:?}, seed {seed}");
                let (trace, _) = compare(&program, &what, policy, seed, MAX_STEPS);
                events += trace.lines().count();
            }
        }
    }
    // The comparison is not empty.
    assert!(events > 50_000, "{events} events compared");
}

/// A ruleset written here, run both ways to its end; gives the compiled run's end.
fn ends(src: &str, max_steps: u64) -> String {
    let program = Project::load([("t.turn", src.to_string())])
        .compile()
        .expect("the ruleset compiles");
    compare(&program, src, PolicyRef::First, 3, max_steps).1
}

#[test]
fn a_run_that_fails_in_compiled_code_fails_with_the_walks_diagnostic() {
    let cases = [
        // Division by zero in an `if`'s condition, and in a `let`.
        (
            "global k default 0\nplay { for each c in characters { if c.hp / k > 0 { end encounter } } }\nresource hp\ncharacter Ana { hp = 2 }\n",
            "run::division_by_zero",
        ),
        (
            "global k default 0\nplay { let x = 3 / k  set k = x }\ncharacter Ana { }\n",
            "run::division_by_zero",
        ),
        // A field of `none`, read in a compiled condition.
        (
            "stat foe: character\nresource hp\nplay { for each c in characters { if c.foe.hp > 0 { end encounter } } }\ncharacter Ana { foe = none }\n",
            "run::none",
        ),
        // Past 64 bits, in a `let`.
        (
            "global k default 4611686018427387904\nplay { let x = k + k  set k = x }\ncharacter Ana { }\n",
            "run::overflow",
        ),
        // The step budget, spent inside a quantifier in a condition.
        (
            "global k default 0\nplay { repeat { if any c in characters where c.hp >= 0: c.hp < 5 and k >= 0 { set k = k + 1 } } }\nresource hp\ncharacter Ana { }\ncharacter Bo { }\n",
            "run::step_budget",
        ),
    ];
    for (src, code) in cases {
        let end = ends(src, 500);
        assert!(end.contains(code), "{src}: {end}");
    }
}

#[test]
fn compiled_conditions_and_lets_give_the_walks_values() {
    // Every operator, `not`, `if ... then ... else`, params that are numbers and those that roll,
    // and the folding quantifiers with filters and bodies, each written into the trace.
    let src = "param two = 2\nparam die = d6\nresource hp\nstat speed\nglobal k default 0\n\
               play {\n  for each c in characters {\n\
               let a = c.hp * two - c.speed\n  let b = if a > 3 then a / two else a - die\n\
               if not (a == b) and (a != 1 or b <= 0) and a < 100 and b >= -100 { gain 1 c.hp }\n\
               let n = count x in characters where x.speed > c.speed\n\
               let s = sum x in characters where x != c: x.hp + x.speed\n\
               let h = max x in characters: x.hp\n  let l = min x in characters: x.speed\n\
               if all x in characters: x.hp >= 0 { set k = k + n + s + h + l + a + b }\n  }\n}\n\
               character Ana { hp = 3  speed = 2 }\ncharacter Bo { hp = 5  speed = 1 }\ncharacter Cy { hp = 1  speed = 4 }\n";
    let end = ends(src, 10_000);
    assert!(end.contains("Complete"), "{end}");
}

#[test]
fn a_choose_with_its_options_listed_offers_and_performs_what_the_walk_does() {
    // `choose` compiled with its options listed (`policy_path.rs`, `Listed`): actions of some
    // kinds, paid from another resource (`using`), an action with a `when` and one with a cost
    // that is not fixed among them, named options alone, chosen by a character and by a role.
    // Every policy, several seeds.
    let src = "resource pool min 0\nresource spare min 0\nstat speed\nrole table\n\
               action lunge(c) kind quick costs 2 pool\n\
               action brace(c) kind slow costs c.speed pool\n\
               action feint(c) kind quick costs 1 pool when c.speed > 1\n\
               action wait(c) kind slow\n\
               policy keen {\n  act: feint, lunge, brace, hold\n  pace: slow\n}\n\
               play {\n  for each c in characters { reset c.pool to 3 + c.speed  reset c.spare to 2 }\n\
               repeat while any c in characters: c.pool > 0 {\n\
               for each c in characters where c.pool > 0 {\n\
               choose pace by c { option fast  option slow { spend 1 c.pool } }\n\
               choose act by c {\n  option action of kind quick\n  option action of kind slow using spare\n\
               option hold { spend all c.pool }\n  }\n  }\n\
               choose round_end by table { option go_on  option stop { end encounter } }\n  }\n}\n\
               character Ana { speed = 2 }\ncharacter Bo { speed = 1 }\ncharacter Cy { speed = 3 }\n";
    let program = Project::load([("t.turn", src.to_string())])
        .compile()
        .expect("the ruleset compiles");
    let policies = [
        PolicyRef::First,
        PolicyRef::Random,
        program.policy("keen").expect("declared"),
    ];
    let mut decisions = 0;
    for policy in policies {
        for seed in SEEDS {
            let (trace, end) = compare(&program, "listed options", policy, seed, 5_000);
            assert!(
                end.contains("Complete") || end.contains("Ended"),
                "{policy:?}, {seed}: {end}"
            );
            decisions += trace.lines().filter(|l| l.contains("\"decision\"")).count();
        }
    }
    assert!(decisions > 100, "{decisions} decisions compared");
}
