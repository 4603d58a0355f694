//! The observation tensor of a Gongzhu deal (float32, one layout for every Gongzhu rule set):
//! what one seat knows, and with `perfect` every hand too. Card fields are count planes over the
//! 54 card kinds (index `suit · 13 + rank`, suits ♠ ♥ ♦ ♣, ranks 2…A; the two joker entries stay
//! 0): a count is 0, 1 or 2 (two decks). Seats are relative to the observer: entry `k` of a
//! per-seat field is seat `(observer + k) % 4` (0 = the observer). The table is [`FIELDS`]
//! (names, lengths, meanings); [`layout`] adds the offsets.
//!
//! Gongzhu builds no move card by card (every action is a whole move), so there is no field for
//! pending cards. Not in it: another seat's closed declarations (only their number), and the
//! kinds a seat is known to hold no copy of after the two-deck automatic exposure (see
//! [`super::view`]; voids by suit are in it).

use super::options::ExposureMode;
use super::scoring::raw_score;
use super::state::{Phase, State};
use crate::cards::NUM_KINDS;
use crate::error::{Result, ZhipaiError};
use crate::game::{check_seat, TensorField, TensorWriter};
use crate::multiset::Multiset;

const K: usize = NUM_KINDS;

/// The fields in order: name, length, meaning.
pub const FIELDS: [(&str, usize, &str); 22] = [
    ("hand", K, "the observer's hand (counts per card kind)"),
    ("played", 4 * K, "cards each seat has played so far (completed tricks and the current one), per relative seat"),
    ("current_trick", 4 * K, "the cards of the trick in progress, per relative seat"),
    ("taken", 4 * K, "cards each seat has taken in won tricks, per relative seat"),
    ("exposed", 4 * K, "copies each seat exposed openly (§A.6, the automatic exposure included), per relative seat"),
    ("known_held", 4 * K, "cards each seat is known to hold: the observer's hand; another seat's open exposed copies not played since and the first-lead card it must still lead"),
    ("own_closed", K, "the observer's own closed declarations (exposure_mode = closed_open)"),
    ("perfect_hands", 4 * K, "every seat's hand, per relative seat, when `perfect`; zeros otherwise"),
    ("hand_sizes", 4, "cards each relative seat holds / (13 · decks)"),
    ("closed_counts", 4, "closed declarations each relative seat made / 4 (their cards are secret)"),
    ("exposure_levels", 4, "exposure level e of ♠Q ♦J ♣10 ♥A as the observer knows it (open ones and its own closed ones) / 4"),
    ("voids", 16, "suit s (♠ ♥ ♦ ♣) at 4·k + s: relative seat k has shown it holds no card of the suit beyond its known exposed copies"),
    ("phase", 3, "one-hot: exposure, play, done"),
    ("to_act", 4, "one-hot: the relative seat to act (zeros once over)"),
    ("trick_leader", 4, "one-hot: the relative seat that led (or leads) the trick in progress"),
    ("first_leader", 4, "one-hot: the relative seat that led the first trick"),
    ("tricks_played", 1, "completed tricks / (13 · decks)"),
    ("lead_shape", 2, "one-hot: the trick in progress was led with one card / a pair (zeros before its lead)"),
    ("raw_scores", 4, "each relative seat's raw score from its taken cards and the known exposure levels / 400"),
    ("two_decks", 1, "1 with two decks"),
    ("partnership", 1, "1 in partnership play (seats 0+2 against 1+3)"),
    ("closed_open", 1, "1 under exposure_mode = closed_open"),
];

/// The tensor's length.
pub const LEN: usize = TensorField::total_len(&FIELDS);

/// The fields with their offsets.
pub fn layout() -> Vec<TensorField> {
    TensorField::layout(&FIELDS)
}

/// Write what `seat` knows (every hand too with `perfect`) into `out` ([`LEN`] floats, every one
/// written: the caller need not clear it).
pub fn write(state: &State, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
    check_seat(seat, 4)?;
    if out.len() != LEN {
        return Err(ZhipaiError::invalid_value(
            "observation tensor length",
            out.len(),
            format!("the Gongzhu tensor has {LEN} floats"),
        ));
    }
    let rules = state.rules();
    let decks = rules.decks as f32;
    let rel = |s: usize| (s + 4 - seat) % 4;
    // Seat at observer-relative index r.
    let at = |r: usize| (seat + r) % 4;
    let mut w = TensorWriter::new(out);
    w.cards(state.hand(seat));
    for r in 0..4 {
        w.cards(state.played_by(at(r)));
    }
    let trick = w.take(4 * K);
    let (leader, plays) = state.current_trick();
    let mut s = leader;
    for p in plays {
        for &c in p.cards() {
            trick[rel(s) * K + c.index()] += 1.0;
        }
        s = rules.next_seat(s);
    }
    for r in 0..4 {
        w.cards(state.taken(at(r)));
    }
    for r in 0..4 {
        w.cards(state.exposed(at(r)).0);
    }
    for r in 0..4 {
        w.cards(&super::view::known_in_hand(state, seat, at(r)));
    }
    w.cards(state.exposed(seat).1);
    for r in 0..4 {
        w.cards(if perfect { state.hand(at(r)) } else { &Multiset::EMPTY });
    }
    for (r, o) in w.take(4).iter_mut().enumerate() {
        *o = state.hand(at(r)).len() as f32 / (13.0 * decks);
    }
    for (r, o) in w.take(4).iter_mut().enumerate() {
        *o = state.exposed(at(r)).1.len() as f32 / 4.0;
    }
    let exposure = super::greedy::known_exposure(state, seat);
    for (o, &l) in w.take(4).iter_mut().zip(&exposure.level) {
        *o = l as f32 / 4.0;
    }
    for r in 0..4 {
        w.flags(state.exposure_voids_seen_by(at(r), seat), 4);
    }
    w.one_hot(
        3,
        Some(match state.phase() {
            Phase::Exposure => 0,
            Phase::Play => 1,
            Phase::Done => 2,
        }),
    );
    w.one_hot(4, state.current_player().map(rel));
    w.one_hot(4, Some(rel(leader)));
    w.one_hot(4, Some(rel(state.first_leader())));
    w.scalar(state.tricks_played() as f32 / (13.0 * decks));
    w.one_hot(2, plays.first().map(|lead| lead.len() - 1));
    for (r, o) in w.take(4).iter_mut().enumerate() {
        *o = raw_score(rules, state.taken(at(r)), &exposure) as f32 / 400.0;
    }
    w.scalar((rules.decks == 2) as u8 as f32);
    w.scalar(rules.partnership as u8 as f32);
    w.scalar((rules.exposure_mode == ExposureMode::ClosedOpen) as u8 as f32);
    debug_assert_eq!(w.written(), LEN, "every field written");
    Ok(())
}
