//! Determinisation for Baohuang (baohuang.md §C.1–§C.7): what one seat knows of the cards it
//! cannot see ([`Knowledge`], the game trait's `seat_view`) and the *worlds* drawn from it (the
//! trait's `with_hidden`): the same deal with the hidden cards replaced and the roles they make.
//!
//! # What a seat knows (conditioned on)
//!
//! * its own hand; every card played in this deal (all plays are public, with their suits);
//!   the 48 cards the 168-card deck leaves out count as out of play too;
//! * how many cards each seat holds;
//! * the **scepter BJ** (权杖, a marked physical card): it is in the hand of the seat holding the
//!   card until that seat plays a BJ (which might be it);
//! * the **登基 card** `C` (after 登基 or 逼位; none after 抢独): the emperor held 3 copies of it
//!   (the guard the 4th) or all 4 (独保) — `h` copies he surely held: 4 when his 独保 is certain,
//!   else 3. Who knows how many: the emperor himself; everyone after 明独 (4) and after 明保 or
//!   once the guard played a copy (3, and the guard's copy is known); the guard (3); everyone
//!   when the rules leave one count (逼位 needs exactly 3 counted copies, so 3 — or 4 with the
//!   scepter BJ not counted for a BJ 登基; a BJ 登基 with the scepter not counted needs 4).
//!   Otherwise (暗保 or 暗独, and the secret choice itself) the 4th copy may be anywhere hidden,
//!   the emperor's hand included: a world where the emperor holds it is an 暗独 deal, else the
//!   seat holding it is the (secret) guard;
//! * **逼位** (§C.3.3): the seats it skipped held no card exactly 3 times (counted as for 逼位)
//!   when it started, and the seat it stopped at held one;
//! * **进贡** (`tribute_between_deals = on`, §C.9 Alt): the giver and the receiver know the two
//!   cards. The giver knows the receiver holds the card he gave (not when one of its kind came
//!   back) and, the card returned being the receiver's lowest, that the receiver holds nothing
//!   lower. The receiver knows the giver holds the returned card and, the card given being the
//!   giver's highest (the scepter BJ is never given), that the giver holds nothing higher but
//!   the scepter BJ. A seat that took no part only knows that some tribute of the rules explains
//!   the two hands: the world's tribute cards are then the first pair found that does (returned
//!   cards in kind order, then given cards highest first).
//!
//! Cards are known in place as of the start of play (only the plays move cards after it): a
//! physical card (the scepter BJ, a tribute card) until its seat plays a card of its kind (which
//! may be it), copies known by count (the 登基 card) less those the seat played. Several known
//! cards of one kind in one hand (the scepter BJ and a BJ received in 进贡) leave a count after
//! one of them may have been played: the seat holds at least `n` copies. The constrained dealer
//! fixes physical cards, so for a count known from below (`n` copies, `pinned` of them physical
//! cards still surely there) a world where the seat holds `a > n` is kept with probability
//! `1 / C(a - pinned, n - pinned)`: the worlds are then uniform over the deals in which it holds
//! at least `n`.
//!
//! Plays are suitless apart from the 登基 card, and there is no suit to follow, so **play shows no
//! voids**: a pass or a yield is a choice, not a lack of cards. The only voids are those of 进贡.
//!
//! # Not conditioned on
//!
//! What the players' choices suggest of their hands (an abdication, a pass, a play made with the
//! 登基 card or without it, the cards a built-in policy picks); the deals before a 黄局 redeal; for
//! seats outside a 进贡 pair, how many pre-tribute deals lead to the same hands (the worlds are
//! uniform over the post-tribute hands some tribute explains).
//!
//! # Exactness
//!
//! The view ([`crate::knowledge::SeatView`]: cards out of play, hand sizes, cards known in
//! place, voids) is dealt exactly by the constrained dealer. What it cannot express — 逼位's
//! triples, a count known exactly, a count known from below, a tribute no voids describe — is
//! checked on the dealt hands, and a deal that fails is drawn again (rejection: the worlds stay
//! uniform over the consistent deals). These checks keep a large share of the deals (a count
//! from below at most 1 in `n + 1`; 逼位 about 1 in 4 per skipped seat, and it is rare).
//!
//! The functions read a deal as [`DealParts`] (the trait's `DealState` builds the world from
//! [`draw_world`]).

use super::accession::forced_options;
use super::history::DealParts;
use super::moves::card_strength;
use super::state::{extreme_card, Phase, TributeCards, PLAYERS};
use super::{BaohuangRules, Mode};
use crate::cards::{Card, CardSet};
use crate::deal::{Constraints, Deal};
use crate::error::{Result, ZhipaiError};
use crate::game::GameRng;
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use rand::Rng;

/// Deals drawn for one world before giving up (the checks keep a large share of the deals).
const MAX_DRAWS: usize = 200_000;

/// What one seat knows: the view the constrained dealer deals, and the facts checked on the
/// dealt hands.
#[derive(Clone, Debug)]
pub struct Knowledge {
    pub view: SeatView,
    checks: Checks,
}

/// The facts a [`SeatView`] cannot express (module docs).
#[derive(Clone, Debug, Default)]
struct Checks {
    /// Cards each seat played in this deal.
    played: [Multiset; PLAYERS],
    /// The seat dealt the scepter BJ, and the seat holding it now.
    first_holder: u8,
    card_at: u8,
    /// Seats (bits) 逼位 skipped: no card exactly 3 times at the start of accession.
    no_triple: u8,
    /// The seat 逼位 stopped at, still to ascend: some card exactly 3 times.
    triple: Option<u8>,
    /// `(seat, card, n)`: the seat holds exactly `n` copies of `card`.
    exact: Few<(u8, Card, usize)>,
    /// `(seat, card, n, pinned)`: the seat holds at least `n` copies of `card`, known by count
    /// (the view fixes `n` physical copies), `pinned` of them physical cards known in place. A
    /// world where it holds `a` is kept with probability `1 / C(a - pinned, n - pinned)`: the
    /// worlds are then uniform over the deals with at least `n` copies there.
    at_least: Few<(u8, Card, usize, usize)>,
    /// The 进贡 pairs `(giver, receiver)`, their cards, and which pairs (bits) the seat took no
    /// part in.
    pairs: [(u8, u8); 2],
    tribute_cards: [TributeCards; 2],
    outside_pairs: u8,
}

/// A few items without allocating (at most 8: a fact per seat and kind known).
#[derive(Clone, Copy, Debug)]
struct Few<T: Copy> {
    items: [Option<T>; 8],
}

impl<T: Copy> Default for Few<T> {
    fn default() -> Self {
        Few { items: [None; 8] }
    }
}

impl<T: Copy> Few<T> {
    fn push(&mut self, item: T) {
        let free = self.items.iter_mut().find(|i| i.is_none()).expect("at most 8 facts");
        *free = Some(item);
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().map_while(Option::as_ref)
    }
}

/// Sort key of cards as 进贡 ranks them: play strength, then kind index.
fn key(c: Card) -> (u8, usize) {
    (card_strength(c), c.index())
}

/// Kinds strictly below (`below`) or above `card` in [`key`] order.
fn kinds_beyond(card: Card, below: bool) -> CardSet {
    let mut set = CardSet::EMPTY;
    for c in Card::all().filter(|&c| if below { key(c) < key(card) } else { key(c) > key(card) }) {
        set.insert(c);
    }
    set
}

/// `cards` with at least `n` copies of `card`.
fn at_least(cards: Multiset, card: Card, n: usize) -> Multiset {
    let mut out = cards;
    for _ in cards.count(card)..n {
        out.add(card);
    }
    out
}

/// The cards each seat played in the deal being played, from the history.
fn played_by_seat(ds: &DealParts) -> [Multiset; PLAYERS] {
    let mut played = [Multiset::EMPTY; PLAYERS];
    for r in ds.history.iter().filter(|r| r.deal == ds.redeals) {
        if let super::Move::Play(cards) = r.mv {
            played[r.seat as usize].add_all(&cards).expect("cards of the deck");
        }
    }
    played
}

/// What `seat` knows, without allocating (the observation tensor's source): the cards each seat
/// played, the cards out of play, the cards known in each hand and the voids.
#[derive(Clone, Debug)]
pub struct Facts {
    pub played: [Multiset; PLAYERS],
    pub gone: Multiset,
    pub fixed: [Multiset; PLAYERS],
    pub voids: [CardSet; PLAYERS],
    checks: Checks,
}

/// What `seat` knows of `ds` (module docs). Errors: `InvalidValue` for a seat out of range, or
/// after [`crate::game::GameState::play_out`] (its moves are not recorded).
pub fn knowledge(ds: &DealParts, seat: u8) -> Result<Knowledge> {
    let f = facts(ds, seat)?;
    let view = SeatView {
        decks: 4,
        jokers: true,
        holding: (0..PLAYERS as u8).map(|p| ds.state.hand(p).len()).collect(),
        kitty: 0,
        gone: f.gone,
        known: Constraints {
            fixed: f.fixed.to_vec(),
            kitty: Multiset::EMPTY,
            voids: f.voids.to_vec(),
        },
    };
    Ok(Knowledge { view, checks: f.checks })
}

/// [`knowledge`] without the view's vectors (no allocation).
pub fn facts(ds: &DealParts, seat: u8) -> Result<Facts> {
    crate::game::check_seat(seat as usize, PLAYERS)?;
    if ds.unrecorded {
        return Err(ZhipaiError::invalid_value(
            "seat_view",
            seat,
            "the deal was played on by play_out, which does not record who played what",
        ));
    }
    let s = ds.state;
    let rules = s.rules();
    let played = played_by_seat(ds);
    let mut gone = Multiset::full_decks(4, true).expect("four decks");
    for p in 0..PLAYERS as u8 {
        gone.remove_all(s.hand(p)).expect("hands are cards of the deck");
    }
    let (_, card_at) = s.scepter();
    let mut checks =
        Checks { played, first_holder: s.first_holder(), card_at, ..Checks::default() };
    let bj = Card::BIG_JOKER;
    // What each seat held when play started (every card moves before it but the plays): the
    // physical cards known in place (the scepter BJ, the cards of a 进贡: distinct cards, so they
    // add up), and the copies of a kind known by count (the 登基 card: the physical cards above
    // are among them, so the larger count holds).
    let mut physical = [Multiset::EMPTY; PLAYERS];
    let mut copies = [Multiset::EMPTY; PLAYERS];
    let mut voids = [CardSet::EMPTY; PLAYERS];
    physical[card_at as usize].add(bj);
    // The 登基 card.
    if let (Some(card), Some(e)) = (s.dengji_card(), s.emperor()) {
        let guard_known = s.guard_revealed() || s.guard() == Some(seat);
        let bj_uncounted = card == bj && !rules.scepter_counts_for_dengji && card_at == e;
        let solo = if s.mode() == Mode::OpenSolo || bj_uncounted {
            Some(true)
        } else if guard_known || s.abdications() >= PLAYERS as u8 {
            Some(false)
        } else {
            None
        };
        let held = if solo == Some(true) { 4 } else { 3 };
        copies[e as usize] = at_least(copies[e as usize], card, held);
        if solo == Some(false) && !guard_known && seat != e {
            let n = held - played[e as usize].count(card).min(held);
            checks.exact.push((e, card, n));
        }
        if let Some(g) = s.guard().filter(|_| guard_known) {
            copies[g as usize] = at_least(copies[g as usize], card, 1);
        }
    }
    // 进贡.
    if let Some(places) = s.tribute() {
        let seat_of = |p: u8| places.iter().position(|&x| x == p).expect("a permutation") as u8;
        checks.pairs = [(seat_of(5), seat_of(1)), (seat_of(4), seat_of(2))];
        checks.tribute_cards = s.tribute_cards();
        for (i, (&(g, r), &(given, returned))) in
            checks.pairs.iter().zip(&checks.tribute_cards).enumerate()
        {
            let (gi, ri) = (g as usize, r as usize);
            if seat == g {
                // The card given, unless a card of its kind came back (maybe that very card).
                if let Some(x) = given.filter(|&x| Some(x) != returned) {
                    physical[ri].add(x);
                }
                if let Some(y) = returned {
                    voids[ri] = voids[ri].union(kinds_beyond(y, true));
                }
            } else if seat == r {
                if let Some(y) = returned {
                    physical[gi].add(y);
                }
                if let Some(x) = given {
                    let mut above = kinds_beyond(x, false);
                    above.remove(bj);
                    voids[gi] = voids[gi].union(above);
                    if x != bj {
                        // No BJ but the scepter when the tribute was made.
                        let now = usize::from(card_at == g).saturating_sub(played[gi].count(bj));
                        if now == 0 {
                            voids[gi].insert(bj);
                        } else {
                            checks.exact.push((g, bj, now));
                        }
                    }
                }
            } else {
                checks.outside_pairs |= 1 << i;
            }
        }
    }
    // Now: what was known at the start of play less what the seat played since. A physical
    // card is still known in place until its seat plays a card of its kind (which may be it).
    let mut fixed = [Multiset::EMPTY; PLAYERS];
    for p in (0..PLAYERS).filter(|&p| p != seat as usize) {
        for card in physical[p].kinds().union(copies[p].kinds()).iter() {
            let (m, h, gone_by) =
                (physical[p].count(card), copies[p].count(card), played[p].count(card));
            let n = m.max(h).saturating_sub(gone_by);
            let pinned = if gone_by == 0 { m } else { 0 };
            fixed[p] = at_least(fixed[p], card, n);
            if n > pinned {
                checks.at_least.push((p as u8, card, n, pinned));
            }
        }
    }
    fixed[seat as usize] = *s.hand(seat);
    // 逼位: clockwise from the first holder up to the seat it stopped at (all five: 黄局).
    if s.abdications() >= PLAYERS as u8 {
        let stop = match s.phase() {
            Phase::Forced => s.current_player(),
            Phase::Void => None,
            _ => s.emperor(),
        };
        let mut p = checks.first_holder;
        for _ in 0..PLAYERS {
            if Some(p) == stop {
                break;
            }
            if p != seat {
                checks.no_triple |= 1 << p;
            }
            p = (p + 4) % PLAYERS as u8;
        }
        if s.phase() == Phase::Forced {
            checks.triple = stop.filter(|&f| f != seat);
        }
    }
    Ok(Facts { played, gone, fixed, voids, checks })
}

impl Checks {
    /// `seat`'s hand when accession started (after 进贡, before the scepter BJ moved): its hand
    /// `now` plus what it played, the scepter BJ back with its first holder.
    fn at_start(&self, seat: u8, now: &Multiset) -> Multiset {
        let mut h = *now;
        h.add_all(&self.played[seat as usize]).expect("cards of the deck");
        if seat == self.first_holder && self.card_at != seat {
            h.add(Card::BIG_JOKER);
        }
        if seat == self.card_at && self.first_holder != seat {
            h.remove(Card::BIG_JOKER);
        }
        h
    }

    /// Whether `hands` satisfy the checks; then the world's 进贡 cards. The counts known from
    /// below draw from `rng` (see [`Checks::at_least`]).
    fn accept(
        &self,
        hands: &[Multiset; PLAYERS],
        rules: &BaohuangRules,
        rng: &mut GameRng,
    ) -> Option<[TributeCards; 2]> {
        if self.exact.iter().any(|&(s, c, n)| hands[s as usize].count(c) != n) {
            return None;
        }
        let start = |p: u8| self.at_start(p, &hands[p as usize]);
        let triples = |p: u8| !forced_options(&start(p), p == self.first_holder, rules).is_empty();
        if (0..PLAYERS as u8).any(|p| self.no_triple & (1 << p) != 0 && triples(p)) {
            return None;
        }
        if self.triple.is_some_and(|p| !triples(p)) {
            return None;
        }
        let mut cards = self.tribute_cards;
        for (i, &(g, r)) in self.pairs.iter().enumerate() {
            if self.outside_pairs & (1 << i) != 0 {
                let fh = self.first_holder;
                cards[i] = tribute_pair(&start(g), &start(r), g == fh, r == fh)?;
            }
        }
        for &(p, card, n, pinned) in self.at_least.iter() {
            let a = hands[p as usize].count(card);
            if a > n && rng.random_range(0..binomial(a - pinned, n - pinned)) != 0 {
                return None;
            }
        }
        Some(cards)
    }
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// A 进贡 that some pre-tribute hands make into `giver` and `taker` (hands just after it): the
/// card given (the giver's highest, the scepter BJ never given) and the card returned (the
/// taker's lowest after receiving), the first found (returned cards in kind order, then given
/// cards highest first); `None` when no tribute does.
fn tribute_pair(
    giver: &Multiset,
    taker: &Multiset,
    giver_scepter: bool,
    taker_scepter: bool,
) -> Option<TributeCards> {
    let lowest = taker.kinds().iter().min_by_key(|&c| key(c))?;
    let mut given: Vec<Card> = taker.kinds().iter().collect();
    given.sort_by_key(|&c| std::cmp::Reverse(key(c)));
    let scepter_only = |hand: &Multiset, c: Card, scepter: bool| {
        scepter && c == Card::BIG_JOKER && hand.count(c) == 1
    };
    for y in giver.kinds().iter().filter(|&y| key(y) <= key(lowest)) {
        if scepter_only(giver, y, giver_scepter) {
            continue;
        }
        for &x in &given {
            if scepter_only(taker, x, taker_scepter) {
                continue;
            }
            let mut before = *giver;
            before.remove(y);
            before.add(x);
            if extreme_card(&before, true, giver_scepter) != Some(x) {
                continue;
            }
            let mut received = *taker;
            received.add(y);
            if extreme_card(&received, false, taker_scepter) == Some(y) {
                return Some((Some(x), Some(y)));
            }
        }
    }
    None
}

/// Why `hidden` does not fit `view`, if it does not.
fn check_fits(view: &SeatView, hidden: &Deal) -> Result<()> {
    let bad = |why: String| Err(ZhipaiError::invalid_value("hidden", "deal", why));
    if hidden.hands.len() != PLAYERS || !hidden.kitty.is_empty() {
        return bad(format!(
            "Baohuang has 5 hands and no kitty (got {} hands, kitty {})",
            hidden.hands.len(),
            hidden.kitty
        ));
    }
    let mut all = view.gone;
    for (p, hand) in hidden.hands.iter().enumerate() {
        if hand.len() != view.holding[p] {
            return bad(format!("seat {p} holds {} cards, not {}", view.holding[p], hand.len()));
        }
        let fixed = view.known.fixed[p];
        if !hand.contains_all(&fixed) {
            return bad(format!("seat {p} is known to hold {}", hand.shortfall(&fixed)));
        }
        let void = hand.kinds().intersect(view.known.voids[p]);
        if !void.is_empty() {
            return bad(format!("seat {p} is known to hold no {}", void.first().expect("a kind")));
        }
        if all.add_all(hand).is_err() {
            return bad("more than 4 copies of a card".to_string());
        }
    }
    if all != Multiset::full_decks(4, true).expect("four decks") {
        return bad("the hands and the cards out of play are not the 216-card deck".to_string());
    }
    Ok(())
}

/// The hands and 进贡 cards of a world of `seat` (see the trait's `with_hidden`).
#[derive(Clone, Copy, Debug)]
pub struct World {
    pub hands: [Multiset; PLAYERS],
    pub tribute_cards: [TributeCards; 2],
}

/// The hands of a world of `seat` with the hidden cards `hidden`: the deal redrawn from the
/// view's dealer with `rng` while the hands fail the checks the view cannot express (module
/// docs), and the world's 进贡 cards. Errors: `InvalidValue` naming what of `hidden` does not fit
/// the view; `ImpossibleDeal` when no draw passes in 200,000 draws.
pub fn draw_world(ds: &DealParts, seat: u8, hidden: &Deal, rng: &mut GameRng) -> Result<World> {
    let k = knowledge(ds, seat)?;
    check_fits(&k.view, hidden)?;
    let rules = ds.state.rules();
    let to_array = |d: &Deal| -> [Multiset; PLAYERS] { std::array::from_fn(|p| d.hands[p]) };
    let mut hands = to_array(hidden);
    if let Some(tribute_cards) = k.checks.accept(&hands, rules, rng) {
        return Ok(World { hands, tribute_cards });
    }
    let dealer = k.view.dealer()?;
    for _ in 0..MAX_DRAWS {
        hands = to_array(&dealer.deal(rng));
        if let Some(tribute_cards) = k.checks.accept(&hands, rules, rng) {
            return Ok(World { hands, tribute_cards });
        }
    }
    Err(ZhipaiError::impossible_deal(format!(
        "no world of seat {seat} passed the checks in {MAX_DRAWS} deals"
    )))
}
