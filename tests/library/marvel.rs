//! 8. Marvel Heroic Roleplaying, elective action order: the scenarios of systems.md section 8.

use super::{Scenario, play, story, v};
use crate::common::Run;

pub(crate) const MARVEL: &str = "rulesets/library/marvel.turn";

/// The cast of every scenario: three heroes, Ock and a mob of Goons (one character). Every
/// action is `other`; the scenarios script who goes next.
const CAST: &str = "character Cap    { side heroes }\n\
    character Spidey { side heroes }\n\
    character Wolvie { side heroes }\n\
    character Ock    { side villains }\n\
    character Goons  { side villains }\n\
    policy scenario { act: other }\n\
    default policy scenario\n";

/// The picks of who goes next (and the refused ones), round by round.
fn picks(run: &Run) -> Vec<String> {
    story(run, &["round_start", "decision", "refused"])
        .into_iter()
        .filter(|l| l.starts_with("round") || l.contains(" next ") || l.contains(" opener "))
        .collect()
}

#[test]
fn marvel_8_1_choosing_who_goes_next_and_the_last_actor_picking_itself() {
    let run = play(
        MARVEL,
        Scenario {
            encounter: CAST,
            answers: "round 1, players, opener: Cap\n\
                round 1, Cap, next: Cap\n\
                round 1, Cap, next: Spidey\n\
                round 1, Spidey, next: Ock\n\
                round 1, watcher, next: Goons\n\
                round 1, watcher, next: Wolvie\n\
                round 1, Wolvie, next: Wolvie\n\
                round 2, Wolvie, next: Ock\n\
                round 2, watcher, next: Goons\n\
                round 2, watcher, next: Ock\n\
                round 2, watcher, next: Cap\n\
                round 2, Cap, next: Spidey\n\
                round 2, Spidey, next: Goons\n",
            until: "round=3",
            ..Scenario::default()
        },
    );
    let rounds = run.rounds();
    assert_eq!(rounds[0], v(&["Cap", "Spidey", "Ock", "Goons", "Wolvie"]));
    assert_eq!(rounds[1], v(&["Wolvie", "Ock", "Goons", "Cap", "Spidey"]));
    // Wolvie acts twice in a row across the boundary; round 3 starts with Goons
    assert_eq!(run.turns()[4..6], v(&["Wolvie", "Wolvie"])[..]);
    assert_eq!(rounds[2][0], "Goons");
    assert_eq!(
        picks(&run)[..15],
        v(&[
            "round 1",
            "decision players opener Cap",
            // Cap picking Cap is rejected: he has already acted
            "refused Cap next Cap: Cap has already acted this round",
            "decision Cap next Spidey",
            "decision Spidey next Ock",
            // after a Watcher character, the Watcher picks
            "decision watcher next Goons",
            "decision watcher next Wolvie",
            // the last actor picks from everyone, itself included
            "decision Wolvie next Wolvie",
            "round 2",
            "decision Wolvie next Ock",
            "decision watcher next Goons",
            // Goons picking Ock is rejected: Ock has already acted this round
            "refused watcher next Ock: Ock has already acted this round",
            "decision watcher next Cap",
            "decision Cap next Spidey",
            "decision Spidey next Goons",
        ])[..]
    );
}

#[test]
fn marvel_8_2_villains_bunch_up_at_the_round_boundary() {
    let run = play(
        MARVEL,
        Scenario {
            encounter: CAST,
            answers: "round 1, players, opener: Cap\n\
                round 1, Cap, next: Spidey\n\
                round 1, Spidey, next: Wolvie\n\
                round 1, Wolvie, next: Ock\n\
                round 1, watcher, next: Goons\n\
                round 1, watcher, next: Ock\n\
                round 2, watcher, next: Goons\n\
                round 2, watcher, next: Cap\n\
                round 2, Cap, next: Wolvie\n\
                round 2, Wolvie, next: Spidey\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    assert_eq!(
        run.rounds(),
        vec![
            v(&["Cap", "Spidey", "Wolvie", "Ock", "Goons"]),
            v(&["Ock", "Goons", "Cap", "Wolvie", "Spidey"]),
        ]
    );
    // four Watcher actions in a row: Ock, Goons (end of round 1), Ock, Goons (start of round 2)
    assert_eq!(run.turns()[3..7], v(&["Ock", "Goons", "Ock", "Goons"])[..]);
    assert!(story(&run, &["refused"]).is_empty());
}

#[test]
fn marvel_8_3_the_doom_pool_buys_the_first_action_and_a_flagged_interrupt() {
    let run = play(
        MARVEL,
        Scenario {
            encounter: &format!("{CAST}global doom_d6 default 2\nglobal doom_d8 default 1\n"),
            answers: "start of round 1, Ock: go_first\n\
                round 1, watcher, doom_die: d8\n\
                round 1, watcher, next: Cap\n\
                round 1, Cap, next: Goons\n\
                round 1, watcher, next: Spidey\n\
                round 1, Spidey, next: Wolvie\n\
                round 1, Wolvie, next: Wolvie\n\
                round 2, Wolvie, next: Cap\n\
                round 2, before Cap, Goons: interrupt\n\
                round 2, watcher, doom_die: d6\n\
                round 2, Cap, next: Ock\n\
                round 2, before Ock, Goons: interrupt\n\
                round 2, watcher, next: Spidey\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let rounds = run.rounds();
    assert_eq!(rounds[0], v(&["Ock", "Cap", "Goons", "Spidey", "Wolvie"]));
    assert_eq!(rounds[1], v(&["Wolvie", "Goons", "Cap", "Ock", "Spidey"]));
    // no opener asked of the heroes: the doom pool bought Ock the first action
    assert!(picks(&run).iter().all(|l| !l.contains("opener")));
    let doom: Vec<String> = story(
        &run,
        &["round_start", "attempt", "attempt_refused", "decision", "spend"],
    )
    .into_iter()
    .filter(|l| l.starts_with("round") || l.starts_with("refused") || l.contains("attempt") || l.contains("doom"))
    .collect();
    assert_eq!(
        doom,
        v(&[
            "round 1",
            "attempt Ock go_first",
            "decision watcher doom_die d8",
            "spend doom_d8 1 0", // the pool: {d6, d6}
            "round 2",
            "attempt Goons interrupt",
            "decision watcher doom_die d6",
            "spend doom_d6 1 1", // the pool: {d6}
            "refused Goons interrupt: Goons has already acted this round",
        ])
    );
    for round in &rounds {
        let mut acted = round.clone();
        acted.sort();
        assert_eq!(
            acted,
            v(&["Cap", "Goons", "Ock", "Spidey", "Wolvie"]),
            "each once a round"
        );
    }
}
