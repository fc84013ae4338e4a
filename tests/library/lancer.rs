//! 7. Lancer: the scenarios of systems.md section 7.

use super::{Scenario, play, story, v};

pub(crate) const LANCER: &str = "rulesets/library/lancer.turn";

/// Every turn ends at once unless the scenario says otherwise; no one reacts unless told.
const QUIET: &str = "policy scenario { act: end_turn  reaction: pass }\ndefault policy scenario\n";

/// Who picked whom: `players opener Bex`, `gm hostile G1`, `Bex nominate Ash`, and refusals.
fn picks(run: &crate::common::Run) -> Vec<String> {
    story(run, &["round_start", "decision", "refused"])
        .into_iter()
        .filter(|l| {
            l.starts_with("round")
                || ["opener", "nominate", "hostile"]
                    .iter()
                    .any(|d| l.contains(&format!(" {d} ")))
        })
        .collect()
}

#[test]
fn lancer_7_1_alternation_with_balanced_sides() {
    let run = play(
        LANCER,
        Scenario {
            encounter: &format!(
                "character Ash {{ side pcs }}\ncharacter Bex {{ side pcs }}\ncharacter Cole {{ side pcs }}\n\
                 character G1 {{ side hostiles }}\ncharacter G2 {{ side hostiles }}\n{QUIET}"
            ),
            answers: "round 1, players, opener: Bex\n\
                round 1, gm, hostile: G1\n\
                round 1, Bex, nominate: Bex\n\
                round 1, Bex, nominate: Ash\n\
                round 1, gm, hostile: G2\n\
                round 1, Ash, nominate: Cole\n\
                round 2, players, opener: Cole\n\
                round 2, gm, hostile: G2\n\
                round 2, Cole, nominate: Ash\n\
                round 2, gm, hostile: G1\n\
                round 2, Ash, nominate: Bex\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    assert_eq!(
        run.rounds(),
        vec![
            v(&["Bex", "G1", "Ash", "G2", "Cole"]),
            v(&["Cole", "G2", "Ash", "G1", "Bex"])
        ]
    );
    assert_eq!(
        picks(&run),
        v(&[
            "round 1",
            "decision players opener Bex",
            "decision gm hostile G1",
            // after G1, Bex nominating Bex is rejected: Bex has already acted this round
            "refused Bex nominate Bex: Bex has already acted this round",
            "decision Bex nominate Ash",
            "decision gm hostile G2",
            "decision Ash nominate Cole",
            "round 2",
            "decision players opener Cole",
            "decision gm hostile G2",
            "decision Cole nominate Ash",
            "decision gm hostile G1",
            "decision Ash nominate Bex",
        ])
    );
}

#[test]
fn lancer_7_2_hostiles_outnumber_players() {
    let run = play(
        LANCER,
        Scenario {
            encounter: &format!(
                "character Ash {{ side pcs }}\ncharacter Bex {{ side pcs }}\n\
                 character G1 {{ side hostiles }}\ncharacter G2 {{ side hostiles }}\n\
                 character G3 {{ side hostiles }}\ncharacter G4 {{ side hostiles }}\n{QUIET}"
            ),
            answers: "round 1, players, opener: Ash\n\
                round 1, gm, hostile: G3\n\
                round 1, Ash, nominate: Bex\n\
                round 1, gm, hostile: G1\n\
                round 1, gm, hostile: G4\n\
                round 1, gm, hostile: G2\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    let rounds = run.rounds();
    assert_eq!(rounds[0], v(&["Ash", "G3", "Bex", "G1", "G4", "G2"]));
    // the player side is exhausted after Bex: the GM orders the rest, one after another
    let round_1: Vec<String> = picks(&run).into_iter().take(7).collect();
    assert_eq!(
        round_1,
        v(&[
            "round 1",
            "decision players opener Ash",
            "decision gm hostile G3",
            "decision Ash nominate Bex",
            "decision gm hostile G1",
            "decision gm hostile G4",
            "decision gm hostile G2",
        ])
    );
    // round 2 starts with a player-side character, chosen by the players, not a hostile
    assert_eq!(picks(&run)[7..9], v(&["round 2", "decision players opener Ash"])[..]);
    assert!(["Ash", "Bex"].contains(&rounds[1][0].as_str()));
    assert_eq!(rounds[1].len(), 6, "every character again has one turn");
}

#[test]
fn lancer_7_3_reaction_limits() {
    let run = play(
        LANCER,
        Scenario {
            encounter: &format!(
                "character Ash {{ side pcs }}\ncharacter Bex {{ side pcs }}\n\
                 character G1 {{ side hostiles }}\ncharacter G2 {{ side hostiles }}\n\
                 reaction Overwatch {{ owner = Ash }}\n\
                 reaction \"Kinetic Shield\" {{ owner = Ash, on_attack = true }}\n{QUIET}"
            ),
            answers: "round 1, players, opener: Ash\n\
                round 1, gm, hostile: G1\n\
                round 1, G1, act: Move\n\
                round 1, Ash, reaction: Overwatch\n\
                round 1, G1, act: Skirmish\n\
                round 1, G1, target: Ash\n\
                round 1, Ash, reaction: \"Kinetic Shield\"\n\
                round 1, Ash, reaction: pass\n\
                round 1, Ash, nominate: Bex\n\
                round 1, gm, hostile: G2\n\
                round 1, G2, act: Skirmish\n\
                round 1, G2, target: Ash\n\
                round 1, Ash, reaction: \"Kinetic Shield\"\n\
                round 1, G2, act: Move\n\
                round 1, Ash, reaction: Overwatch\n\
                round 1, Ash, reaction: pass\n\
                round 2, players, opener: Bex\n\
                round 2, gm, hostile: G2\n\
                round 2, G2, act: Move\n\
                round 2, Ash, reaction: Overwatch\n\
                round 2, Bex, nominate: Ash\n\
                round 2, gm, hostile: G1\n",
            until: "round=2",
            ..Scenario::default()
        },
    );
    assert_eq!(
        run.rounds(),
        vec![v(&["Ash", "G1", "Bex", "G2"]), v(&["Bex", "G2", "Ash", "G1"])]
    );
    // the hostiles' turns and Ash's reactions in them, declining (`pass`) left out
    let reactions: Vec<String> = story(&run, &["round_start", "turn_start", "decision", "refused"])
        .into_iter()
        .filter(|l| l.starts_with("round") || l.starts_with("turn G") || l.contains(" reaction "))
        .filter(|l| !l.ends_with("reaction pass"))
        .collect();
    assert_eq!(
        reactions,
        v(&[
            "round 1",
            "turn G1",
            // G1 moves into Ash's threat: Overwatch is allowed
            "decision Ash reaction Overwatch",
            // G1 attacks Ash: Kinetic Shield is rejected, Ash has already reacted this turn
            "refused Ash reaction Kinetic Shield: Ash has already reacted this turn",
            "turn G2",
            // G2 attacks Ash: Kinetic Shield is allowed
            "decision Ash reaction Kinetic Shield",
            // G2 moves inside Ash's threat: Overwatch is rejected, used this round and reacted
            "refused Ash reaction Overwatch: Overwatch is 1/round and was used this round; Ash has already reacted this turn",
            "round 2",
            "turn G2",
            // a new round: Overwatch is allowed again
            "decision Ash reaction Overwatch",
            "turn G1",
        ])
    );
    assert_eq!(run.of("reaction_start").len(), 3, "three reactions taken, all by Ash");
}
