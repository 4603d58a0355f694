//! Determinisation of a [`Deal`]: what one seat knows of the cards it cannot see
//! ([`Deal::seat_view`]) and a *world* — the same deal with those cards redrawn
//! ([`Deal::with_hidden`]), in every phase where a seat decides (shengji.md §1–§7).
//!
//! **Conditioned on** (the view's places and constraints; the hidden cards are then dealt
//! uniformly among the consistent deals by the exact constrained dealer):
//! * the seat's own hand (while dealing: the cards received so far);
//! * every card out of play (completed tricks and the current one);
//! * how many cards each seat holds, the kitty's size, and while dealing the undealt stock as
//!   one more place after the four seats (the kitty is its end);
//! * the kitty when the seat buried it (the dealer, or the last 炒底 overcaller), and, while a
//!   炒底 overcaller buries again, the seat's own burial it picked up (in that hand);
//! * cards shown in a declaration (dealing or 炒底) by a seat that has not buried since — a
//!   burier may have buried them — and the cards of a failed throw that were not played (§4.5),
//!   minus one copy per copy the seat has played since ([`Deal::known_in_hand`]);
//! * the voids shown by play: a seat that followed a lead of `n` cards with fewer cards of the
//!   led effective suit holds none of it (§5 F1);
//! * while dealing, when each declaration was made: its cards were among those received by then
//!   (the world's stock order is uniform among the orders consistent with this and with the
//!   seat's own cards, [`Deal::with_hidden`]).
//!
//! **Not conditioned on**: what the other seats' choices say about their hands (which bids they
//! did not make — a seat without a legal bid is never asked, and passes are secret —, which
//! cards they kept or led); a pair or tractor missing from a follow that did not match the
//! lead's shape (§5 F2: such a follower held no pair of the suit then); the outcome of a throw
//! check (a throw that stood says no other hand held a beating combination, a failed one that
//! some hand did); the cards of an earlier burial that a 炒底 overcaller picked up and buried
//! again (known only to be in its hand or in the kitty).

use super::{hand_and_kitty, Deal, Phase, NUM_PLAYERS};
use crate::cards::{Card, CardSet, NUM_KINDS};
use crate::deal::{Constraints, Deal as Cards};
use crate::error::{Result, ZhipaiError};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::sample::below;
use crate::tricks::order::NUM_EFFECTIVE_SUITS;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

impl Deal {
    /// What `seat` knows now of the cards it cannot see (module docs): places in seat order,
    /// then, while dealing, the undealt stock. `InvalidValue` for a seat outside 0..4.
    pub fn seat_view(&self, seat: u8) -> Result<SeatView> {
        if seat as usize >= NUM_PLAYERS {
            return Err(ZhipaiError::invalid_value("seat", seat, "players are 0..=3"));
        }
        let s = seat as usize;
        let mut holding: Vec<usize> = self.hands.iter().map(|h| h.len()).collect();
        let dealing = self.phase == Phase::Dealing;
        if dealing {
            holding.push(self.stock_size() - self.dealt);
        }
        let mut known = Constraints::new();
        for p in 0..NUM_PLAYERS {
            let cards = if p == s { self.hands[p] } else { self.known_by(s, p) };
            known = known.fix_hand(p, cards);
        }
        if self.kitty_owner == seat && self.kitty_lies_buried() {
            known = known.in_kitty(self.kitty); // it buried the kitty (§2.4; or a 炒底 overcall)
        }
        if let Some(tr) = self.tr.as_deref() {
            for p in (0..NUM_PLAYERS).filter(|&p| p != s) {
                let voids = self.shown_voids(p as u8);
                let mask = (0..NUM_EFFECTIVE_SUITS)
                    .filter(|e| voids & (1 << e) != 0)
                    .fold(CardSet::EMPTY, |m, e| m | tr.order.suit_mask(e));
                if !mask.is_empty() {
                    known = known.void(p, mask);
                }
            }
        }
        Ok(SeatView {
            decks: self.rules.decks as usize,
            jokers: true,
            holding,
            kitty: self.kitty.len(),
            gone: self.cards_out(),
            known,
        })
    }

    /// A world (module docs): this deal with every card `seat` cannot see replaced by `hidden`
    /// (one deal of [`Deal::seat_view`]'s places: the four seats, then while dealing the undealt
    /// stock; and the kitty), its generator drawn from `rng`. While dealing, the stock is
    /// rebuilt uniformly among the orders consistent with what the seat saw: its own cards where
    /// it received them, every declaration made with cards already received, the undealt stock
    /// in a uniform order ([`Deal::rebuild_stock`]). Private facts of other seats are redrawn
    /// to fit: the kitty buried by another seat is `hidden.kitty`; what a 炒底 overcaller picked
    /// up from another seat's burial is a uniform choice among its cards not known otherwise. The seat to move stays the same: another seat
    /// asked to declare (dealing, 炒底) may hold no legal bid in the world (the seat cannot see
    /// who is asked), and then its only move is to pass; a move another seat was building card
    /// by card is dropped. Errors: `InvalidValue` naming what in `hidden` does not fit the view.
    pub fn with_hidden(&self, seat: u8, hidden: &Cards, rng: &mut ChaCha8Rng) -> Result<Deal> {
        let view = self.seat_view(seat)?;
        check_fits(&view, seat as usize, hidden)?;
        let s = seat as usize;
        let mut w = self.clone();
        w.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        // The world's own draws (stock order, redrawn private facts).
        let mut local = ChaCha8Rng::seed_from_u64(rng.next_u64());
        w.match_ticket = None;
        for p in 0..NUM_PLAYERS {
            w.hands[p] = hidden.hands[p];
        }
        w.bid_cache = [None; NUM_PLAYERS];
        if self.to_move != seat {
            w.building = Multiset::EMPTY;
        }
        match self.phase {
            Phase::Dealing => {
                w.rebuild_stock(self, s, &hidden.hands[NUM_PLAYERS], &mut local);
            }
            _ => {
                // The shuffle is read only while dealing: keep nothing of the real order.
                w.stock = [Card::SMALL_JOKER; 3 * NUM_KINDS];
                if self.kitty_owner != seat {
                    if self.kitty_lies_buried() {
                        w.kitty = hidden.kitty;
                        w.last_burial = hidden.kitty;
                    } else if !self.last_burial.is_empty() {
                        // A 炒底 overcaller (to move) buries again what another seat buried.
                        let burier = self.to_move as usize;
                        let mut free = w.hands[burier];
                        free.remove_all(&w.shown[burier]).expect("known cards are held");
                        let k = self.last_burial.len();
                        w.last_burial = random_subset(&free, k, &mut local);
                    }
                }
            }
        }
        Ok(w)
    }

    /// The shuffled stock, the number of cards dealt and the first drawer (tests of worlds).
    #[cfg(test)]
    pub(crate) fn dealing_order(&self) -> (&[Card], usize, u8) {
        (&self.stock[..self.stock_size()], self.dealt, self.first_drawer)
    }

    /// Cards in the whole stock (every hand and the kitty).
    fn stock_size(&self) -> usize {
        let (hand, kitty) = hand_and_kitty(self.rules.decks);
        hand * NUM_PLAYERS + kitty
    }

    /// Whether the kitty lies buried (after a burial, and not picked up by a 炒底 overcaller).
    fn kitty_lies_buried(&self) -> bool {
        matches!(self.phase, Phase::Chaodi | Phase::Playing | Phase::Done)
    }

    /// The cards seat `viewer` knows to be in seat `p`'s hand (`p` ≠ `viewer`): those shown and
    /// not played since, and, while a 炒底 overcaller buries again, `viewer`'s own burial it
    /// picked up.
    fn known_by(&self, viewer: usize, p: usize) -> Multiset {
        let mut known = self.shown[p];
        let picked_up = self.phase == Phase::Burying && !self.last_burial.is_empty();
        if picked_up && self.kitty_owner as usize == viewer && self.to_move as usize == p {
            known = super::max_counts(&known, &self.last_burial);
        }
        known
    }

    /// The world's stock while dealing ([`Deal::with_hidden`]): `real` is the real deal, `stock`
    /// the world's undealt cards. Each other seat's declared cards go, declaration by
    /// declaration, to positions drawn uniformly among its positions received before the
    /// declaration and still free (every consistent placement is then equally likely: the
    /// deadlines grow), the rest of its hand to its other positions in a uniform order; the
    /// undealt stock is shuffled.
    fn rebuild_stock(&mut self, real: &Deal, seat: usize, stock: &Multiset, rng: &mut ChaCha8Rng) {
        let dealt = real.dealt;
        for p in (0..NUM_PLAYERS).filter(|&p| p != seat) {
            // The seat's positions among the dealt cards, and which are taken.
            let first = (p + NUM_PLAYERS - real.first_drawer as usize) % NUM_PLAYERS;
            let mut free = [false; 3 * NUM_KINDS];
            for i in (first..dealt).step_by(NUM_PLAYERS) {
                free[i] = true;
            }
            let mut placed = Multiset::EMPTY;
            for (t, q, bid) in real.bids.iter() {
                if q as usize != p {
                    continue;
                }
                for _ in placed.count(bid.card)..bid.count as usize {
                    // Received before the declaration: positions below t.
                    let n = free[..t as usize].iter().filter(|&&f| f).count();
                    let mut k = below(rng, n as u32) as usize;
                    let mut chosen = None;
                    for (i, _) in free[..t as usize].iter().enumerate().filter(|(_, f)| **f) {
                        if k == 0 {
                            chosen = Some(i);
                            break;
                        }
                        k -= 1;
                    }
                    let i = chosen.expect("a free position before the declaration");
                    free[i] = false;
                    self.stock[i] = bid.card;
                    placed.add(bid.card);
                }
            }
            let mut rest = self.hands[p];
            rest.remove_all(&placed).expect("declared cards are held");
            let mut cards = [Card::SMALL_JOKER; 3 * NUM_KINDS];
            let n = fill(&mut cards, &rest);
            shuffle(&mut cards[..n], rng);
            let mut next = 0;
            for i in (first..dealt).step_by(NUM_PLAYERS) {
                if free[i] {
                    self.stock[i] = cards[next];
                    next += 1;
                }
            }
            debug_assert_eq!(next, n, "seat {p}: every card placed");
        }
        let mut cards = [Card::SMALL_JOKER; 3 * NUM_KINDS];
        let n = fill(&mut cards, stock);
        shuffle(&mut cards[..n], rng);
        self.stock[dealt..dealt + n].copy_from_slice(&cards[..n]);
    }
}

/// Check that `hidden` is one deal of `view` for `seat` (sizes, the seat's hand, the known
/// cards and voids, the pack).
fn check_fits(view: &SeatView, seat: usize, hidden: &Cards) -> Result<()> {
    let bad = |what: String, why: String| Err(ZhipaiError::invalid_value("hidden deal", what, why));
    if hidden.hands.len() != view.holding.len() {
        return bad(
            format!("{} hands", hidden.hands.len()),
            format!("the view has {} places", view.holding.len()),
        );
    }
    let mut all = hidden.kitty;
    for (p, (h, &n)) in hidden.hands.iter().zip(&view.holding).enumerate() {
        if h.len() != n {
            return bad(format!("place {p}: {h}"), format!("place {p} holds {n} cards"));
        }
        if let Some(fixed) = view.known.fixed.get(p) {
            if !h.contains_all(fixed) {
                return bad(format!("place {p}: {h}"), format!("place {p} holds {fixed}"));
            }
            if p == seat && h != fixed {
                return bad(format!("seat {p}: {h}"), format!("the seat's hand is {fixed}"));
            }
        }
        if let Some(&void) = view.known.voids.get(p) {
            if !h.kinds().intersect(void).is_empty() {
                return bad(format!("place {p}: {h}"), format!("place {p} is void in {void}"));
            }
        }
        all.add_all(h)?;
    }
    if hidden.kitty.len() != view.kitty || !hidden.kitty.contains_all(&view.known.kitty) {
        return bad(
            format!("kitty {}", hidden.kitty),
            format!("the kitty holds {} cards, {} known", view.kitty, view.known.kitty),
        );
    }
    all.add_all(&view.gone)?;
    if all != Multiset::full_decks(view.decks, view.jokers)? {
        return bad(all.to_string(), "hands, kitty and played cards are not the pack".into());
    }
    Ok(())
}

/// The cards of `m` into `out` (each kind by its count); returns how many.
fn fill(out: &mut [Card], m: &Multiset) -> usize {
    let mut n = 0;
    for c in m.iter() {
        out[n] = c;
        n += 1;
    }
    n
}

/// A uniform permutation (Fisher–Yates, exact draws).
fn shuffle(items: &mut [Card], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// `k` of the physical cards of `m`, uniformly.
fn random_subset(m: &Multiset, k: usize, rng: &mut ChaCha8Rng) -> Multiset {
    let mut cards = [Card::SMALL_JOKER; 3 * NUM_KINDS];
    let n = fill(&mut cards, m);
    let mut out = Multiset::EMPTY;
    for i in 0..k.min(n) {
        let j = i + below(rng, (n - i) as u32) as usize;
        cards.swap(i, j);
        out.add(cards[i]);
    }
    out
}
