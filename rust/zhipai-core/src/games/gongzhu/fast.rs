//! The one-deck random rollout on plain `u64` bitboards: deal, random exposure decisions, 13
//! tricks, no allocation. It follows exactly the rules of [`super::play`] and [`super::state`]
//! and draws the same random numbers in the same order as the general [`super::state::State`]
//! played by the `random` policy, so both give identical results for the same generator (a
//! property test checks this on every option combination that matters).
//!
//! Why it is fast: a hand is one `u64`; the legal cards of a follow are `hand & suit` (or the
//! hand); a uniform choice among them is one bounded draw ([`pick_index`]) and the `k`-th set
//! bit (`pdep` where fast); the trick winner is the highest bit of the led suit. The exposed-card
//! restriction (§A.7) is evaluated only in the tricks where it can matter, and there without
//! branches (a random deal's exposures are random: branches on them would be mispredicted).
//! Random draws: 4 `u64`s deal the hands ([`crate::sample::draw_descending`]), one `u32` per
//! decision.
//!
//! What is uniform over what (exactly, no rounding bias): the deal over all partitions of the 52
//! cards into four hands of 13; each exposure decision over the options of
//! [`super::state::State::legal_moves`] (expose each exposable card still held openly — and
//! closed in `closed_open` mode — or end); each play over the seat's legal cards.

use super::options::{ExposedDiscard, ExposureMode, FirstLead, GongzhuRules};
use super::policy::pick_index;
use super::row::{write_row_of, DealSummary};
use super::scoring::{Exposure, Takes, EXPOSABLE, PIG};
use super::state::DEAL_ONE_DECK;
use super::state::ONE_DECK;
use crate::cards::{CardSet, Suit};
use crate::multiset::Multiset;
use crate::sample::{draw_descending, fast_pdep, nth_bit};
use rand::Rng;

const SUIT: u64 = 0x1FFF;

#[inline(always)]
fn suit_mask(s: u32) -> u64 {
    SUIT << (13 * s)
}

/// The hand without the exposed cards barred in this trick (as
/// [`super::play::Position::playable`]; branch-free: a random deal's exposures are random). `e`:
/// the seat's exposed cards still held in suits not yet led; `guarded`: card mask of the suits
/// whose exposed cards are barred while another card of the suit is held (the led suit, or every
/// suit not yet led when leading); `always`: card mask of the suits barred outright. Never empty
/// for a non-empty hand (the general fallback).
#[inline(always)]
fn playable(hand: u64, e: u64, guarded: u64, always: u64) -> u64 {
    let mut barred = e & always;
    for m in [SUIT, SUIT << 13, SUIT << 26, SUIT << 39] {
        let m = m & guarded;
        let es = e & m;
        barred |= if hand & m & !es != 0 { es } else { 0 };
    }
    let out = hand & !barred;
    if out == 0 {
        hand
    } else {
        out
    }
}

/// [`playable`] on a follow: only the led suit (`led_mask`) can be guarded.
#[inline(always)]
fn playable_follow(hand: u64, e: u64, led_mask: u64, always: u64) -> u64 {
    let es = e & led_mask;
    let barred = (e & always) | if hand & led_mask & !es != 0 { es } else { 0 };
    let out = hand & !barred;
    if out == 0 {
        hand
    } else {
        out
    }
}

/// The seat (0..4) whose hand holds `bit` (0 if none).
#[inline(always)]
fn holder(hands: &[u64; 4], bit: u64) -> usize {
    (hands[1] & bit != 0) as usize
        | ((hands[2] & bit != 0) as usize * 2)
        | ((hands[3] & bit != 0) as usize * 3)
}

/// A uniformly random card of the non-empty set `legal` (the `random` policy's choice among the
/// legal plays, listed in card order by [`super::play::legal_plays`]).
#[inline(always)]
fn pick_card<R: Rng + ?Sized, const PDEP: bool>(rng: &mut R, legal: u64) -> u64 {
    nth_bit::<PDEP>(legal, pick_index(rng, legal.count_ones() as usize) as u32)
}

/// Play one first-of-match, one-deck deal with uniformly random decisions.
pub fn random_deal<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R) -> DealSummary {
    dispatch(rules, rng, None)
}

/// Play one deal as [`random_deal`] and write its result row ([`super::row::write_row`]).
pub fn random_deal_row<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R, row: &mut [i32]) {
    dispatch(rules, rng, Some(row));
}

/// Play one deal (and write its row if given), compiled for the best instruction set the CPU
/// has: `pdep` + `popcnt` (picking the `k`-th legal card and counting cards are most of the
/// work), `popcnt` alone, or the portable code. All three give the same result.
#[inline(always)]
fn dispatch<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    rng: &mut R,
    row: Option<&mut [i32]>,
) -> DealSummary {
    #[cfg(target_arch = "x86_64")]
    {
        if fast_pdep() {
            // SAFETY: the CPU supports `bmi1`, `bmi2`, `lzcnt` and `popcnt` (`fast_pdep`).
            return unsafe { deal_and_row_bmi2(rules, rng, row) };
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports `popcnt`, checked just above.
            return unsafe { deal_and_row_popcnt(rules, rng, row) };
        }
    }
    deal_and_row::<R, false>(rules, rng, row)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
unsafe fn deal_and_row_bmi2<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    rng: &mut R,
    row: Option<&mut [i32]>,
) -> DealSummary {
    deal_and_row::<R, true>(rules, rng, row)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn deal_and_row_popcnt<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    rng: &mut R,
    row: Option<&mut [i32]>,
) -> DealSummary {
    deal_and_row::<R, false>(rules, rng, row)
}

#[inline(always)]
fn deal_and_row<R: Rng + ?Sized, const PDEP: bool>(
    rules: &GongzhuRules,
    rng: &mut R,
    row: Option<&mut [i32]>,
) -> DealSummary {
    let (taken, d) = random_deal_body::<R, PDEP>(rules, rng);
    if let Some(row) = row {
        let mut takes = [Takes::default(); 4];
        for (t, &cards) in takes.iter_mut().zip(&taken) {
            *t = Takes::of_set(cards);
        }
        write_row_of(rules, &takes, &d, row);
        return d;
    }
    DealSummary { taken: taken.map(|t| Multiset::from_set(CardSet(t))), ..d }
}

/// The deal of [`super::state::deal_hands`] on bitboards.
#[inline(always)]
fn deal<R: Rng + ?Sized, const PDEP: bool>(rng: &mut R) -> [u64; 4] {
    let mut draws = [0u8; 39];
    draw_descending(rng, &DEAL_ONE_DECK, &mut draws);
    let mut rest = ONE_DECK;
    let mut hands = [0u64; 4];
    for (hand, seat_draws) in hands.iter_mut().zip(draws.chunks_exact(13)) {
        for &r in seat_draws {
            let bit = nth_bit::<PDEP>(rest, r as u32);
            rest ^= bit;
            *hand |= bit;
        }
    }
    hands[3] = rest;
    hands
}

/// The exposable cards (index bits of [`EXPOSABLE`]) in `hand`.
#[inline(always)]
fn exposable_in(hand: u64) -> u32 {
    EXPOSABLE.iter().enumerate().fold(0, |m, (i, c)| m | (((hand & c.bit() != 0) as u32) << i))
}

/// The random exposure decisions (§A.6) in the order of `State::legal_moves`, then the 3-of-4
/// rule: the exposure levels, the openly exposed cards per seat and whether the rule applied.
#[inline(always)]
fn random_exposure<R: Rng + ?Sized, const PDEP: bool>(
    rules: &GongzhuRules,
    rng: &mut R,
    hands: &[u64; 4],
    leader: usize,
) -> (Exposure, [u64; 4], bool) {
    let mut e = Exposure::default();
    let mut open = [0u64; 4];
    if rules.exposure_mode == ExposureMode::None {
        return (e, open, false);
    }
    // Options per exposable card held: open (and closed, in closed_open mode), then the end.
    let closed_open = rules.exposure_mode == ExposureMode::ClosedOpen;
    let per = 1 + closed_open as u32;
    let mut seat = leader;
    for _ in 0..4 {
        let mut avail = exposable_in(hands[seat]);
        loop {
            let n = per * avail.count_ones() + 1;
            let r = pick_index(rng, n as usize) as u32;
            if r == n - 1 {
                break;
            }
            let i = nth_bit::<PDEP>(avail as u64, r / per).trailing_zeros() as usize;
            avail &= !(1 << i);
            if closed_open && r % 2 == 1 {
                e.level[i] += 1;
            } else {
                open[seat] |= EXPOSABLE[i].bit();
                e.level[i] += per as u8;
            }
        }
        seat = rules.next_seat(seat);
    }
    let mut auto = false;
    if let Some(i) = e.auto_fourth(rules) {
        let bit = EXPOSABLE[i].bit();
        open[holder(hands, bit)] |= bit;
        e.level[i] += 1;
        auto = true;
    }
    (e, open, auto)
}

/// The cards each seat took (bitboards) and the rest of the deal's summary (its `taken` left
/// empty).
#[inline(always)]
fn random_deal_body<R: Rng + ?Sized, const PDEP: bool>(
    rules: &GongzhuRules,
    rng: &mut R,
) -> ([u64; 4], DealSummary) {
    let mut hands = deal::<R, PDEP>(rng);
    let (leader, mut forced) = match rules.first_lead_card {
        FirstLead::Card(c) => (holder(&hands, c.bit()), c.bit()),
        FirstLead::Rotate => (0, 0),
    };
    let (exposure, open, auto_exposed) = random_exposure::<R, PDEP>(rules, rng, &hands, leader);
    let forbidden = rules.exposed_discard_before_first_round == ExposedDiscard::Forbidden;
    let mut taken = [0u64; 4];
    // Cards of the suits not yet led.
    let mut not_led = ONE_DECK;
    let mut lead_seat = leader;
    let mut pig_taker = 0;
    // The seat after `s` is `(s + step) % 4` (§A.2 direction).
    let step = rules.next_seat(0);
    // Exposed cards (all seats) not yet played.
    let mut exposed = open[0] | open[1] | open[2] | open[3];
    for _ in 0..13 {
        let seat0 = lead_seat;
        let hand = hands[seat0];
        // §A.7 matters only while an exposed card of a suit not yet led is still held: true in
        // the first tricks of most deals, then false for good (one mispredicted branch).
        let live = exposed & not_led != 0;
        let legal = if forced != 0 {
            forced
        } else if live {
            playable(hand, open[seat0] & hand & not_led, not_led, 0)
        } else {
            hand
        };
        let lead = pick_card::<R, PDEP>(rng, legal);
        hands[seat0] = hand ^ lead;
        let led = lead.trailing_zeros() / 13;
        let led_mask = suit_mask(led);
        let always = if forbidden { not_led & !led_mask } else { 0 };
        let mut plays = [lead; 4];
        let mut seat = seat0;
        for play in plays.iter_mut().skip(1) {
            seat = (seat + step) & 3;
            let hand = hands[seat];
            let p = if live {
                playable_follow(hand, open[seat] & hand & not_led, led_mask, always)
            } else {
                hand
            };
            let follow = p & led_mask;
            let legal = if follow != 0 { follow } else { p };
            let bit = pick_card::<R, PDEP>(rng, legal);
            hands[seat] = hand ^ bit;
            *play = bit;
        }
        let cards = plays[0] | plays[1] | plays[2] | plays[3];
        // In one deck the highest card of the led suit is the highest such bit.
        let top = 1u64 << (63 - (cards & led_mask).leading_zeros());
        let offset = (plays[1] == top) as usize
            | ((plays[2] == top) as usize * 2)
            | ((plays[3] == top) as usize * 3);
        let winner = (seat0 + offset * step) & 3;
        taken[winner] |= cards;
        if cards & PIG.bit() != 0 {
            pig_taker = winner;
        }
        forced = 0;
        exposed &= !cards;
        not_led &= !led_mask;
        lead_seat = winner;
    }
    let summary = DealSummary {
        taken: [Multiset::EMPTY; 4],
        exposure,
        auto_exposed,
        first_leader: leader,
        tricks: 13,
        next_leader: Some(pig_taker),
    };
    (taken, summary)
}

const _: () = assert!(Suit::Spades as usize == 0);
