// Pools and routines that give: `roll DICE as p` and `remove FACE from p` work a value out once,
// now, like `let`, so a routine that gives may be called in their dice and face (found
// exploring issue 26: both were `check::call_here`).

use crate::common::run_texts;
use turnscript::project::{RunOptions, parse_answers};

fn ok(src: &str, rolls: &[i64]) -> Vec<String> {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, parse_answers("", "answers"), &opts, false);
    assert_eq!(code, 0, "{err}\n{out}");
    out.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn a_pool_s_count_and_a_removed_face_may_be_given_by_a_routine() {
    let src = "resource hits\nstat wits default 2\n\
        routine dice_for(c) gives number { gain 1 c.hits\n give c.wits + 1 }\n\
        routine worst() gives number { give d[1,2] }\n\
        play {\n\
          roll (dice_for(Ana))d6 as p\n\
          remove worst() from p\n\
          gain p.size Ana.hits\n\
          gain sum f in p: f Ana.hits\n\
        }\n\
        character Ana { }\n";
    assert_eq!(
        ok(src, &[5, 2, 6, 2]),
        vec![
            "gain     Ana   hits       +1 → 1",
            "roll           roll       3d6 [5 2 6] = 13",
            "roll           roll       d[1,2] [2] = 2",
            "gain     Ana   hits       +2 → 3",
            "gain     Ana   hits       +11 → 14",
            "end of encounter: complete",
            "final    Ana   hits = 14, wits = 2",
        ]
    );
}

#[test]
fn a_routine_that_ends_the_encounter_in_a_pool_s_count_rolls_no_pool() {
    let src = "resource hits\n\
        routine n() gives number { gain 1 Ana.hits\n end encounter because \"done\" }\n\
        play {\n\
          roll (n())d6 as p\n\
          gain p.size Ana.hits\n\
        }\n\
        character Ana { }\n";
    assert_eq!(
        ok(src, &[]),
        vec![
            "gain     Ana   hits       +1 → 1",
            "end of encounter: done",
            "final    Ana   hits = 1",
        ]
    );
}

#[test]
fn a_walk_over_a_pool_still_may_not_call_a_routine_in_its_where() {
    let src = "resource hits\nroutine r() gives number { give 3 }\n\
        play { roll 3d6 as p\n for each f in p where f > r() { gain 1 Ana.hits } }\n\
        character Ana { }\n";
    let (report, clean) = crate::common::check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(!clean);
    assert!(report.contains("check::call_here"), "{report}");
}
