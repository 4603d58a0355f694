//! Small exact sampling helpers for the random policies' hot paths: an exactly uniform bounded
//! draw that usually costs one 32-bit word of the generator, and the k-th card of a set.

use crate::cards::{Card, CardSet};
use rand::RngCore;

/// A number drawn exactly uniformly from `0..n` (`n ≥ 1`; `n = 0` gives 0).
///
/// Lemire's multiply-and-reject method ("Fast random integer generation in an interval", 2019):
/// one 32-bit word per draw except with probability < n / 2³², then rejection keeps it exactly
/// uniform (`rand`'s `random_range` reads 32 or 64 bits and is uniform only up to a tiny bias).
#[inline]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    if n <= 1 {
        return 0;
    }
    below_always(rng, n)
}

/// [`below`] without the shortcut for `n = 1`: always reads at least one word (`n ≥ 1`). Where
/// forced choices are frequent and unpredictable (Gongzhu's plays), a draw is cheaper than a
/// mispredicted branch.
#[inline(always)]
pub fn below_always<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        // 2³² mod n: the low words below it would make some results more likely.
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// The `k`-th card (0-based, ascending kind index) of `set`; `k` must be below `set.len()`.
#[inline]
pub fn nth_card(set: CardSet, k: u32) -> Card {
    let mut bits = set.0;
    for _ in 0..k {
        bits &= bits - 1;
    }
    debug_assert!(bits != 0, "k is below the size of the set");
    set_first(bits)
}

#[inline]
fn set_first(bits: u64) -> Card {
    CardSet(bits).first().unwrap_or(Card::SMALL_JOKER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn nth_card_walks_the_set_in_order() {
        let set: CardSet = ["3S", "KH", "2D", "BJ"].iter().map(|s| s.parse().unwrap()).collect();
        let got: Vec<Card> = (0..4).map(|k| nth_card(set, k)).collect();
        assert_eq!(got, set.iter().collect::<Vec<_>>());
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        assert_eq!(below(&mut rng, 0), 0);
        assert_eq!(below(&mut rng, 1), 0);
        let n = 7u32;
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[below(&mut rng, n) as usize] += 1;
        }
        // Chi-square with df = 6: the 0.001 critical value is 22.46.
        let x2: f64 = counts.iter().map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(x2 < 22.46, "chi-square {x2} over {counts:?}");
    }

    #[test]
    fn below_rejects_the_biased_low_words() {
        // A generator whose first word falls in the rejected zone of n = 3 (2³² mod 3 = 1):
        // word 0 gives m = 0 < threshold, so the next word decides.
        struct Words(Vec<u32>);
        impl RngCore for Words {
            fn next_u32(&mut self) -> u32 {
                self.0.remove(0)
            }
            fn next_u64(&mut self) -> u64 {
                self.next_u32() as u64
            }
            fn fill_bytes(&mut self, _: &mut [u8]) {
                unimplemented!()
            }
        }
        let mut w = Words(vec![0, u32::MAX]);
        assert_eq!(below(&mut w, 3), 2);
        assert!(w.0.is_empty(), "both words were used");
    }
}
