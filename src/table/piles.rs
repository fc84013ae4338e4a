//! `show`: each deck's piles as the table sees them.

use crate::compile::Program;
use crate::runtime::control::Snapshot;

/// Each deck's piles: the draw pile as a count (its cards are face down), the discard pile face
/// up, its top last.
pub(super) fn piles_text(p: &Program, snap: &Snapshot) -> String {
    let mut out = String::new();
    for (d, (draw, discard)) in snap.piles.iter().enumerate() {
        let name = p.deck_defs.get(d).map_or("", |d| d.name.as_str());
        let s = if *draw == 1 { "" } else { "s" };
        out.push_str(&format!("deck     {name}: {draw} card{s} in the draw pile"));
        if discard.is_empty() {
            out.push_str(", no discards\n");
        } else {
            let cards: Vec<&str> = discard.iter().map(|c| p.character_name(*c)).collect();
            out.push_str(&format!(", discards {}\n", cards.join(", ")));
        }
    }
    out
}
