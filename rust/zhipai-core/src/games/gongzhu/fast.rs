//! The one-deck random rollout on plain `u64` bitboards: deal, random exposure decisions, 13
//! tricks, no allocation. It follows exactly the rules of [`super::play`] and [`super::state`]
//! and draws the same random numbers in the same order as the general [`super::state::State`]
//! played by the `random` policy, so both give identical results for the same generator (a
//! property test checks this on every option combination that matters).

use super::options::{ExposedDiscard, ExposureMode, FirstLead, GongzhuRules};
use super::policy::pick_index;
use super::policy::{write_row, DealSummary};
use super::scoring::{Exposure, EXPOSABLE, PIG};
use super::state::shuffled_deck;
use crate::cards::Suit;
use crate::multiset::Multiset;
use rand::Rng;

const SUIT: u64 = 0x1FFF;

#[inline]
fn suit_mask(s: usize) -> u64 {
    SUIT << (13 * s)
}

#[inline]
fn suit_of_bit(bit: u64) -> usize {
    bit.trailing_zeros() as usize / 13
}

/// The `k`-th lowest set bit of `set` (as a one-bit mask; `k < set.count_ones()`): a
/// branchless binary search on bit counts, so a random `k` costs no mispredicted loop exit.
#[inline(always)]
fn nth_bit(set: u64, k: usize) -> u64 {
    let mut k = k as u32;
    let mut pos = 0u32;
    for width in [32u32, 16, 8, 4, 2, 1] {
        let low = (set >> pos) & ((1u64 << width) - 1);
        let c = low.count_ones();
        let skip = (k >= c) as u32;
        pos += skip * width;
        k -= skip * c;
    }
    1u64 << pos
}

/// The hand without the exposed cards barred in suits `barred_suits` (as
/// [`super::play::Position::playable`]).
/// The hand without the barred exposed cards (as [`super::play::Position::playable`]):
/// `guarded` suits only while an unexposed card of the suit is held, `always` suits outright;
/// never empty for a non-empty hand (the general fallback).
#[inline(always)]
fn playable(hand: u64, exposed: u64, guarded: u8, always: u8) -> u64 {
    if exposed == 0 {
        return hand;
    }
    let mut out = hand;
    for s in 0..4 {
        let m = suit_mask(s);
        let e = exposed & m;
        let bit = 1u8 << s;
        if e != 0 && (always & bit != 0 || guarded & bit != 0 && (hand & m & !e) != 0) {
            out &= !e;
        }
    }
    if out == 0 {
        hand
    } else {
        out
    }
}

/// Play one first-of-match, one-deck deal with uniformly random decisions.
pub fn random_deal<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R) -> DealSummary {
    random_deal_body(rules, rng)
}

/// Play one deal as [`random_deal`] and write its result row ([`write_row`]).
pub fn random_deal_row<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R, row: &mut [i32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports `popcnt`, checked just above.
            return unsafe { random_deal_row_popcnt(rules, rng, row) };
        }
    }
    write_row(rules, &random_deal_body(rules, rng), row)
}

/// The same rollout and scoring compiled with the `popcnt` instruction (bit counts are much of
/// the work; the default x86-64 target counts bits in software).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn random_deal_row_popcnt<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    rng: &mut R,
    row: &mut [i32],
) {
    write_row(rules, &random_deal_body(rules, rng), row)
}

#[inline(always)]
fn random_deal_body<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R) -> DealSummary {
    let deck = shuffled_deck(rules, rng);
    let mut hands = [0u64; 4];
    for (s, hand) in hands.iter_mut().enumerate() {
        for c in &deck[13 * s..13 * s + 13] {
            *hand |= c.bit();
        }
    }
    let (leader, mut forced) = match rules.first_lead_card {
        FirstLead::Card(c) => ((0..4).find(|&s| hands[s] & c.bit() != 0).unwrap_or(0), c.bit()),
        FirstLead::Rotate => (0, 0),
    };
    let mut open = [0u64; 4];
    let mut closed = [0u64; 4];
    let mut auto_exposed = false;
    if rules.exposure_mode != ExposureMode::None {
        let closed_open = rules.exposure_mode == ExposureMode::ClosedOpen;
        let mut seat = leader;
        for _ in 0..4 {
            loop {
                // Options in the order of `State::legal_moves`: per exposable card, open then
                // closed; the end of exposure last.
                let mut opts = [0u8; 9];
                let mut n = 0;
                for (i, c) in EXPOSABLE.iter().enumerate() {
                    if hands[seat] & !(open[seat] | closed[seat]) & c.bit() != 0 {
                        opts[n] = i as u8;
                        n += 1;
                        if closed_open {
                            opts[n] = 4 + i as u8;
                            n += 1;
                        }
                    }
                }
                opts[n] = 8;
                n += 1;
                match opts[pick_index(rng, n)] {
                    8 => break,
                    i if i < 4 => open[seat] |= EXPOSABLE[i as usize].bit(),
                    i => closed[seat] |= EXPOSABLE[i as usize - 4].bit(),
                }
            }
            seat = rules.next_seat(seat);
        }
        let e = exposure(rules, &open, &closed);
        if let Some(i) = e.auto_fourth(rules) {
            let bit = EXPOSABLE[i].bit();
            if let Some(s) = (0..4).find(|&s| hands[s] & bit != 0) {
                open[s] |= bit;
                auto_exposed = true;
            }
        }
    }
    let forbidden = rules.exposed_discard_before_first_round == ExposedDiscard::Forbidden;
    let mut restricted = open;
    let mut taken = [0u64; 4];
    let mut suits_led = 0u8;
    let mut lead_seat = leader;
    let mut pig_taker = None;
    // The seat after `s` is `(s + step) % 4` (§A.2 direction).
    let step = rules.next_seat(0);
    for _ in 0..13 {
        let mut seat = lead_seat;
        let legal = if forced != 0 {
            forced
        } else {
            playable(hands[seat], restricted[seat], 0xF & !suits_led, 0)
        };
        let lead = nth_bit(legal, pick_index(rng, legal.count_ones() as usize));
        hands[seat] &= !lead;
        restricted[seat] &= !lead;
        let led = suit_of_bit(lead);
        let led_mask = suit_mask(led);
        let open = 0xF & !suits_led;
        let guarded = open & (1 << led);
        let always = if forbidden { open & !(1 << led) } else { 0 };
        let (mut best, mut winner, mut cards) = (lead, seat, lead);
        for _ in 0..3 {
            seat = (seat + step) & 3;
            let p = playable(hands[seat], restricted[seat], guarded, always);
            let follow = p & led_mask;
            let legal = if follow != 0 { follow } else { p };
            let bit = nth_bit(legal, pick_index(rng, legal.count_ones() as usize));
            hands[seat] &= !bit;
            restricted[seat] &= !bit;
            cards |= bit;
            // In one deck the highest card of the led suit is the highest such bit.
            if bit & led_mask != 0 && bit > best {
                best = bit;
                winner = seat;
            }
        }
        forced = 0;
        taken[winner] |= cards;
        if cards & PIG.bit() != 0 {
            pig_taker = Some(winner);
        }
        suits_led |= 1 << led;
        lead_seat = winner;
    }
    DealSummary {
        taken: taken.map(|t| Multiset::from_set(crate::cards::CardSet(t))),
        exposure: exposure(rules, &open, &closed),
        auto_exposed,
        first_leader: leader,
        tricks: 13,
        next_leader: pig_taker,
    }
}

/// Exposure levels as [`super::state::State::exposure`] computes them.
fn exposure(rules: &GongzhuRules, open: &[u64; 4], closed: &[u64; 4]) -> Exposure {
    let open_weight = if rules.exposure_mode == ExposureMode::ClosedOpen { 2 } else { 1 };
    let mut e = Exposure::default();
    for (i, c) in EXPOSABLE.iter().enumerate() {
        for s in 0..4 {
            e.level[i] +=
                open_weight * (open[s] & c.bit() != 0) as u8 + (closed[s] & c.bit() != 0) as u8;
        }
    }
    e
}

const _: () = assert!(Suit::Spades as usize == 0);
