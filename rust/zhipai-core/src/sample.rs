//! Exact, game-neutral sampling helpers for the random policies' hot paths (one module for every
//! game, so equal draws consume the generator identically wherever they are made):
//!
//! * [`below`] / [`below_always`]: one integer uniform in `0..n`, usually from one `u32` (Lemire's
//!   multiply-and-reject: exactly uniform; a rejection, probability < n / 2³², draws again).
//! * [`DrawPlan`] / [`draw_descending`]: the bounds `n, n − 1, …, n − k + 1` of a deal, several
//!   per `u64` (Brackett-Rozinsky & Lemire, *Batched ranged random integer generation*, 2024):
//!   a batch of bounds with product `P ≤ 2⁵⁷` is drawn from one `u64` x by successive
//!   multiplications `x·b = r·2⁶⁴ + x'`; then `x·P = R·2⁶⁴ + L` where `R` is the mixed-radix
//!   number of the digits `r`, so rejecting `L < 2⁶⁴ mod P` (Lemire) makes `R` — hence every
//!   digit — exactly uniform and independent. Rejection has probability < 2⁻⁷ per batch.
//! * [`nth_card`], [`nth_bit`], [`nth_bit_portable`]: the `k`-th lowest set bit of a bitboard —
//!   the `k`-th legal card in card order (`pdep` where the CPU has a fast one, [`fast_pdep`]).

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

/// Products of a batch stay ≤ 2⁵⁷, so a batch is rejected with probability < 2⁻⁷.
const BATCH_LIMIT: u64 = 1 << 57;
/// Enough batches for 78 bounds of at most 104 (two decks need 10).
const MAX_BATCHES: usize = 16;

/// How the descending bounds `first, first − 1, …` (`count` of them) are grouped into batches
/// drawn from one `u64` each; computed at compile time for the deals of one and two decks.
#[derive(Clone, Copy, Debug)]
pub struct DrawPlan {
    first: u32,
    count: usize,
    /// `(number of bounds, their product)` per batch.
    batches: [(u8, u64); MAX_BATCHES],
    len: usize,
}

impl DrawPlan {
    /// Group `first, first − 1, …, first − count + 1` greedily into batches of product ≤ 2⁵⁷.
    pub const fn new(first: u32, count: usize) -> DrawPlan {
        assert!(count as u64 <= first as u64 && first <= 255);
        let mut batches = [(0u8, 0u64); MAX_BATCHES];
        let mut len = 0;
        let mut k = 0;
        while k < count {
            let mut p = 1u64;
            let mut m = 0usize;
            while k + m < count && p * (first as u64 - (k + m) as u64) <= BATCH_LIMIT {
                p *= first as u64 - (k + m) as u64;
                m += 1;
            }
            assert!(len < MAX_BATCHES);
            batches[len] = (m as u8, p);
            len += 1;
            k += m;
        }
        DrawPlan { first, count, batches, len }
    }

    /// The number of draws.
    pub const fn count(&self) -> usize {
        self.count
    }
}

/// Fill `out[i]` (`i < plan.count()`) with independent integers uniform in `0..first − i`.
#[inline(always)]
pub fn draw_descending<R: RngCore + ?Sized>(rng: &mut R, plan: &DrawPlan, out: &mut [u8]) {
    let mut k = 0;
    let mut bound = plan.first as u64;
    for &(m, p) in &plan.batches[..plan.len] {
        let m = m as usize;
        loop {
            let mut x = rng.next_u64();
            for (j, slot) in out[k..k + m].iter_mut().enumerate() {
                let t = x as u128 * (bound - j as u64) as u128;
                *slot = (t >> 64) as u8;
                x = t as u64;
            }
            // Accept unless x < 2⁶⁴ mod p (only possible when x < p; rarely computed).
            if x >= p || x >= p.wrapping_neg() % p {
                break;
            }
        }
        k += m;
        bound -= m as u64;
    }
}

/// The `k`-th lowest set bit of `set` as a one-bit mask (`k < set.count_ones()`), portable:
/// byte-wise prefix bit counts by one multiplication find the byte, a table the bit in it.
#[inline(always)]
pub fn nth_bit_portable(set: u64, k: u32) -> u64 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    let mut s = set - ((set >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `prefix` = number of set bits in bytes 0..=i (≤ 64: no carries between bytes).
    let prefix = s.wrapping_mul(L8);
    // Bit 7 of byte i is set iff prefix_i ≤ k: the bytes before the one holding bit k.
    let before = ((((k as u64 * L8) | H8) - prefix) & H8) >> 7;
    let byte = (before.wrapping_mul(L8) >> 56) as u32;
    let skipped = ((prefix << 8) >> (8 * byte)) as u32 & 0xFF;
    let bits = (set >> (8 * byte)) as usize & 0xFF;
    1u64 << (8 * byte + SELECT_IN_BYTE[bits][(k - skipped) as usize] as u32)
}

/// `SELECT_IN_BYTE[b][k]` = position of the `k`-th lowest set bit of byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The `k`-th lowest set bit of `set` (`k < set.count_ones()`). With `PDEP` (only inside
/// functions compiled for BMI2 on a CPU with a fast `pdep`, see [`fast_pdep`]) one instruction.
#[inline(always)]
pub fn nth_bit<const PDEP: bool>(set: u64, k: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PDEP {
        // SAFETY: `PDEP` is true only in code compiled with `bmi2` and run after `fast_pdep()`
        // confirmed the CPU has it.
        return unsafe { std::arch::x86_64::_pdep_u64(1u64 << k, set) };
    }
    nth_bit_portable(set, k)
}

/// Whether this CPU has BMI1, BMI2 (with a fast `pdep`), LZCNT and POPCNT: every Intel CPU with
/// BMI2, AMD from Zen 3 (family 0x19) on; Zen 1/2 execute `pdep` in slow microcode, so they use
/// the portable path.
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)] // `__cpuid` is safe from Rust 1.87 on, `unsafe` before.
pub fn fast_pdep() -> bool {
    use std::sync::OnceLock;
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        let features = [
            std::arch::is_x86_feature_detected!("bmi1"),
            std::arch::is_x86_feature_detected!("bmi2"),
            std::arch::is_x86_feature_detected!("lzcnt"),
            std::arch::is_x86_feature_detected!("popcnt"),
        ];
        if features.contains(&false) {
            return false;
        }
        // SAFETY: `cpuid` exists on every x86-64 CPU.
        let vendor = unsafe { std::arch::x86_64::__cpuid(0) };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
        if !amd {
            return true;
        }
        // SAFETY: as above.
        let eax = unsafe { std::arch::x86_64::__cpuid(1) }.eax;
        let family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
        family >= 0x19
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use proptest::prelude::{any, prop_assert_eq, prop_assume, proptest};
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

    #[test]
    fn plans_cover_the_deals_and_keep_products_small() {
        for (plan, first, count, max_len) in
            [(DrawPlan::new(52, 39), 52u64, 39usize, 4usize), (DrawPlan::new(104, 78), 104, 78, 10)]
        {
            let bounds: usize = plan.batches[..plan.len].iter().map(|&(m, _)| m as usize).sum();
            assert_eq!(bounds, count);
            assert!(plan.len <= max_len, "{} batches", plan.len);
            let mut b = first;
            for &(m, p) in &plan.batches[..plan.len] {
                let prod: u128 = (0..m as u64).map(|j| (b - j) as u128).product();
                assert_eq!(prod, p as u128);
                assert!(p <= 1 << 57);
                b -= m as u64;
            }
        }
    }

    #[test]
    fn draws_stay_in_range_and_reach_every_value() {
        let mut rng = deal_rng(3, 0);
        let mut seen = [[false; 52]; 39];
        let mut out = [0u8; 39];
        for _ in 0..4000 {
            draw_descending(&mut rng, &DrawPlan::new(52, 39), &mut out);
            for (i, &r) in out.iter().enumerate() {
                assert!((r as usize) < 52 - i, "draw {i} = {r}");
                seen[i][r as usize] = true;
            }
        }
        for (i, s) in seen.iter().enumerate() {
            assert!(s[..52 - i].iter().all(|&x| x), "draw {i} misses a value");
        }
    }

    #[test]
    fn below_is_uniform_on_small_ranges() {
        // 60,000 draws in 0..6 and 0..13: every count within 5 standard deviations.
        let mut rng = deal_rng(9, 1);
        for n in [6u32, 13] {
            let mut counts = vec![0u32; n as usize];
            for _ in 0..60_000 {
                counts[below(&mut rng, n) as usize] += 1;
            }
            let mean = 60_000.0 / n as f64;
            let sd = (mean * (1.0 - 1.0 / n as f64)).sqrt();
            for &c in &counts {
                assert!((c as f64 - mean).abs() < 5.0 * sd, "n={n}: {counts:?}");
            }
        }
    }

    #[test]
    fn batch_digits_are_uniform_over_the_mixed_radix_product() {
        // A batch of bounds 5, 4, 3 (product 60) from one u64: the 60 digit triples are equally
        // likely (chi-square with 59 degrees of freedom, well below the 0.1 % point 98.3).
        let plan = DrawPlan::new(5, 3);
        assert_eq!(plan.len, 1);
        let mut rng = deal_rng(4, 2);
        let mut counts = [0u32; 60];
        let mut out = [0u8; 3];
        let n = 120_000;
        for _ in 0..n {
            draw_descending(&mut rng, &plan, &mut out);
            counts[out[0] as usize * 12 + out[1] as usize * 3 + out[2] as usize] += 1;
        }
        let e = n as f64 / 60.0;
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(chi2 < 98.3, "chi2 = {chi2}");
    }

    proptest! {
        #[test]
        fn nth_bit_picks_the_kth_set_bit(set in any::<u64>(), k in any::<u32>()) {
            prop_assume!(set != 0);
            let k = k % set.count_ones();
            let mut rest = set;
            for _ in 0..k {
                rest &= rest - 1;
            }
            let expect = rest & rest.wrapping_neg();
            prop_assert_eq!(nth_bit_portable(set, k), expect);
            prop_assert_eq!(nth_bit::<false>(set, k), expect);
            #[cfg(target_arch = "x86_64")]
            if fast_pdep() {
                prop_assert_eq!(unsafe { pdep_nth(set, k) }, expect);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn pdep_nth(set: u64, k: u32) -> u64 {
        nth_bit::<true>(set, k)
    }
}
