// A character or thing named like a side or a role (issue 26, family 3): since sides and roles
// became values, the bare name meant the side or role, so such an entity could no longer be
// named at all (`turn Dragon` was "needs an entity, but this is a side"). The bare name is the
// entity, as it was; the side stays reachable as `x.side`, `sides` and `is`.

use crate::common::run_texts;
use turnscript::RunOptions;

fn run(src: &str) -> (String, String, i32) {
    let files = vec![("r.turn".to_string(), src.to_string())];
    run_texts(&files, Vec::new(), &RunOptions::default(), false)
}

fn lines(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_character_named_like_its_side_is_named_by_that_name() {
    let src = "ruleset \"solo\"\nside heroes, Dragon { stat init }\nresource hp\nglobal g: side\nplay {\n  turn Dragon { spend 1 Dragon.hp }\n  set g = Dragon.side\n  set g.init = 2\n  if Dragon is Dragon { gain 1 Ana.hp }\n}\ncharacter Ana { side heroes, hp = 5 }\ncharacter Dragon { side Dragon, hp = 5 }\n";
    let (out, err, code) = run(src);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        lines(&out),
        [
            "▸ Dragon",
            "spend Dragon hp -1 → 4",
            "set g = Dragon",
            "set Dragon init = 2",
            "gain Ana hp +1 → 6",
            "end of encounter: complete",
            "final g = Dragon",
            "final heroes init = 0",
            "final Dragon init = 2",
            "final Ana hp = 6",
            "final Dragon hp = 4",
        ]
    );
}

#[test]
fn a_character_named_like_a_role_is_named_by_that_name() {
    let src = "ruleset \"gm\"\nrole gm\nresource hp\nplay {\n  turn gm { spend 1 gm.hp }\n  choose act by gm { option a }\n}\ncharacter gm { hp = 3 }\n";
    let (out, err, code) = run(src);
    assert_eq!(code, 0, "{err}");
    let l = lines(&out);
    assert_eq!(l[..2], ["▸ gm", "spend gm hp -1 → 2"]);
}
