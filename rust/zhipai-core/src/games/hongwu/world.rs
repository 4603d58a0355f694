//! Determinisation of a Hong Wu deal: what one seat knows of the cards it cannot see
//! ([`seat_view`]) and the check that a redrawn set of hidden cards fits it ([`fit_hidden`]),
//! behind [`crate::game::GameState::seat_view`] and [`crate::game::GameState::with_hidden`].
//!
//! **What a seat's view holds** (conditioned on, hongwu.md §B):
//! * its own hand (25 cards, or the dealer's 33 between the kitty pickup and the burial, §B.3);
//! * every card out of play: the cards played in completed tricks and in the current one;
//! * how many cards each seat holds, and the kitty's size (8 while it lies dealt and once
//!   buried, 0 while it is in the dealer's hand during the burial);
//! * the buried kitty when the seat is the dealer (it buried it), and for every seat once the deal
//!   is over (the kitty's points are scored, §B.10);
//! * the cards each seat showed in a failed throw (§B.7) and has not played since (known to be
//!   in its hand; counted kind by kind);
//! * the voids shown by play: a seat that followed a lead of `n` cards with fewer than `n` cards
//!   of the led effective suit (trumps are one suit) holds none of it any more (§B.8);
//! * what a throw that stood proves: none of the three others held a single above any of its
//!   single components (with `throw_check = literal`: no card of the suit above its lowest card),
//!   so they hold none now.
//!
//! The auction and the trump choice show no card; the winning bid and the dealer are public
//! (they are in the state, not in the view).
//!
//! **Not conditioned on** (the hidden cards are uniform over the deals consistent with the view
//! above, as if these said nothing): what the bids, the trump choice, the burial's timing or any
//! other choice of a player suggests about its hand; the absence of pairs and tractors implied
//! by a follow that did not match the lead's shape (§B.8 shape obligations); what a standing
//! throw proves about pairs and tractors (no other hand held a higher pair or tractor of the
//! suit), and what a failed throw proves (some other hand could beat one of its components).
//! So in a world a recorded throw might have ended differently and a recorded follow might have
//! broken a shape obligation; every recorded card was held, and every follow followed suit.

use super::auction::PLAYERS;
use super::state::{HongWuState, Phase};
use super::DECKS;
use crate::deal::{Constraints, Deal};
use crate::error::{Result, ZhipaiError};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;

/// Whether `seat` knows the kitty now: the dealer once it has buried it, everyone once the deal
/// is over.
pub fn kitty_known(s: &HongWuState, seat: usize) -> bool {
    match s.phase() {
        Phase::Play => s.is_dealer(seat),
        Phase::Over => true,
        Phase::Auction | Phase::Trump | Phase::Kitty => false,
    }
}

/// What `seat` knows of the cards it cannot see (module docs). `seat` must be 0 to 3.
pub fn seat_view(s: &HongWuState, seat: usize) -> SeatView {
    let mut gone = Multiset::EMPTY;
    for p in 0..PLAYERS {
        for c in s.played_by(p).iter() {
            gone.add(c);
        }
    }
    let mut known = Constraints::new().fix_hand(seat, s.hand(seat));
    if kitty_known(s, seat) {
        known = known.in_kitty(s.kitty());
    }
    for p in (0..PLAYERS).filter(|&p| p != seat) {
        let shown = s.shown(p);
        if !shown.is_empty() {
            known = known.fix_hand(p, shown);
        }
        let absent = s.not_held(p);
        if !absent.is_empty() && !s.hand(p).is_empty() {
            known = known.void(p, absent);
        }
    }
    SeatView {
        decks: DECKS,
        jokers: true,
        holding: (0..PLAYERS).map(|p| s.hand(p).len()).collect(),
        kitty: s.kitty().len(),
        gone,
        known,
    }
}

/// The hands and kitty of a world: `hidden` checked against `view` (the view of `seat` in `s`).
/// Errors (`InvalidValue`) name the first misfit: the number of hands, a size, the seat's own
/// hand or the known kitty changed, a known card missing from its hand, a card in a seat known
/// not to hold it, or cards that are not exactly those still in play.
pub fn fit_hidden(
    s: &HongWuState,
    seat: usize,
    view: &SeatView,
    hidden: &Deal,
) -> Result<([Multiset; PLAYERS], Multiset)> {
    let misfit = |what: String, why: String| Err(ZhipaiError::invalid_value("hidden", what, why));
    if hidden.hands.len() != PLAYERS {
        return misfit(
            format!("({} hands)", hidden.hands.len()),
            "a Hong Wu world has 4 hands".into(),
        );
    }
    for (p, h) in hidden.hands.iter().enumerate() {
        if h.len() != view.holding[p] {
            return misfit(
                format!("hand {p} {h}"),
                format!("seat {p} holds {} cards, not {}", view.holding[p], h.len()),
            );
        }
    }
    if hidden.kitty.len() != view.kitty {
        return misfit(
            format!("kitty {}", hidden.kitty),
            format!("the kitty holds {} cards, not {}", view.kitty, hidden.kitty.len()),
        );
    }
    if hidden.hands[seat] != s.hand(seat) {
        return misfit(
            format!("hand {seat} {}", hidden.hands[seat]),
            format!("seat {seat}'s own hand is {}", s.hand(seat)),
        );
    }
    if kitty_known(s, seat) && hidden.kitty != s.kitty() {
        return misfit(
            format!("kitty {}", hidden.kitty),
            format!("seat {seat} knows the kitty: {}", s.kitty()),
        );
    }
    for p in (0..PLAYERS).filter(|&p| p != seat) {
        let h = &hidden.hands[p];
        if let Some(&fixed) = view.known.fixed.get(p) {
            if !h.contains_all(&fixed) {
                return misfit(
                    format!("hand {p} {h}"),
                    format!("seat {p} is known to hold {fixed} (a failed throw, §B.7)"),
                );
            }
        }
        if let Some(&absent) = view.known.voids.get(p) {
            let bad = h.kinds().intersect(absent);
            if !bad.is_empty() {
                return misfit(
                    format!("hand {p} {h}"),
                    format!("seat {p} is known to hold none of {}", Multiset::from_set(bad)),
                );
            }
        }
    }
    let mut all = view.gone;
    for m in hidden.hands.iter().chain(std::iter::once(&hidden.kitty)) {
        for c in m.iter() {
            if all.count(c) >= DECKS {
                return misfit(
                    format!("card {c}"),
                    "more copies than two decks hold, with the cards out of play".into(),
                );
            }
            all.add(c);
        }
    }
    // Sizes add up to the 108 cards, and no kind exceeds two copies: exactly two decks.
    debug_assert_eq!(all, Multiset::full_decks(DECKS, true).expect("two decks"));
    let hands: [Multiset; PLAYERS] = hidden.hands.clone().try_into().expect("checked: 4 hands");
    Ok((hands, hidden.kitty))
}
