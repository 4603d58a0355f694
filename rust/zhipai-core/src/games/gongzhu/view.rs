//! Determinisation of a Gongzhu deal for search: what one seat knows of the cards it cannot see
//! ([`seat_view`]) and the *worlds* built from a draw of them ([`world`]).
//!
//! **Conditioned on** (everything the rules make certain for the seat):
//! * its own hand (all of it) and every card played (completed tricks and the current trick);
//! * how many cards each seat holds;
//! * the openly exposed copies (§A.6, the automatic 3-of-4 one included) not played since: in
//!   their exposer's hand ([`State::known_exposed`]);
//! * before the first lead of a match, the first-lead card (♣2 by default) in the first
//!   leader's hand: the exposure order and the lead show who holds it (§A.8);
//! * the voids shown by play ([`State::voids`], [`State::exposure_voids_seen_by`]): a seat that
//!   followed a lead with fewer cards of the led suit than the lead holds none of it; a seat that
//!   played an openly exposed copy where §A.7 bars it while another card of its suit is held holds
//!   no other card of that suit (two decks: when the exposed copy is certainly the one played —
//!   its other copy exposed too, or known elsewhere, by everyone or by this seat holding it);
//! * the automatic 3-of-4 exposure (two decks): it exposes the copy of the first seat in
//!   exposure order holding an unexposed one, so the seats before it hold none
//!   ([`State::kind_voids`]). A void never covers the seat's own known exposed copies.
//!
//! **Not conditioned on** (the worlds may contradict these; search treats them as unknown):
//! * what the other players' choices suggest about their hands (which card they chose among the
//!   legal ones, whether they exposed or not);
//! * another seat's closed declarations (`exposure_mode = closed_open`): their number is public,
//!   the cards are not, and the constraint "it held that many exposable cards" is not expressible
//!   to the dealer; in a world each such declaration is redrawn uniformly among the exposable
//!   copies the seat holds or played there that it did not expose openly, and when the world
//!   gives it too few, the rest are declared on exposable kinds with a copy not yet declared,
//!   preferably kinds it does not hold (the declaration still doubles a card, as the real one
//!   does, but the world's record of it is not a legal move);
//! * two decks: a pair lead answered by two unpaired cards of the suit (no pair of the suit held)
//!   — the dealer cannot express "not two copies"; the §A.7 inference from two-card follows of a
//!   pair lead (the restriction can leave such a follow nothing else, then the exposed copy is
//!   legal anyway); the second copy of a kind whose exposed copy a seat still holds, in a suit that
//!   seat is known void in otherwise (it cannot hold it, but a void cannot cover a fixed kind);
//!   and a two-holder first lead is weighted as a one-holder one (the random pick among two
//!   holders of ♣2 makes deals where the leader holds both copies twice as likely).

use super::options::GongzhuRules;
use super::scoring::EXPOSABLE;
use super::state::State;
use crate::cards::{Card, CardSet, Suit};
use crate::deal::{Constraints, Deal};
use crate::error::{Result, ZhipaiError};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::sample::below_always;
use rand::RngCore;

/// The cards `seat` knows to be in seat `s`'s hand: all of its own hand; for another seat, its
/// known exposed copies and the first-lead card it must still lead.
pub fn known_in_hand(state: &State, seat: usize, s: usize) -> Multiset {
    if s == seat {
        return *state.hand(s);
    }
    let mut m = state.known_exposed(s);
    if let Some((leader, c)) = state.pending_first_lead() {
        if leader == s {
            m.add(c);
        }
    }
    m
}

/// The card mask of the suits seat `s` is known (to `seat`) to hold nothing of, beyond its known
/// cards (`known`): empty for `seat` itself, whose hand is known.
pub fn void_mask(state: &State, seat: usize, s: usize, known: &Multiset) -> CardSet {
    if s == seat {
        return CardSet::EMPTY;
    }
    let bits = state.exposure_voids_seen_by(s, seat);
    let mut mask = state.kind_voids(s).0;
    for suit in Suit::ALL {
        if bits & (1 << suit.index()) != 0 {
            mask |= suit.mask().0;
        }
    }
    CardSet(mask & !known.kinds().0)
}

/// What `seat` knows of the cards it cannot see (see the module docs).
pub fn seat_view(state: &State, seat: usize) -> SeatView {
    let rules = state.rules();
    let mut known = Constraints::new();
    for s in 0..4 {
        let fixed = known_in_hand(state, seat, s);
        let voids = void_mask(state, seat, s, &fixed);
        known = known.fix_hand(s, fixed);
        if !voids.is_empty() {
            known = known.void(s, voids);
        }
    }
    SeatView {
        decks: rules.decks as usize,
        jokers: false,
        holding: (0..4).map(|s| state.hand(s).len()).collect(),
        kitty: 0,
        gone: *state.played(),
        known,
    }
}

/// Check that `hidden` is a draw of [`seat_view`]`(state, seat)`: four hands of the seats' sizes,
/// `seat`'s own hand unchanged, together the cards not played, every known card in its place and
/// no card in a suit its seat is known void in. Errors name what does not fit.
pub fn check_hidden(state: &State, seat: usize, hidden: &Deal) -> Result<[Multiset; 4]> {
    let hands: [Multiset; 4] = hidden.hands.clone().try_into().map_err(|h: Vec<Multiset>| {
        ZhipaiError::invalid_value("hidden hands", h.len(), "Gongzhu deals 4 hands")
    })?;
    if !hidden.kitty.is_empty() {
        return Err(ZhipaiError::invalid_value(
            "hidden kitty",
            hidden.kitty,
            "Gongzhu has no kitty",
        ));
    }
    if hands[seat] != *state.hand(seat) {
        return Err(ZhipaiError::invalid_value(
            format!("hidden hand of seat {seat}"),
            hands[seat],
            format!("the seat's own hand is {}", state.hand(seat)),
        ));
    }
    let mut all = *state.played();
    for (s, h) in hands.iter().enumerate() {
        if h.len() != state.hand(s).len() {
            return Err(ZhipaiError::invalid_value(
                format!("hidden hand of seat {s}"),
                h,
                format!("seat {s} holds {} cards", state.hand(s).len()),
            ));
        }
        let fixed = known_in_hand(state, seat, s);
        if !h.contains_all(&fixed) {
            return Err(ZhipaiError::invalid_value(
                format!("hidden hand of seat {s}"),
                h,
                format!("seat {s} is known to hold {fixed}"),
            ));
        }
        let void = void_mask(state, seat, s, &fixed);
        if !h.kinds().intersect(void).is_empty() {
            return Err(ZhipaiError::invalid_value(
                format!("hidden hand of seat {s}"),
                h,
                format!("seat {s} is known to hold none of {}", Multiset::from_set(void)),
            ));
        }
        all.add_all(h)?;
    }
    let deck = Multiset::full_decks(state.rules().decks as usize, false)?;
    if all != deck {
        return Err(ZhipaiError::invalid_value(
            "hidden hands",
            format!("{} cards with those played", all.len()),
            "the hidden hands and the played cards must make up the deck exactly",
        ));
    }
    Ok(hands)
}

/// The closed declarations of a world (`exposure_mode = closed_open`): `seat`'s own unchanged;
/// another seat's redrawn from `rng` (see the module docs) among the exposable copies it holds in
/// `hands` or played, less those it exposed openly.
pub fn world_closed(
    state: &State,
    seat: usize,
    hands: &[Multiset; 4],
    rng: &mut dyn RngCore,
) -> [Multiset; 4] {
    let mut closed: [Multiset; 4] = std::array::from_fn(|s| *state.exposed(s).1);
    // Copies declared so far in the world, per exposable kind (open everywhere, then closed).
    let mut declared = [0usize; 4];
    for (s, own) in closed.iter().enumerate() {
        for (i, &c) in EXPOSABLE.iter().enumerate() {
            declared[i] += state.exposed(s).0.count(c);
            if s == seat {
                declared[i] += own.count(c);
            }
        }
    }
    for (s, redrawn) in closed.iter_mut().enumerate() {
        let k = redrawn.len();
        if s == seat || k == 0 {
            continue;
        }
        let open = state.exposed(s).0;
        let mut had = hands[s];
        had.add_all(state.played_by(s)).expect("at most the deck");
        let mut copies: Vec<Card> = Vec::with_capacity(8);
        for &c in &EXPOSABLE {
            for _ in open.count(c)..had.count(c) {
                copies.push(c);
            }
        }
        let mut chosen = Multiset::EMPTY;
        for _ in 0..k {
            let c = if copies.is_empty() {
                // Too few in this world: a kind with a copy not yet declared anywhere, one the
                // seat does not hold if there is one (its open exposures stay legal).
                let decks = state.rules().decks as usize;
                let undeclared = |i: &usize| declared[*i] < decks;
                let mut free: Vec<usize> =
                    (0..4).filter(undeclared).filter(|&i| had.count(EXPOSABLE[i]) == 0).collect();
                if free.is_empty() {
                    free = (0..4).filter(undeclared).collect();
                }
                if free.is_empty() {
                    break;
                }
                EXPOSABLE[free[below_always(rng, free.len() as u32) as usize]]
            } else {
                copies.swap_remove(below_always(rng, copies.len() as u32) as usize)
            };
            chosen.add(c);
            declared[EXPOSABLE.iter().position(|&e| e == c).expect("exposable")] += 1;
        }
        *redrawn = chosen;
    }
    closed
}

/// The world of `state` seen by `seat` with the hidden cards of `hidden` (checked by
/// [`check_hidden`]); the closed declarations of the other seats redrawn from `rng`.
pub fn world(state: &State, seat: usize, hidden: &Deal, rng: &mut dyn RngCore) -> Result<State> {
    let hands = check_hidden(state, seat, hidden)?;
    let closed = world_closed(state, seat, &hands, rng);
    Ok(state.with_hands(hands, closed))
}

/// Whether the rules let a deal have closed declarations (the worlds then redraw them).
pub fn has_closed(rules: &GongzhuRules) -> bool {
    rules.exposure_mode == super::options::ExposureMode::ClosedOpen
}
