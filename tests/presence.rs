//! Characters out of play walked: `out of play` and `including out of play` after the collection
//! of a quantifier, a `for each` (`repeat for first`, `together`, `anew`, `from`, `backwards`) and a
//! measure's `for each`, with the meaning they have in `choose ... from` (family 7 of issue 25).

mod common;

use common::run_texts;
use turnscript::project::RunOptions;

fn run(src: &str, rolls: &[i64], until: Option<&str>) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: until.map(str::to_string),
        rolls: rolls.to_vec(),
        policy: Some("first".to_string()),
        ..RunOptions::default()
    };
    run_texts(&files, Vec::new(), &opts, false)
}

/// The trace without its header line.
fn body(out: &str) -> String {
    out.split_once('\n').map_or("", |(_, rest)| rest).to_string()
}

/// A reserve pool: `count ... out of play` counts those waiting (a plain count of those not in play
/// stays 0), `for each ... out of play by ORDER` heals them in rank order, `first ... out of play by
/// ORDER` brings the next in; once all have joined the walk is empty (no `order`) and `first` is `none`.
#[test]
fn the_reserves_are_counted_healed_each_round_and_the_first_by_rank_brought_in_until_none_is_left() {
    let src = r#"resource hp min 0 max 5
stat rank
order by_rank(c) { c.rank asc }
global waiting default 0
global everyone default 0
global plain default 0
play {
  round repeat {
    set waiting = count r in characters out of play
    set everyone = count r in characters including out of play
    set plain = count r in characters: not r.in_play
    for each r in characters out of play by by_rank { gain 1 r.hp }
    let next = first r in characters out of play by by_rank
    if next != none { join next } else { gain 100 waiting }
  }
}
character Ana { hp = 3, rank = 1 }
character Bo { hp = 1, rank = 3, absent }
character Cy { hp = 2, rank = 2, absent }
character Di { hp = 0, rank = 0, absent }
"#;
    let (out, err, code) = run(src, &[], Some("round=4"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        r#"round 1
  set            waiting    = 3
  set            everyone   = 4
  set            plain      = 0
  order          Di, Cy, Bo
  gain     Di    hp         +1 → 1
  gain     Cy    hp         +1 → 3
  gain     Bo    hp         +1 → 2
  joins    Di
round 2
  set            waiting    = 2
  set            everyone   = 4
  set            plain      = 0
  order          Cy, Bo
  gain     Cy    hp         +1 → 4
  gain     Bo    hp         +1 → 3
  joins    Cy
round 3
  set            waiting    = 1
  set            everyone   = 4
  set            plain      = 0
  order          Bo
  gain     Bo    hp         +1 → 4
  joins    Bo
round 4
  set            waiting    = 0
  set            everyone   = 4
  set            plain      = 0
  gain           waiting    +100 → 100
end of encounter: until round=4
final          waiting = 100, everyone = 4, plain = 0
final    Ana   hp = 3, rank = 1
final    Bo    hp = 4, rank = 3
final    Cy    hp = 4, rank = 2
final    Di    hp = 1, rank = 0
"#
    );
}

/// A walk `out of play` checks again where each member is: Cy, brought in by Bo's moment, is skipped
/// (in a `together` walk too); `including out of play backwards from Bo` walks everyone.
#[test]
fn a_walk_out_of_play_skips_a_reserve_an_earlier_moment_brought_in_and_including_walks_everyone() {
    let src = r#"resource hp min 0 max 5
play {
  for each r in characters out of play { gain 1 r.hp  if r == Bo { join Cy } }
  leave Cy
  together for each r in characters out of play { gain 1 r.hp  if r == Bo { join Cy } }
  for each r in characters including out of play backwards from Bo { gain 1 r.hp }
}
character Ana { hp = 0 }
character Bo { hp = 0, absent }
character Cy { hp = 0, absent }
character Di { hp = 0, absent }
"#;
    let (out, err, code) = run(src, &[], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        r#"gain     Bo    hp         +1 → 1
joins    Cy
gain     Di    hp         +1 → 1
leaves   Cy
together Bo, Cy, Di
  gain     Bo    hp         +1 → 2
  joins    Cy
  gain     Di    hp         +1 → 2
gain     Bo    hp         +1 → 3
gain     Ana   hp         +1 → 1
gain     Di    hp         +1 → 3
gain     Cy    hp         +1 → 1
end of encounter: complete
final    Ana   hp = 1
final    Bo    (out of play) hp = 3
final    Cy    hp = 1
final    Di    (out of play) hp = 3
"#
    );
}

/// Members out of play are sorted like anyone, rolling where the keys roll; `anew` sorts again
/// among those not yet walked, whoever is in or out of play; a measure's `for each ... out of play`
/// takes one value per reserve.
#[test]
fn repeat_for_first_out_of_play_brings_reserves_in_by_a_rolling_order_and_anew_sorts_those_left() {
    let src = r#"stat rank
order by_rank(c) { c.rank asc  roll 1d6 desc }
measure waiting_rank = r.rank for each r in characters out of play at end of encounter
play {
  repeat for first r in characters out of play by by_rank {
    join r
    if (count c in characters) >= 3 { end repeat }
  }
  for each r in characters including out of play by by_rank anew { if r == Ana { leave Di } }
}
character Ana { rank = 1 }
character Bo { rank = 3, absent }
character Cy { rank = 2, absent }
character Di { rank = 2, absent }
character Ed { rank = 2, absent }
"#;
    let (out, err, code) = run(src, &[2, 5, 4, 1, 3], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        r#"roll     Cy    by_rank    d6 [2] = 2
roll     Di    by_rank    d6 [5] = 5
roll     Ed    by_rank    d6 [4] = 4
order          Di, Ed, Cy, Bo
joins    Di
order          Ed, Cy, Bo
joins    Ed
roll     Cy    by_rank    d6 [1] = 1
roll     Di    by_rank    d6 [3] = 3
roll     Ed    by_rank    d6 [3] = 3
order          Ana, Di, Ed, Cy, Bo
leaves   Di
order          Di, Ed, Cy, Bo
order          Ed, Cy, Bo
order          Cy, Bo
order          Bo
measure  Bo    waiting_rank = 3
measure  Cy    waiting_rank = 2
measure  Di    waiting_rank = 2
end of encounter: complete
final    Ana   rank = 1
final    Bo    (out of play) rank = 3
final    Cy    (out of play) rank = 2
final    Di    (out of play) rank = 2
final    Ed    rank = 2
"#
    );
}

/// In a key's `when`, `tied` is the group being sorted, reserves included: Cy (more hp) comes before
/// Di and Bo, tied on rank. A sorted walk out of play has no place for Ana, in play, to start from.
#[test]
fn tied_reads_the_reserves_being_sorted_and_a_sorted_walk_out_of_play_cannot_start_from_one_in_play() {
    let src = r#"stat rank
resource hp min 0
order by_rank(c) { c.rank asc  c.hp desc when count t in tied > 1 }
role gm
play {
  choose bring by gm from r in characters out of play by by_rank { join r }
  for each r in characters out of play from Ana by by_rank { }
}
character Ana { rank = 1, hp = 1 }
character Bo { rank = 2, hp = 1, absent }
character Cy { rank = 2, hp = 3, absent }
character Di { rank = 2, hp = 2, absent }
"#;
    let (out, err, code) = run(src, &[], None);
    assert_ne!(code, 0);
    assert_eq!(
        body(&out),
        r#"choose   gm    bring      Cy       of Cy|Di|Bo (policy)
joins    Cy
order          Di, Bo
"#
    );
    assert!(
        err.contains("run::not_ranked") && err.contains("Ana has no place in the walk"),
        "{err}"
    );
}
