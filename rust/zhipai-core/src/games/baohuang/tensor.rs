//! The observation tensor of a Baohuang deal (the game trait's `observation_layout` /
//! `write_observation_tensor`): what one seat knows as float32 planes and scalars (the table is
//! [`FIELDS`]; `DealState`'s docs repeat it).
//!
//! Seats are **relative to the observer**: row / entry `i` of a per-seat field is the seat `i`
//! places after him in playing order (0 = himself). Card planes have 54 entries in kind order
//! (`suit × 13 + rank`: ♠2 … ♣A, then SJ, BJ) holding copies (0–4). What the observer does not
//! know is never written: another hand (unless `perfect`), the secret guard, the secret 明保/暗保
//! or 明独/暗独 choice, 暗独 (it reads 暗保), the cards of a 进贡 he took no part in.

use super::history::DealParts;
use super::scoring::Mode;
use super::search;
use super::state::{Phase, PLAYERS};
use crate::cards::{Card, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use crate::game::TensorField;
use crate::multiset::Multiset;

const K: usize = NUM_KINDS;
const P: usize = PLAYERS;

/// The fields in order: name, length, meaning. Offsets are the running sums.
pub const FIELDS: [(&str, usize, &str); 29] = [
    ("hand", K, "the observer's hand: copies of each card kind (0-4)"),
    ("played", P * K, "cards each seat played in this deal (row i = the seat i places after the observer)"),
    ("known", P * K, "cards the observer knows in each other hand: the scepter BJ, the 登基 card's copies the rules make certain, 进贡 cards (row 0 empty)"),
    ("voids", P * K, "1 = the seat is known to hold no card of that kind (进贡: nothing above the card given, nothing below the card returned)"),
    ("hands", P * K, "every seat's hand, with `perfect` only (zeros otherwise)"),
    ("play_to_beat", K, "the cards of the play to beat (zeros when the seat to act leads)"),
    ("play_owner", P, "one-hot: who made the play to beat"),
    ("pending", K, "the cards of the play being built card by card (pending_cards)"),
    ("phase", 8, "one-hot: accession, grab_window, forced, guard_choice, solo_choice, hidden_choice (another seat's secret 明保/暗保 or 明独/暗独), play, over (a void deal too)"),
    ("to_act", P, "one-hot: the seat to act (none once over, or while hidden_choice)"),
    ("scepter", P, "one-hot: the holder of the scepter mark (权杖)"),
    ("scepter_card", P, "one-hot: the seat holding the physical scepter BJ (differs with abdication_moves_card = false)"),
    ("first_dealt", P, "one-hot: the seat dealt first (the extra card)"),
    ("emperor", P, "one-hot: the emperor"),
    ("guard", P, "one-hot: the guard, when the observer knows him (himself, 明保, or the 登基 card played)"),
    ("dengji", K, "one-hot: the 登基 card"),
    ("mode", 5, "one-hot as the observer sees it: normal (暗保), open_guard (明保), grab (抢独), open_solo (明独), secret_solo (暗独; reads normal to all but the emperor); zeros before accession"),
    ("guard_revealed", 1, "1 once the guard is known to all"),
    ("hand_sizes", P, "cards each seat holds / 44"),
    ("places", P * P, "row i one-hot: the finishing place 1-5 of seat i (zeros while it holds cards)"),
    ("round", 4, "flags: the seat to act leads; the yielders' second circle; the seat to act may yield; may apply for 接风"),
    ("to_respond", P, "seats still to respond to the play to beat in this circle"),
    ("yielded", P, "seats that yielded (让牌) in this first circle"),
    ("passed", P, "seats out of this round by a pass (pass_is_final_for_round = true)"),
    ("jiefeng", P, "one-hot: the 接风 applicant"),
    ("counters", 3, "abdications / 5, plays / 216, min(redeals, 10) / 10"),
    ("tribute_places", P * P, "row i one-hot: the previous deal's place 1-5 of seat i that 进贡 was made from (zeros without 进贡)"),
    ("tribute_gave", K, "the card the observer gave in 进贡 (a giver: his highest; a receiver: the card he returned)"),
    ("tribute_got", K, "the card the observer received in 进贡"),
];

/// Offset of field `name` (a const lookup: the writer's offsets).
const fn offset(name: &str) -> usize {
    TensorField::offset_of(&FIELDS, name)
}

/// Length of the tensor.
pub const LEN: usize = TensorField::total_len(&FIELDS);

/// The layout as the trait returns it.
pub fn layout() -> Vec<TensorField> {
    TensorField::layout(&FIELDS)
}

fn cards(out: &mut [f32], at: usize, m: &Multiset) {
    m.add_counts(&mut out[at..at + K]);
}

fn one_hot(out: &mut [f32], at: usize, i: Option<usize>) {
    if let Some(i) = i {
        out[at + i] = 1.0;
    }
}

/// Write what `seat` knows (with `perfect`, every hand too) into `out` (`out.len() == LEN`).
/// Errors: `InvalidValue` for a seat out of range, a wrong length, or after `play_out` (which
/// records no history).
pub fn write(ds: &DealParts, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
    crate::game::check_seat(seat, P)?;
    if out.len() != LEN {
        return Err(ZhipaiError::invalid_value(
            "out",
            format!("{} floats", out.len()),
            format!("the Baohuang observation tensor has {LEN}"),
        ));
    }
    let me = seat as u8;
    let facts = search::facts(ds, me)?;
    let s = ds.state;
    out.fill(0.0);
    // Seat `p` as a row: places after the observer.
    let rel = |p: u8| (p as usize + P - seat) % P;
    cards(out, offset("hand"), s.hand(me));
    for p in 0..P as u8 {
        let r = rel(p);
        cards(out, offset("played") + r * K, &facts.played[p as usize]);
        if p != me {
            cards(out, offset("known") + r * K, &facts.fixed[p as usize]);
        }
        for c in facts.voids[p as usize].iter() {
            out[offset("voids") + r * K + c.index()] = 1.0;
        }
        if perfect {
            cards(out, offset("hands") + r * K, s.hand(p));
        }
        out[offset("hand_sizes") + r] = s.hand(p).len() as f32 / 44.0;
    }
    if s.play_to_beat().is_some() {
        let last =
            ds.history.iter().rev().take_while(|e| e.deal == ds.redeals).find_map(|e| match e.mv {
                super::Move::Play(c) => Some(c),
                _ => None,
            });
        if let Some(c) = last {
            cards(out, offset("play_to_beat"), &c);
        }
        one_hot(out, offset("play_owner"), Some(rel(s.round().owner)));
    }
    cards(out, offset("pending"), &ds.pending);
    let secret = matches!(s.phase(), Phase::GuardChoice | Phase::SoloChoice)
        && s.current_player() != Some(me);
    let phase = match s.phase() {
        _ if secret => 5,
        Phase::Accession => 0,
        Phase::GrabWindow => 1,
        Phase::Forced => 2,
        Phase::GuardChoice => 3,
        Phase::SoloChoice => 4,
        Phase::Play => 6,
        Phase::Over | Phase::Void => 7,
    };
    out[offset("phase") + phase] = 1.0;
    if !secret {
        one_hot(out, offset("to_act"), s.current_player().map(rel));
    }
    let (mark, card) = s.scepter();
    one_hot(out, offset("scepter"), Some(rel(mark)));
    one_hot(out, offset("scepter_card"), Some(rel(card)));
    one_hot(out, offset("first_dealt"), Some(rel(s.first_dealt())));
    one_hot(out, offset("emperor"), s.emperor().map(rel));
    let guard = s.guard().filter(|&g| g == me || s.guard_revealed());
    one_hot(out, offset("guard"), guard.map(rel));
    one_hot(out, offset("dengji"), s.dengji_card().map(Card::index));
    if s.emperor().is_some() && !matches!(s.phase(), Phase::GuardChoice | Phase::SoloChoice) {
        let mode = match s.mode() {
            Mode::SecretSolo if s.emperor() != Some(me) => Mode::Normal,
            m => m,
        };
        out[offset("mode") + mode.code() as usize] = 1.0;
    }
    out[offset("guard_revealed")] = s.guard_revealed() as u8 as f32;
    for (i, &p) in s.finishing_order().iter().enumerate() {
        out[offset("places") + rel(p) * P + i] = 1.0;
    }
    if s.phase() == Phase::Play {
        let r = s.round();
        let flags = [r.leading, r.second_circle, r.may_yield(), r.may_apply_jiefeng(s.rules())];
        for (i, f) in flags.into_iter().enumerate() {
            out[offset("round") + i] = f as u8 as f32;
        }
        for p in 0..P as u8 {
            let bit = |mask: u8| (mask >> p & 1) as f32;
            out[offset("to_respond") + rel(p)] = bit(r.to_respond());
            out[offset("yielded") + rel(p)] = bit(r.yielders());
            out[offset("passed") + rel(p)] = bit(r.passed());
        }
        one_hot(out, offset("jiefeng"), r.applicant.map(rel));
    }
    out[offset("counters")] = s.abdications() as f32 / 5.0;
    out[offset("counters") + 1] = s.plays() as f32 / 216.0;
    out[offset("counters") + 2] = ds.redeals.min(10) as f32 / 10.0;
    if let Some(places) = s.tribute() {
        for p in 0..P as u8 {
            out[offset("tribute_places") + rel(p) * P + places[p as usize] as usize - 1] = 1.0;
        }
        let seat_of = |place: u8| places.iter().position(|&x| x == place).map(|q| q as u8);
        let pairs = [(seat_of(5), seat_of(1)), (seat_of(4), seat_of(2))];
        for ((g, r), (given, returned)) in pairs.into_iter().zip(s.tribute_cards()) {
            let (gave, got) = if g == Some(me) {
                (given, returned)
            } else if r == Some(me) {
                (returned, given)
            } else {
                continue;
            };
            one_hot(out, offset("tribute_gave"), gave.map(Card::index));
            one_hot(out, offset("tribute_got"), got.map(Card::index));
        }
    }
    Ok(())
}
