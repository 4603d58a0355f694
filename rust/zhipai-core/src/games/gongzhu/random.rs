//! Unbiased random draws for deals and the `random` policy, cheaper than the generic `rand`
//! paths: Lemire's nearly-divisionless bounded integers, and a shuffle that takes two indices
//! from one 64-bit word (Brackett-Rozinsky & Lemire, "Batched ranged random integer
//! generation", 2024). Both the general [`super::state::State`] and the fast rollout use these,
//! so they draw the same numbers.

use rand::Rng;

/// A uniform integer in `0..n` (`n ≥ 1`). `n = 1` (a forced choice) draws nothing.
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    debug_assert!(n >= 1 && n <= u32::MAX as usize);
    if n <= 1 {
        return 0;
    }
    let n = n as u64;
    let mut m = rng.next_u32() as u64 * n;
    if (m as u32 as u64) < n {
        // Reject the few low products that would bias the result.
        let t = (u32::MAX as u64 + 1 - n) % n;
        while (m as u32 as u64) < t {
            m = rng.next_u32() as u64 * n;
        }
    }
    (m >> 32) as usize
}

/// Fisher–Yates shuffle of `items`, drawing two indices per 64-bit random word.
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    let mut i = items.len();
    while i >= 3 {
        // Indices j1 in 0..i and j2 in 0..i-1 from one word (bound = i·(i−1)).
        let (n1, n2) = (i as u64, i as u64 - 1);
        let bound = n1 * n2;
        let (j1, j2) = loop {
            let r = rng.next_u64();
            let z = r as u128 * n1 as u128;
            let (j1, rest) = ((z >> 64) as u64, z as u64);
            let z = rest as u128 * n2 as u128;
            let (j2, rest) = ((z >> 64) as u64, z as u64);
            if rest >= bound || rest >= bound.wrapping_neg() % bound {
                break (j1 as usize, j2 as usize);
            }
        };
        items.swap(i - 1, j1);
        items.swap(i - 2, j2);
        i -= 2;
    }
    if i == 2 {
        let j = below(rng, 2);
        items.swap(1, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::deal_rng;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = deal_rng(1, 0);
        let mut seen = [0u32; 13];
        for _ in 0..13_000 {
            seen[below(&mut rng, 13)] += 1;
        }
        // Each value expected 1000 times; 5 standard deviations is about ±150.
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_uniform_permutation() {
        let mut rng = deal_rng(2, 0);
        let mut first = [[0u32; 5]; 5];
        for _ in 0..50_000 {
            let mut v = [0usize, 1, 2, 3, 4];
            shuffle(&mut rng, &mut v);
            let mut sorted = v;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4]);
            for (pos, &x) in v.iter().enumerate() {
                first[pos][x] += 1;
            }
        }
        // Each (position, value) expected 10,000 times; ±500 is about 5.6 sd.
        for row in first {
            assert!(row.iter().all(|&c| (9_500..10_500).contains(&c)), "{row:?}");
        }
    }
}
