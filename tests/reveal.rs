//! Secrets held until the rules reveal them (`choose ... in secret until revealed`, `reveal`,
//! `as NAME`), flags cleared by several levels or by anyone's turn, `per turn` flags in
//! reactions, and durations that last until an edge (`begin ... until end of next turn(x)`):
//! each rule through a small ruleset with scripted answers, asserting the exact trace.

mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;
use turnscript::project::parse_answers;

/// Runs one file (ruleset and cast) with forced rolls and answers, one a line.
fn run(src: &str, rolls: &[i64], answers: &str, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    run_texts(&files, parse_answers(answers, "answers"), &opts, jsonl)
}

/// The text trace without its first line.
fn lines(out: &str) -> Vec<&str> {
    out.lines().skip(1).collect()
}

/// The codes of the diagnostics a file gets from the checker.
fn codes(src: &str) -> Vec<String> {
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(!clean, "expected errors");
    let mut out: Vec<String> = report
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("check::"))
        .map(str::to_string)
        .collect();
    out.dedup();
    out
}

// ------------------------------------------------------------------ family 6: held secrets

/// Maneuver dials: everyone sets a dial in secret in the planning phase; each dial is revealed
/// at its ship's activation, a phase later, in activation order (by pilot skill, not by the
/// order the dials were set).
const DIALS: &str = "ruleset \"dials\"\n\
stat skill default 0\nstat speed default 0\nflag stressed\n\
order by_skill(s) { s.skill desc }\n\
play {\n  round repeat {\n    phase planning {\n      together for each s in characters {\n\
        choose dial by s in secret until revealed {\n\
          option red unless s.stressed because \"{s} is stressed\" { set s.speed = 5 }\n\
          option bank { set s.speed = 1 }\n          option straight { set s.speed = 3 }\n\
        }\n      }\n    }\n    phase activation {\n      for each s in characters by by_skill {\n\
        turn s { reveal dial of s }\n      }\n    }\n    if round.number == 2 { end encounter }\n  }\n}\n\
character Luke { skill = 2, stressed = true }\ncharacter Wedge { skill = 5 }\n";

#[test]
fn a_dial_set_in_planning_is_revealed_at_its_ships_activation_a_phase_later() {
    let (out, err, code) = run(DIALS, &[], "red\nbank\nstraight\nstraight\nred\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  planning",
            "    together Luke, Wedge",
            // The table sees that each set a dial, not what (nor that Luke tried red).
            "      secret   Luke   dial       chosen in secret",
            "      secret   Wedge  dial       chosen in secret",
            "  activation",
            "    order           Wedge, Luke",
            "    ▸ Wedge",
            "      choose   Wedge  dial       straight of red|bank|straight",
            "      set      Wedge  speed      = 3",
            "    ▸ Luke",
            "      refused  Luke   dial       red: Luke is stressed",
            "      choose   Luke   dial       bank     of bank|straight",
            "      set      Luke   speed      = 1",
            "round 2",
            "  planning",
            "    together Luke, Wedge",
            "      secret   Luke   dial       chosen in secret",
            "      secret   Wedge  dial       chosen in secret",
            "  activation",
            "    order           Wedge, Luke",
            "    ▸ Wedge",
            "      choose   Wedge  dial       red      of red|bank|straight",
            "      set      Wedge  speed      = 5",
            "    ▸ Luke",
            "      choose   Luke   dial       straight of bank|straight",
            "      set      Luke   speed      = 3",
            "end of encounter: ended",
            "final    Luke   skill = 2, speed = 3, stressed = 1",
            "final    Wedge  skill = 5, speed = 5, stressed = 0",
        ]
    );
}

/// Scripted volleys: three actions scripted in setup, one revealed per volley.
const VOLLEYS: &str = "ruleset \"volleys\"\nresource hp min 0\nresource ammo min 0\n\
setup {\n  for each c in characters {\n\
    choose script by c in secret until revealed { option fire { spend 1 c.hp } option dodge { } option reload { gain 1 c.ammo } }\n\
    choose script by c in secret until revealed { option fire { spend 1 c.hp } option dodge { } option reload { gain 1 c.ammo } }\n\
    choose script by c in secret until revealed { option fire { spend 1 c.hp } option dodge { } option reload { gain 1 c.ammo } }\n\
  }\n}\n\
play {\n  round volley repeat {\n    for each c in characters { turn c { reveal script of c } }\n\
    if volley.number == 2 { end encounter }\n  }\n}\n\
character Ana { hp = 5, ammo = 0 }\ncharacter Bo { hp = 5, ammo = 0 }\n";

#[test]
fn scripted_actions_are_revealed_one_per_volley_and_the_unplayed_never_shown() {
    // Ana scripts fire, dodge, reload; Bo dodge, fire, reload. The encounter ends after volley 2.
    let answers = "fire\ndodge\nreload\ndodge\nfire\nreload\n";
    let (out, err, code) = run(VOLLEYS, &[], answers, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "secret   Ana   script     chosen in secret",
            "secret   Ana   script     chosen in secret",
            "secret   Ana   script     chosen in secret",
            "secret   Bo    script     chosen in secret",
            "secret   Bo    script     chosen in secret",
            "secret   Bo    script     chosen in secret",
            "volley 1",
            "  ▸ Ana",
            "    choose   Ana   script     fire     of fire|dodge|reload",
            "    spend    Ana   hp         -1 → 4",
            "  ▸ Bo",
            "    choose   Bo    script     dodge    of fire|dodge|reload",
            "volley 2",
            "  ▸ Ana",
            "    choose   Ana   script     dodge    of fire|dodge|reload",
            "  ▸ Bo",
            "    choose   Bo    script     fire     of fire|dodge|reload",
            "    spend    Bo    hp         -1 → 4",
            "end of encounter: ended",
            // The third scripted action never ran: no ammo was gained.
            "final    Ana   hp = 4, ammo = 0",
            "final    Bo    hp = 4, ammo = 0",
        ]
    );
    // Never shown, in any output: no event picks `reload`, and no line names it as chosen.
    let (json, _, _) = run(VOLLEYS, &[], answers, true);
    assert!(!json.is_empty());
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_ne!(v["picked"], "reload", "{line}");
        if v["event"] == "final" {
            assert!(!line.contains("reload"), "{line}");
        }
    }
    assert!(
        !out.lines().any(|l| l.contains("reload") && !l.contains(" of ")),
        "{out}"
    );
    assert_eq!(
        out.matches("reload").count(),
        4,
        "only in the options offered at the reveals"
    );
}

#[test]
fn reveal_all_shows_every_held_choice_in_the_order_made_and_nothing_held_shows_nothing() {
    let src = VOLLEYS.replace("reveal script of c", "reveal all script of c\n reveal all script of c");
    let (out, err, code) = run(&src, &[], "fire\ndodge\nreload\ndodge\nfire\nreload\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[6..],
        [
            "volley 1",
            "  ▸ Ana",
            "    choose   Ana   script     fire     of fire|dodge|reload",
            "    spend    Ana   hp         -1 → 4",
            "    choose   Ana   script     dodge    of fire|dodge|reload",
            "    choose   Ana   script     reload   of fire|dodge|reload",
            "    gain     Ana   ammo       +1 → 1",
            "  ▸ Bo",
            "    choose   Bo    script     dodge    of fire|dodge|reload",
            "    choose   Bo    script     fire     of fire|dodge|reload",
            "    spend    Bo    hp         -1 → 4",
            "    choose   Bo    script     reload   of fire|dodge|reload",
            "    gain     Bo    ammo       +1 → 1",
            // Nothing is held any more: the second `reveal all` and volley 2 show nothing.
            "volley 2",
            "  ▸ Ana",
            "  ▸ Bo",
            "end of encounter: ended",
            "final    Ana   hp = 4, ammo = 1",
            "final    Bo    hp = 4, ammo = 1",
        ]
    );
}

#[test]
fn a_held_choice_runs_its_block_with_the_variables_as_they_were_when_chosen() {
    // `n` is 1 when the choice is made, 2 when it is revealed: the block sees 1.
    let src = "stat got default 0\nplay {\n  for each c in characters {\n    let n = 1\n\
        choose pick by c in secret until revealed { option keep { set c.got = n } }\n\
        let m = 2\n    set c.got = m\n    reveal pick of c\n  }\n}\ncharacter Ana { }\n";
    let (out, err, code) = run(src, &[], "keep\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "secret   Ana   pick       chosen in secret",
            "set      Ana   got        = 2",
            "choose   Ana   pick       keep     of keep",
            "set      Ana   got        = 1",
            "end of encounter: complete",
            "final    Ana   got = 1",
        ]
    );
}

/// "Two different cards": the second secret choice sees the first, through `as`.
const CARDS: &str = "ruleset \"cards\"\nthing card, cards { stat power default 0 }\nstat total default 0\n\
play {\n  together for each c in characters {\n\
    choose lay by c in secret until revealed from k in cards as first { set c.total = c.total + k.power }\n\
    choose lay by c in secret until revealed from k in cards unless k == first because \"{k} is played already\" {\n\
      set c.total = c.total + k.power\n    }\n  }\n\
  for each c in characters { reveal all lay of c }\n}\n\
card Ace { power = 3 }\ncard Two { power = 2 }\ncard Six { power = 6 }\ncharacter Ana { }\ncharacter Bo { }\n";

#[test]
fn a_later_secret_choice_sees_the_same_choosers_earlier_pick_and_shows_it_only_after() {
    let (out, err, code) = run(CARDS, &[], "Ace\nAce\nTwo\nSix\nSix\nAce\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "together Ana, Bo",
            "  secret   Ana   lay        chosen in secret",
            "  secret   Ana   lay        chosen in secret",
            "  secret   Bo    lay        chosen in secret",
            "  secret   Bo    lay        chosen in secret",
            "choose   Ana   lay        Ace      of Ace|Two|Six",
            "set      Ana   total      = 3",
            // Refused at the reveal of the second card, after the first was shown.
            "refused  Ana   lay        Ace: Ace is played already",
            "choose   Ana   lay        Two      of Two|Six",
            "set      Ana   total      = 5",
            "choose   Bo    lay        Six      of Ace|Two|Six",
            "set      Bo    total      = 6",
            "refused  Bo    lay        Six: Six is played already",
            "choose   Bo    lay        Ace      of Ace|Two",
            "set      Bo    total      = 9",
            "end of encounter: complete",
            "final    Ace   power = 3",
            "final    Two   power = 2",
            "final    Six   power = 6",
            "final    Ana   total = 5",
            "final    Bo    total = 9",
        ]
    );
}

#[test]
fn picks_revealed_at_the_end_of_their_walk_may_be_read_by_the_next_choice_of_the_walk() {
    // Both cards revealed when the walk ends, in the order played: the first before the second.
    let src = CARDS
        .replace(" until revealed", "")
        .replace("for each c in characters { reveal all lay of c }\n", "");
    let (out, err, code) = run(&src, &[], "Ace\nAce\nTwo\nSix\nSix\nAce\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out)[5..11],
        [
            "  choose   Ana   lay        Ace      of Ace|Two|Six",
            "  set      Ana   total      = 3",
            "  refused  Ana   lay        Ace: Ace is played already",
            "  choose   Ana   lay        Two      of Two|Six",
            "  set      Ana   total      = 5",
            "  choose   Bo    lay        Six      of Ace|Two|Six",
        ]
    );
    // A held pick read by a choice revealed when the walk ends would be shown before itself.
    let mixed = CARDS.replacen(" until revealed from k in cards unless", " from k in cards unless", 1);
    assert_eq!(codes(&mixed), vec!["check::secret_pick"]);
}

#[test]
fn a_choice_reading_an_earlier_pick_is_traced_as_made_even_when_nothing_could_be_chosen() {
    // One card only: the second pick has no candidate. Its `secret` event is traced all the same
    // (its absence would tell that the one card was taken), and its reveal shows nothing.
    let src = CARDS
        .replace("card Two { power = 2 }\ncard Six { power = 6 }\n", "")
        .replace(
            "unless k == first because \"{k} is played already\"",
            "where k != first",
        );
    let (out, err, code) = run(&src, &[], "Ace\nAce\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "together Ana, Bo",
            "  secret   Ana   lay        chosen in secret",
            "  secret   Ana   lay        chosen in secret",
            "  secret   Bo    lay        chosen in secret",
            "  secret   Bo    lay        chosen in secret",
            "choose   Ana   lay        Ace      of Ace",
            "set      Ana   total      = 3",
            "choose   Bo    lay        Ace      of Ace",
            "set      Bo    total      = 3",
            "end of encounter: complete",
            "final    Ace   power = 3",
            "final    Ana   total = 3",
            "final    Bo    total = 3",
        ]
    );
}

#[test]
fn a_held_choice_of_a_destroyed_chooser_is_never_shown_and_revealing_it_is_an_error() {
    let src = "thing drone, drones { stat speed default 0 }\nplay {\n\
        choose dial by D1 in secret until revealed { option fast { set D1.speed = 3 } option slow { } }\n\
        destroy D1\n  reveal dial of D1\n}\ndrone D1 { }\n";
    let (out, err, code) = run(src, &[], "fast\n", false);
    assert_ne!(code, 0);
    assert!(err.contains("run::destroyed"), "{err}");
    assert!(!out.contains("fast") && !err.contains("fast"), "{out}{err}");
}

#[test]
fn a_held_choice_of_a_character_out_of_play_is_revealed_all_the_same() {
    let src = "stat speed default 0\nplay {\n\
        choose dial by Ana in secret until revealed { option fast { set Ana.speed = 3 } option slow { } }\n\
        leave Ana\n  reveal dial of Ana\n}\ncharacter Ana { }\n";
    let (out, err, code) = run(src, &[], "fast\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "secret   Ana   dial       chosen in secret",
            "leaves   Ana",
            "choose   Ana   dial       fast     of fast|slow",
            "set      Ana   speed      = 3",
            "end of encounter: complete",
            "final    Ana   (out of play) speed = 3",
        ]
    );
}

#[test]
fn misuses_of_held_secrets_are_refused_by_the_checker() {
    let head = "thing card, cards { }\nstat n default 0\ncharacter Ana { }\ncard Ace { }\n";
    // A secret pick read where it could be shown: in the block, in another decision, by another
    // chooser, or outside any choice.
    for body in [
        "choose lay by c in secret until revealed from k in cards as first { }\n set c.n = 1\n if first == Ace { set c.n = 2 }",
        "choose lay by c in secret until revealed from k in cards as first { }\n choose other by c in secret until revealed from k in cards where k != first { }",
        "choose lay by c in secret until revealed from k in cards as first { }\n choose lay by Ana in secret until revealed from k in cards where k != first { }",
        "choose lay by c in secret until revealed from k in cards as first { }\n choose lay by c in secret from k in cards where k != first { }",
    ] {
        let src = format!("{head}play {{ together for each c in characters {{ {body} }} }}\n");
        assert_eq!(codes(&src), vec!["check::secret_pick"], "{src}");
    }
    // Revealing what is never held.
    let src = format!(
        "{head}play {{ together for each c in characters {{ choose d by c in secret {{ option a }} }} reveal d of Ana }}\n"
    );
    assert_eq!(codes(&src), vec!["check::reveal_unheld"]);
    // `until revealed` on a choice made with a secret pick.
    let src = format!(
        "{head}play {{ together for each c in characters {{ choose d by c in secret {{ option a {{ choose e by c in secret until revealed {{ option b }} }} }} }} }}\n"
    );
    assert_eq!(codes(&src), vec!["check::secret_nested"]);
    // A held block ending a level it is made in: it runs where it is revealed.
    let src = format!(
        "{head}play {{ round {{ choose d by Ana in secret until revealed {{ option a {{ end round }} }} }} }}\n"
    );
    assert_eq!(codes(&src), vec!["check::secret_end"]);
    // A choice reading a pick cannot roll to work out what it offers.
    let src = format!(
        "{head}play {{ choose lay by Ana in secret until revealed from k in cards as first {{ }}\n choose lay by Ana in secret until revealed from k in cards where k != first and d6 > 2 {{ }} }}\n"
    );
    assert_eq!(codes(&src), vec!["check::rolled"]);
    // Held outside a `together` walk is fine.
    let ok = format!("{head}play {{ choose d by Ana in secret until revealed {{ option a }} reveal d of Ana }}\n");
    let (report, clean) = check_texts(&[("t.turn".to_string(), ok)]);
    assert!(clean, "{report}");
}

#[test]
fn an_as_pick_made_openly_is_an_ordinary_variable() {
    let src = "stat foe: character\nplay { choose target by Ana from t in characters where t != Ana as picked { }\n set Ana.foe = picked }\n\
        character Ana { }\ncharacter Bo { }\n";
    let (out, err, code) = run(src, &[], "Bo\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "choose   Ana   target     Bo       of Bo",
            "set      Ana   foe        = Bo",
            "end of encounter: complete",
            "final    Ana   foe = Bo",
            "final    Bo    foe = none",
        ]
    );
}

// ------------------------------------------------------------------ family 8: flags, durations

#[test]
fn a_flag_per_any_turn_clears_for_everyone_as_anyones_turn_starts() {
    let src = "flag reacted per any turn\ntrigger hit(a, d)\non hit(a, d) { if not d.reacted { react d { mark d.reacted } } }\n\
        play { round { for each c in characters { turn c { for each d in characters where d != c { raise hit(c, d) } raise hit(c, c) } } } }\n\
        character Ana { }\ncharacter Bo { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ Ana",
            "    trigger  Ana   hit(Ana, Bo)",
            "    ↳ Bo reacts",
            "      mark     Bo    reacted",
            "    trigger  Ana   hit(Ana, Ana)",
            "    ↳ Ana reacts",
            "      mark     Ana   reacted",
            "  ▸ Bo",
            // Bo's turn starts: everyone's clears, whoever's turn it was.
            "    clear    Ana   reacted",
            "    clear    Bo    reacted",
            "    trigger  Bo    hit(Bo, Ana)",
            "    ↳ Ana reacts",
            "      mark     Ana   reacted",
            "    trigger  Bo    hit(Bo, Bo)",
            "    ↳ Bo reacts",
            "      mark     Bo    reacted",
            "end of encounter: complete",
            "final    Ana   reacted = 1",
            "final    Bo    reacted = 1",
        ]
    );
}

#[test]
fn a_flag_per_several_levels_clears_as_each_of_them_starts() {
    let src = "flag used per round, act\nplay { round repeat { phase act repeat { mark Ana.used if act.number == 2 { end act } } if round.number == 2 { end encounter } } }\ncharacter Ana { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  act",
            "    mark     Ana   used",
            "  act",
            "    clear    Ana   used",
            "    mark     Ana   used",
            "    end            act: ended",
            // A new round clears it; so does each new `act`.
            "round 2",
            "  clear    Ana   used",
            "  act",
            "    mark     Ana   used",
            "  act",
            "    clear    Ana   used",
            "    mark     Ana   used",
            "    end            act: ended",
            "end of encounter: ended",
            "final    Ana   used = 1",
        ]
    );
}

/// "One riposte per turn": a `per turn` flag marked in a reaction during another's turn.
const RIPOSTE: &str = "flag riposted per turn\ntrigger attacked(a, d)\n\
    on attacked(a, d) { if not d.riposted { react d { mark d.riposted } } }\n\
    play { round { for each c in characters { turn c { for each d in characters where d != c { raise attacked(c, d) } } } } }\n\
    character Ana { }\ncharacter Bo { }\ncharacter Cy { }\n";

#[test]
fn a_per_turn_flag_marked_in_a_reaction_belongs_to_the_turn_it_was_marked_in() {
    // Cy ripostes in Ana's turn; the flag clears as Ana's turn ends, so Cy may riposte again in
    // Bo's turn (before, it stayed set until Cy's own turn, and Cy could riposte once a round).
    let (out, err, code) = run(RIPOSTE, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ Ana",
            "    trigger  Ana   attacked(Ana, Bo)",
            "    ↳ Bo reacts",
            "      mark     Bo    riposted",
            "    trigger  Ana   attacked(Ana, Cy)",
            "    ↳ Cy reacts",
            "      mark     Cy    riposted",
            "    clear    Bo    riposted",
            "    clear    Cy    riposted",
            "  ▸ Bo",
            "    trigger  Bo    attacked(Bo, Ana)",
            "    ↳ Ana reacts",
            "      mark     Ana   riposted",
            "    trigger  Bo    attacked(Bo, Cy)",
            "    ↳ Cy reacts",
            "      mark     Cy    riposted",
            "    clear    Ana   riposted",
            "    clear    Cy    riposted",
            "  ▸ Cy",
            "    trigger  Cy    attacked(Cy, Ana)",
            "    ↳ Ana reacts",
            "      mark     Ana   riposted",
            "    trigger  Cy    attacked(Cy, Bo)",
            "    ↳ Bo reacts",
            "      mark     Bo    riposted",
            "    clear    Ana   riposted",
            "    clear    Bo    riposted",
            "end of encounter: complete",
            "final    Ana   riposted = 0",
            "final    Bo    riposted = 0",
            "final    Cy    riposted = 0",
        ]
    );
}

#[test]
fn a_per_turn_flag_marked_in_its_owners_own_turn_still_lasts_until_its_next_turn() {
    let src = "flag moved per turn\nplay { round repeat { for each c in characters { turn c { if c == Ana { mark Ana.moved } } } if round.number == 2 { end encounter } } }\ncharacter Ana { }\ncharacter Bo { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ Ana",
            "    mark     Ana   moved",
            "  ▸ Bo",
            "round 2",
            "  ▸ Ana",
            "    clear    Ana   moved",
            "    mark     Ana   moved",
            "  ▸ Bo",
            "end of encounter: ended",
            "final    Ana   moved = 1",
            "final    Bo    moved = 0",
        ]
    );
}

const UNTIL: &str = "effect braced, marked, dazed, warded\nplay {\n  round repeat {\n    for each c in characters {\n      turn c {\n\
        if round.number == 1 and c == Ana { begin braced on Ana until end of next turn(Ana) }\n\
        if round.number == 1 and c == Bo { begin marked on Ana until end of next turn(Ana) }\n\
        if round.number == 1 and c == Bo { begin dazed on Bo until end of round }\n\
        if round.number == 1 and c == Ana { begin warded on Ana until start of next turn(Ana) }\n\
      }\n    }\n    if round.number == 3 { end encounter }\n  }\n}\ncharacter Ana { }\ncharacter Bo { }\n";

#[test]
fn until_the_end_of_next_turn_skips_the_turn_under_way_and_no_other() {
    let (out, err, code) = run(UNTIL, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ Ana",
            // Begun in Ana's own turn: this turn's end does not count.
            "    effect   Ana   braced     for 2, counted at end of Ana's turn",
            "    effect   Ana   warded     for 1, counted at start of Ana's turn",
            "    effect   Ana   braced     1 left",
            "  ▸ Bo",
            // Begun in Bo's turn: Ana's next turn is her very next one.
            "    effect   Ana   marked     for 1, counted at end of Ana's turn",
            "    effect   Bo    dazed      for 1, counted at end of round",
            "  effect   Bo    dazed      ends",
            "round 2",
            "  ▸ Ana",
            "    effect   Ana   warded     ends",
            "    effect   Ana   braced     ends",
            "    effect   Ana   marked     ends",
            "  ▸ Bo",
            "round 3",
            "  ▸ Ana",
            "  ▸ Bo",
            "end of encounter: ended",
            "final    Ana   braced = 0, marked = 0, dazed = 0, warded = 0",
            "final    Bo    braced = 0, marked = 0, dazed = 0, warded = 0",
        ]
    );
    // The JSON keys stay those of `for N counted at ...`: the count is worked out.
    let (json, _, _) = run(UNTIL, &[], "", true);
    let first = json
        .lines()
        .find(|l| l.contains("effect_start"))
        .expect("an effect_start");
    assert_eq!(
        first,
        r#"{"event":"effect_start","actor":"Ana","effect":"braced","for":2,"counted_at":"end of Ana's turn"}"#
    );
}

#[test]
fn until_the_end_of_next_level_skips_the_iteration_under_way() {
    let src = "effect dazed\nplay { round repeat { if round.number == 1 { begin dazed on Ana until end of next round } if round.number == 3 { end encounter } } }\ncharacter Ana { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  effect   Ana   dazed      for 2, counted at end of round",
            "  effect   Ana   dazed      1 left",
            "round 2",
            "  effect   Ana   dazed      ends",
            "round 3",
            "end of encounter: ended",
            "final    Ana   dazed = 0",
        ]
    );
}

/// A `per turn` flag set in its owner's own turn lasts until its next turn "whatever happens": a
/// reaction in a later turn that marks it again does not make it that turn's (it used to clear as
/// that turn ended, losing the own turn's mark). Nor does a reaction's mark, made before the owner
/// steps in with a turn of its own inside another's, clear what the owner marks in that turn.
#[test]
fn a_per_turn_flag_set_in_its_owners_turn_is_not_cleared_by_a_reaction_marking_it_again() {
    let src = "flag used per turn\nplay {\n\
               together for each c in characters { turn c { react Ana { mark Ana.used } } }\n\
               turn Bo { react Ana { mark Ana.used }\n turn Ana { mark Ana.used } }\n}\n\
               character Ana { }\ncharacter Bo { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "together Ana, Bo",
            "  ▸ Ana",
            "    ↳ Ana reacts",
            "      mark     Ana   used",
            "  ▸ Bo",
            "    ↳ Ana reacts",
            "      mark     Ana   used",
            "▸ Bo",
            "  ↳ Ana reacts",
            "    mark     Ana   used",
            "  ▸ Ana",
            "    clear    Ana   used",
            "    mark     Ana   used",
            "end of encounter: complete",
            "final    Ana   used = 1",
            "final    Bo    used = 0",
        ]
    );
}

/// "Until the end of your next turn", begun as an effect ends at the end of your turn (`on end
/// of EFFECT(c)`): that turn's end is counted already, so the next turn is the one after it (and
/// so for a level). It used to count the turn still running, and last a turn longer.
#[test]
fn until_end_of_next_turn_begun_as_an_effect_ends_at_a_turns_end_lasts_to_the_next_turns_end() {
    let src = "effect crash, spin, shaken, dazed\n\
               on end of crash(c) { begin shaken on c until end of next turn(c) }\n\
               on end of spin(c) { begin dazed on c until end of next round }\n\
               play { round repeat {\n\
               for each c in characters { turn c { if round.number == 1 { begin crash on c for 1 counted at end of turn(c) } } }\n\
               if round.number == 1 { begin spin on A for 1 counted at end of round }\n\
               if round.number == 3 { end encounter } } }\n\
               character A { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ A",
            "    effect   A     crash      for 1, counted at end of A's turn",
            "    effect   A     crash      ends",
            "    effect   A     shaken     for 1, counted at end of A's turn",
            "  effect   A     spin       for 1, counted at end of round",
            "  effect   A     spin       ends",
            "  effect   A     dazed      for 1, counted at end of round",
            "round 2",
            "  ▸ A",
            "    effect   A     shaken     ends",
            "  effect   A     dazed      ends",
            "round 3",
            "  ▸ A",
            "end of encounter: ended",
            "final    A     crash = 0, spin = 0, shaken = 0, dazed = 0",
        ]
    );
}

/// "Until the end of your turn", begun as your turn ends (`on end of turn(c)`), or "until the end
/// of the round" begun in `on end of round`: the end being answered has not been counted down
/// yet, and an effect lasting no time is not what is meant, so it lasts to the next one. (It
/// used to start and end at that same end.)
#[test]
fn until_end_of_turn_begun_in_that_turns_end_hook_lasts_to_the_next_turns_end() {
    let src = "effect braced, dazed\n\
               on end of turn(c) { begin braced on c until end of turn(c) }\n\
               on end of round { begin dazed on A until end of round }\n\
               play { round repeat {\n\
               for each c in characters { turn c { } }\n\
               if round.number == 2 { end encounter } } }\n\
               character A { }\n";
    let (out, err, code) = run(src, &[], "", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        vec![
            "round 1",
            "  ▸ A",
            "    effect   A     braced     for 2, counted at end of A's turn",
            "    effect   A     braced     1 left",
            "  effect   A     dazed      for 2, counted at end of round",
            "  effect   A     dazed      1 left",
            "round 2",
            "  ▸ A",
            "    effect   A     braced     for 2, counted at end of A's turn",
            "    effect   A     braced     ends",
            "    effect   A     braced     1 left",
            "  effect   A     dazed      for 2, counted at end of round",
            "  effect   A     dazed      ends",
            "  effect   A     dazed      1 left",
            "end of encounter: ended",
            "final    A     braced = 1, dazed = 1",
        ]
    );
}
