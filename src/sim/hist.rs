//! A histogram of integer values whose memory is bounded: how often each value came up, while
//! few distinct values did, else how many fell in each bin of equal, aligned width.

use std::collections::BTreeMap;

use crate::limits::MAX_SIM_BINS;

/// How often values came up, in bins of `2^shift` values: bin `b` holds the values `b·2^shift`
/// to `(b+1)·2^shift − 1`. While at most [`MAX_SIM_BINS`] distinct values came up, `shift` is
/// 0 and each value is counted exactly; past that, the bins double in width until they fit.
///
/// The width depends only on the values counted, not on their order nor on how they were split
/// among workers and merged: it is the least width at which their bins fit, since a value's bin
/// at one width determines its bin at every wider one. So totals merged in any order are equal.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hist {
    shift: u32,
    bins: BTreeMap<i64, u64>,
}

impl Hist {
    /// Counts `n` more of value `v`.
    pub fn add(&mut self, v: i64, n: u64) {
        count(&mut self.bins, bin(v, self.shift), n);
        self.fit();
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, o: &Hist) {
        if o.shift > self.shift {
            self.widen(o.shift);
        }
        for (&b, &n) in &o.bins {
            count(&mut self.bins, bin(b, self.shift - o.shift), n);
        }
        self.fit();
    }

    /// How many bins (distinct values, while exact) are kept.
    pub fn len(&self) -> usize {
        self.bins.len()
    }

    /// Whether no value was counted.
    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
    }

    /// The width of the bins: 1 while each value is counted exactly.
    pub fn width(&self) -> u64 {
        1u64 << self.shift
    }

    /// The bins that hold values, lowest first: `(first value, last value, count)`.
    pub fn bins(&self) -> impl Iterator<Item = (i64, i64, u64)> + '_ {
        self.bins.iter().map(|(&b, &n)| {
            let lo = (b as i128) << self.shift;
            let hi = lo + (1i128 << self.shift) - 1;
            (clamp(lo), clamp(hi), n)
        })
    }

    /// The bins as they are kept: `(bin, count)`, bin `b` holding the values `b·width()` to
    /// `(b+1)·width() − 1` (a shard's exact tallies, [`super::shard`]).
    pub fn raw(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.bins.iter().map(|(&b, &n)| (b, n))
    }

    /// A histogram from bins as [`Hist::raw`] gives them and the width's exponent (`width() ==
    /// 2^shift`); `None` when they cannot be one that counting made: more than [`MAX_SIM_BINS`]
    /// bins, a count of 0, a bin twice or out of range.
    pub fn from_raw(shift: u32, bins: impl IntoIterator<Item = (i64, u64)>) -> Option<Hist> {
        // Bins of width 2^63 already hold every i64 in two.
        if shift > 63 {
            return None;
        }
        let (lo, hi) = (bin(i64::MIN, shift), bin(i64::MAX, shift));
        let mut map = BTreeMap::new();
        for (b, n) in bins {
            if n == 0 || !(lo..=hi).contains(&b) || map.insert(b, n).is_some() || map.len() > MAX_SIM_BINS {
                return None;
            }
        }
        Some(Hist { shift, bins: map })
    }

    fn fit(&mut self) {
        while self.bins.len() > MAX_SIM_BINS {
            self.widen(self.shift + 1);
        }
    }

    fn widen(&mut self, shift: u32) {
        let by = shift - self.shift;
        let mut wider = BTreeMap::new();
        for (b, n) in std::mem::take(&mut self.bins) {
            count(&mut wider, bin(b, by), n);
        }
        self.bins = wider;
        self.shift = shift;
    }
}

/// Adds `n` to bin `b`'s count, saturating: counts read back from a shard's file may be anything.
fn count(bins: &mut BTreeMap<i64, u64>, b: i64, n: u64) {
    let c = bins.entry(b).or_insert(0);
    *c = c.saturating_add(n);
}

/// The bin of `v` at width `2^shift` (rounding down, so negative values too).
fn bin(v: i64, shift: u32) -> i64 {
    v.checked_shr(shift).unwrap_or(if v < 0 { -1 } else { 0 })
}

fn clamp(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_depend_on_the_values_not_on_how_they_were_merged() {
        let values: Vec<i64> = (0..20_000i64).map(|i| (i * 7919) % 1_000_003 - 500_000).collect();
        let mut whole = Hist::default();
        for &v in &values {
            whole.add(v, 1);
        }
        assert!(whole.len() <= MAX_SIM_BINS && whole.width() > 1);
        let mut parts: Vec<Hist> = vec![Hist::default(); 3];
        for (i, &v) in values.iter().enumerate() {
            parts[i % 3].add(v, 1);
        }
        let mut merged = Hist::default();
        for p in parts.iter().rev() {
            merged.merge(p);
        }
        assert_eq!(merged, whole);
        assert_eq!(whole.bins().map(|b| b.2).sum::<u64>(), 20_000);
        // Few values: exact.
        let mut few = Hist::default();
        for v in [3, -3, 3, i64::MIN, i64::MAX] {
            few.add(v, 1);
        }
        assert_eq!(few.width(), 1);
        let got: Vec<_> = few.bins().collect();
        assert_eq!(
            got,
            vec![(i64::MIN, i64::MIN, 1), (-3, -3, 1), (3, 3, 2), (i64::MAX, i64::MAX, 1)]
        );
    }
}

#[cfg(test)]
mod edge_tests {
    use super::*;

    /// Counts read back from an edited shard can be anything: merging adds up saturating, and a
    /// width past 2^63 is not one (the review of issue 31's merge: an overflow panic, and a width
    /// of `1 << 64`).
    #[test]
    fn merging_huge_counts_saturates_and_a_width_past_2_63_is_refused() {
        let a = Hist::from_raw(0, [(5, u64::MAX)]).expect("a histogram");
        let mut m = a.clone();
        m.merge(&a);
        assert_eq!(m.raw().collect::<Vec<_>>(), vec![(5, u64::MAX)]);
        let mut wide = Hist::from_raw(3, [(0, u64::MAX)]).expect("a histogram");
        wide.merge(&a);
        assert_eq!(wide.raw().collect::<Vec<_>>(), vec![(0, u64::MAX)]);
        assert!(Hist::from_raw(64, [(0, 1)]).is_none());
        let top = Hist::from_raw(63, [(-1, 1), (0, 1)]).expect("the widest histogram");
        assert_eq!(top.width(), 1 << 63);
    }
}
