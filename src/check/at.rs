//! Tables keyed by where something is written (a span, or a pair of spans): what the checker
//! found at a place (the field an `x.FIELD` names, a number widened, a refusal's part that is a
//! number), which the compiler reads back at the same place.
//!
//! The checker appends to a [`Found`] as it walks; [`Found::seal`] sorts it once into an [`At`],
//! which the compiler searches by halves. The keys are positions in the input: a hash table on
//! them needs a hasher keyed per process to have no worst case an input can build (SipHash, a
//! fifth of checking a ruleset with its encounter), where a list sorted once has none and costs
//! a few comparisons a lookup.

/// Found while checking, in the order found: the last entry for a place is the one kept.
#[derive(Debug)]
pub struct Found<K, V>(Vec<(K, V)>);

impl<K, V> Default for Found<K, V> {
    fn default() -> Self {
        Found(Vec::new())
    }
}

impl<K: Ord + Copy, V> Found<K, V> {
    /// Records `value` for `key` (replacing what was recorded there before, as a map would).
    pub fn insert(&mut self, key: K, value: V) {
        self.0.push((key, value));
    }

    /// Sorted by place, the last entry for each place kept.
    pub fn seal(mut self) -> At<K, V> {
        // Stable: entries for one place stay in the order found.
        self.0.sort_by_key(|e| e.0);
        // `dedup_by` keeps the first of a run and removes the later ones: each removed one hands
        // its value on, so the one kept holds the last.
        self.0.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        At(self.0)
    }
}

/// Sorted by place: what was found at each (see [`Found`]).
#[derive(Debug)]
pub struct At<K, V>(Vec<(K, V)>);

impl<K, V> Default for At<K, V> {
    fn default() -> Self {
        At(Vec::new())
    }
}

impl<K: Ord, V> At<K, V> {
    /// What was found at `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        let i = self.0.binary_search_by(|e| e.0.cmp(key)).ok()?;
        self.0.get(i).map(|e| &e.1)
    }

    /// Whether something was found at `key`.
    pub fn contains(&self, key: &K) -> bool {
        self.0.binary_search_by(|e| e.0.cmp(key)).is_ok()
    }

    /// How many places hold something.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_value_found_at_a_place_is_kept() {
        let mut f = Found::default();
        for (k, v) in [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (3, 'e'), (1, 'f')] {
            f.insert(k, v);
        }
        let at = f.seal();
        assert_eq!(at.len(), 3);
        assert_eq!(
            (at.get(&1), at.get(&2), at.get(&3)),
            (Some(&'f'), Some(&'d'), Some(&'e'))
        );
        assert_eq!(at.get(&4), None);
        assert!(at.contains(&2) && !at.contains(&0));
    }
}
