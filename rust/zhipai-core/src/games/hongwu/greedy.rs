//! The greedy Hong Wu player ([`crate::policy::Policy::Greedy`]; issue 13): a deterministic
//! rule-based player that sees only what its seat knows — its hand, the cards played (by whom),
//! the kitty it buried, the public bids, contract and trump, and the voids and other absences
//! shown by play ([`HongWuState::not_held`]) — and draws nothing from the generator. It is the
//! rollout policy of the search players, so it is built to be cheap: no follow is enumerated for
//! a one-card lead, and at most [`FOLLOW_LIMIT`] for the others. (The first-generation player is
//! kept as `basic`, [`super::policy`].)
//!
//! Words: the *unseen* cards are the cards the seat has not seen (the other hands and, unless it
//! buried it, the kitty); a seat *may hold* the unseen kinds it is not known to lack; a unit is a
//! *master* when no unseen card (or pair, or tractor) of its suit beats it; a seat *may be void*
//! in a suit when it showed the void (or is known to lack every unseen kind of it); the
//! *opponents* are the three 闲家 for the dealer and the dealer for a 闲家 (the 闲家 are
//! partners); a play is *safe* when no opponent still to play may beat it (a pair: with a
//! higher pair both of whose cards are unseen; longer plays are never counted safe while an
//! opponent is still to play); *top trumps* are ♥5, the jokers, the 3s and the 2s.
//!
//! * **Bid** from the expected dealer points of the hand ([`expected_points`]): a least-squares
//!   fit over 30,000 greedy self-play deals with the opener forced dealer at 60
//!   (`examples/hongwu_fit.rs`; correlation 0.40) on [`bid_features`] — trumps, top trumps and
//!   trump pairs for its chosen trump, card points, plain aces, short plain suits. It makes the
//!   lowest legal bid while that is at most the expectation minus [`BID_MARGIN`], else passes.
//! * **Trump**: the suit whose trumps (with that suit trump: ♥5, jokers, 参谋, 2s and the suit)
//!   the hand holds most of, weighted by their strength and pairs.
//! * **Bury**: never a trump; voids as many plain suits as fit in the 8 cards (the cheapest such
//!   set), then the least bad plain cards (badness: points ×6, an ace, a pair, the rank): the
//!   dealer ruffs the voided suits, and buried points would be multiplied for the 闲家 (§B.10).
//! * **Lead**: the masters of a plain suit no opponent may ruff (all of them at once: a throw of
//!   masters cannot fail, §B.7), the most points first; the dealer then draws trumps with its
//!   biggest master trump unit while it holds at least half as many trumps as the 闲家 may; a
//!   闲家 leads its cheapest card of a suit a partner has shown void (with trumps left) and the
//!   dealer has not; otherwise the cheapest card of its shortest plain suit (a 闲家 avoids the
//!   dealer's voids, a suit of point cards only comes last, and there the dealer leads a
//!   pointless trump instead); with trumps only, a master trump unit, else the cheapest trump.
//! * **Follow** (one card led: the legal cards; more: up to [`FOLLOW_LIMIT`] legal follows, or
//!   when short in the led suit the whole suit with the cheapest or the richest discards, and
//!   the trump units of a one-unit lead's shape):
//!   - a 闲家 whose partner is winning safely adds its richest play (most points, never a top
//!     trump); if the partner may still be beaten by the dealer, it wins with the cheapest card
//!     the dealer cannot beat (the partners after the dealer then add their points), else plays
//!     cheap;
//!   - a 闲家 beats the dealer's winning play when it can (the dealer has played: the partners
//!     after it add points), with the play giving most points, then the cheapest;
//!   - the dealer wins with its safe winning play giving most points; with no safe winner, with
//!     its strongest winner when the trick holds [`RISK_POINTS`] or more;
//!   - otherwise the cheapest play: cost = 3 × points + keep value (trumps above plain cards,
//!     strength, +15 for a master, +4 for a card of a pair).

use super::auction::Bid;
use super::follow::{play_wins, single_follow_pool};
use super::order::RED_FIVE;
use super::state::{points_of, two_decks, Action, HongWuState, Phase};
use super::KITTY_SIZE;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::multiset::Multiset;
use crate::tricks::combos::{decompose, Format, Unit};
use crate::tricks::lead::{for_each_unit_of, is_beaten};
use crate::tricks::order::{CardOrder, TRUMP};
use crate::tricks::winner::{trick_winner_of, tuple_winner};
use crate::tricks::{FollowMoves, TrickRules};
use std::ops::ControlFlow;

/// Legal follows of a multi-card lead the player compares (besides the plays it builds).
pub const FOLLOW_LIMIT: usize = 48;
/// The bid stays this many points below the expected dealer points.
pub const BID_MARGIN: i32 = 5;
/// The burial's bonus per plain suit it voids (against the badness of the cards buried).
pub const VOID_BONUS: i32 = 300;
/// The dealer draws trumps while it holds at least 1 / `DRAW_RATIO` of the trumps the 闲家 may
/// hold.
pub const DRAW_RATIO: usize = 2;
/// A trick worth this many points is worth a risky win (the dealer's unsafe winner).
pub const RISK_POINTS: i32 = 10;

const PLAYERS: usize = 4;

/// The greedy player's action in `state` (which must not be over).
pub fn greedy_action(state: &HongWuState) -> Action {
    let seat = state.to_act().expect("deal not over");
    let hand = state.hand(seat);
    match state.phase() {
        Phase::Auction => Action::Bid(bid(state, &hand)),
        Phase::Trump => Action::Trump(best_trump(state, &hand)),
        Phase::Kitty => Action::Bury(bury(state, &hand)),
        Phase::Play => {
            let c = Ctx::new(state, seat, hand);
            Action::Play(match state.lead_format() {
                None => c.lead(),
                Some(lead) if lead.cards == 1 => c.follow_single(lead.suit as usize),
                Some(lead) => c.follow_many(lead),
            })
        }
        Phase::Over => unreachable!("no action in a finished deal"),
    }
}

// ------------------------------------------------------------------------------ auction

/// Features of a hand for a trump suit: (trumps held, top trumps held (♥5, jokers, 参谋, 主2),
/// trump pairs).
fn trump_features(hand: &Multiset, o: &CardOrder) -> (i32, i32, i32) {
    let trumps = hand.restrict(o.suit_mask(TRUMP));
    let top = trumps.iter().filter(|&c| is_top_trump(o, c)).count() as i32;
    (trumps.len() as i32, top, trumps.pairs().len() as i32)
}

/// The trump suit the hand would name: most trumps, weighted by strength and pairs.
fn trump_choice(hand: &Multiset, orders: &[CardOrder; 4]) -> Suit {
    let score = |o: &CardOrder| {
        let trumps = hand.restrict(o.suit_mask(TRUMP));
        let len = o.len(TRUMP).max(1) as i32;
        let strength: i32 = trumps.iter().map(|c| o.index(c) as i32 * 8 / len).sum();
        16 * trumps.len() as i32 + strength + 6 * trumps.pairs().len() as i32
    };
    let best = (0..4).max_by_key(|&t| (score(&orders[t]), 3 - t)).expect("four suits");
    Suit::from_index(best)
}

/// The features of a hand (25 cards) the bid reads, for its chosen trump: trumps held, top
/// trumps (♥5, jokers, 参谋, 2s), trump pairs, card points held, plain aces, plain suits held
/// at most 2 cards (voids to be).
pub fn bid_features(hand: &Multiset, orders: &[CardOrder; 4]) -> [i32; 6] {
    let t = trump_choice(hand, orders);
    let o = &orders[t.index()];
    let (n, top, pairs) = trump_features(hand, o);
    let points = points_of(hand);
    let aces = Suit::ALL
        .iter()
        .filter(|&&s| s != t)
        .map(|&s| hand.count(Card::new(s, Rank::ACE)) as i32)
        .sum::<i32>();
    let short = (0..4).filter(|&s| hand.count_in(o.suit_mask(s)) <= 2).count() as i32 - 1;
    [n, top, pairs, points, aces, short]
}

/// Expected dealer points of `hand` (25 cards) as dealer with its chosen trump, before the
/// kitty: the fit of the module docs on [`bid_features`].
pub fn expected_points(hand: &Multiset, orders: &[CardOrder; 4]) -> i32 {
    let f = bid_features(hand, orders);
    // Fitted on greedy self-play (examples/hongwu_fit.rs), coefficients × 100.
    const W: [i32; 6] = [545, 197, 189, 21, 345, 415];
    (-3259 + W.iter().zip(f).map(|(w, x)| w * x).sum::<i32>()) / 100
}

/// The trump orders of the options of `rules` (S H D C; [`super::order::trump_orders`]).
pub fn trump_orders(rules: &super::HongWuRules) -> &'static [CardOrder; 4] {
    let o = &rules.options;
    super::order::trump_orders(o.other_threes, o.tractor_above_A)
}

fn bid(state: &HongWuState, hand: &Multiset) -> Bid {
    let Some((lo, _)) = state.auction().bid_range() else { return Bid::Pass };
    let want = expected_points(hand, trump_orders(state.rules())) - BID_MARGIN;
    if lo as i32 <= want {
        Bid::Points(lo)
    } else {
        Bid::Pass
    }
}

fn best_trump(state: &HongWuState, hand: &Multiset) -> Suit {
    trump_choice(hand, trump_orders(state.rules()))
}

// ------------------------------------------------------------------------------ burial

/// Whether `c` is a top trump: ♥5, a joker, a 参谋 (or another trump 3) or a 2.
fn is_top_trump(o: &CardOrder, c: Card) -> bool {
    o.is_trump(c)
        && (c == RED_FIVE
            || c.is_joker()
            || matches!(c.rank(), Some(r) if r == Rank::TWO || r == Rank::THREE))
}

/// The 8 cards the dealer buries (module docs).
fn bury(state: &HongWuState, hand: &Multiset) -> Multiset {
    let o = &state.trick_rules().expect("trump chosen").order;
    // How bad burying one card is: points (multiplied if the 闲家 win the last trick), aces,
    // pairs, rank.
    let badness = |c: Card| -> i32 {
        let pair = hand.count(c) == 2;
        6 * c.points() as i32
            + if c.rank() == Some(Rank::ACE) { 30 } else { 0 }
            + if pair { 8 } else { 0 }
            + o.index(c) as i32
    };
    let plain: [Multiset; 4] = std::array::from_fn(|s| hand.restrict(o.suit_mask(s)));
    // The plain cards from the least bad, once.
    let mut order: Vec<(i32, Card)> =
        plain.iter().flat_map(|m| m.iter()).map(|c| (badness(c), c)).collect();
    order.sort_unstable_by_key(|&(b, c)| (b, c.index()));
    let mut best: Option<(i32, Multiset)> = None;
    for voids in 0u32..16 {
        let mut buried = Multiset::EMPTY;
        let mut cost = 0;
        let mut ok = true;
        for (s, cards) in plain.iter().enumerate() {
            if voids >> s & 1 == 1 {
                if cards.is_empty() || buried.len() + cards.len() > KITTY_SIZE {
                    ok = false;
                    break;
                }
                for c in cards.iter() {
                    buried.add(c);
                    cost += badness(c);
                }
            }
        }
        if !ok {
            continue;
        }
        // Fill with the least bad cards of the other plain suits.
        for &(b, c) in &order {
            if buried.len() == KITTY_SIZE {
                break;
            }
            if voids >> o.suit(c) & 1 == 0 {
                buried.add(c);
                cost += b;
            }
        }
        if buried.len() < KITTY_SIZE {
            continue;
        }
        cost -= VOID_BONUS * voids.count_ones() as i32;
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, buried));
        }
    }
    match best {
        Some((_, m)) => m,
        None => {
            // Fewer than 8 plain cards: all of them, then the weakest trumps.
            let mut cards: Vec<Card> = hand.iter().collect();
            cards.sort_by_key(|&c| (o.is_trump(c), c.points(), o.index(c)));
            Multiset::from_cards(&cards[..KITTY_SIZE]).expect("held cards")
        }
    }
}

// ------------------------------------------------------------------------------ play

/// What the seat to play knows, and derived facts.
struct Ctx<'a> {
    s: &'a HongWuState,
    tr: &'a TrickRules,
    o: &'a CardOrder,
    seat: usize,
    dealer: usize,
    hand: Multiset,
    /// Cards the seat has not seen: the other hands and (unless it buried it) the kitty.
    unseen: Multiset,
    /// Per effective suit, the strength indices of the unseen kinds (bit i = index i).
    unseen_idx: [u32; 5],
}

impl<'a> Ctx<'a> {
    fn new(s: &'a HongWuState, seat: usize, hand: Multiset) -> Ctx<'a> {
        let tr = s.trick_rules().expect("trump chosen");
        let dealer = s.contract().expect("dealer known").dealer;
        // The cards in the other hands, and in the kitty unless the seat buried it.
        let mut unseen = two_decks();
        let _ = unseen.remove_all(&hand);
        let _ = unseen.remove_all(&s.played());
        if seat == dealer {
            let _ = unseen.remove_all(&s.kitty());
        }
        let o = &tr.order;
        let unseen_idx = std::array::from_fn(|k| o.index_mask(k, unseen.kinds()));
        Ctx { s, tr, o, seat, dealer, hand, unseen, unseen_idx }
    }

    fn is_dealer(&self) -> bool {
        self.seat == self.dealer
    }

    /// Whether seats `a` and `b` are on the same side.
    fn partners(&self, a: usize, b: usize) -> bool {
        a == b || (a != self.dealer && b != self.dealer)
    }

    /// The kinds seat `p` may hold.
    fn may_hold(&self, p: usize) -> CardSet {
        self.unseen.kinds().minus(self.s.not_held(p))
    }

    /// Whether seat `p` may be void in effective suit `suit` (module docs): it showed the void,
    /// or it is known to lack every kind of the suit still unseen.
    fn may_be_void(&self, p: usize, suit: usize) -> bool {
        self.unseen.kinds().intersect(self.o.suit_mask(suit)).minus(self.s.not_held(p)).is_empty()
    }

    /// Whether `set` holds a kind of effective suit `suit` stronger than index `index`.
    fn any_above(&self, set: CardSet, suit: usize, index: usize) -> bool {
        above(self.o.index_mask(suit, set), index)
    }

    /// Whether no unseen card of its suit is stronger than `c` (ties count as masters).
    fn master_card(&self, c: Card) -> bool {
        !above(self.unseen_idx[self.o.suit(c)], self.o.index(c))
    }

    /// Whether seat `p`, following a one-card lead of effective suit `led`, may beat card `w`.
    fn may_beat_single(&self, p: usize, led: usize, w: Card) -> bool {
        let may = self.may_hold(p);
        let sw = self.o.suit(w);
        let higher = self.any_above(may, sw, self.o.index(w));
        if sw == led {
            higher
                || (led != TRUMP
                    && self.may_be_void(p, led)
                    && !may.intersect(self.o.suit_mask(TRUMP)).is_empty())
        } else {
            // `w` is a trump on a plain lead: only a void seat with a higher trump beats it.
            self.may_be_void(p, led) && higher
        }
    }

    /// Whether seat `p` may beat the winning pair `w` (two copies of one kind) of a pair lead of
    /// suit `led`: a higher pair of which both copies are unseen, or a trump pair when it may be
    /// void. Longer plays count as beatable by anyone still to play.
    fn may_beat_play(&self, p: usize, led: usize, w: &Multiset) -> bool {
        let Some(c) = w.kinds().first() else { return true };
        if w.len() != 2 || w.count(c) != 2 {
            return true;
        }
        let may = self.may_hold(p).intersect(self.unseen.pairs());
        let sw = self.o.suit(c);
        let higher = self.any_above(may, sw, self.o.index(c));
        if sw == led {
            higher
                || (led != TRUMP
                    && self.may_be_void(p, led)
                    && !may.intersect(self.o.suit_mask(TRUMP)).is_empty())
        } else {
            self.may_be_void(p, led) && higher
        }
    }

    /// The seats still to play after the seat to act in the current trick.
    fn after(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.s.current_trick().len();
        let mut p = self.seat;
        (0..PLAYERS - 1 - n).map(move |_| {
            p = self.s.next_seat(p);
            p
        })
    }

    /// The seat that played play `i` of the current trick.
    fn seat_of(&self, i: usize) -> usize {
        let mut p = self.s.leader();
        for _ in 0..i {
            p = self.s.next_seat(p);
        }
        p
    }

    /// How much keeping card `c` is worth (cheapest cards are played or discarded first):
    /// trumps above plain cards, strength, masters, pairs.
    fn keep(&self, c: Card) -> i32 {
        let idx = self.o.index(c) as i32;
        let mut v = if self.o.is_trump(c) { 40 + 2 * idx } else { idx };
        if self.master_card(c) {
            v += 15;
        }
        if self.hand.count(c) == 2 {
            v += 4;
        }
        v
    }

    /// The cost of giving up card `c` to the other side: its points, then its keep value.
    fn cost(&self, c: Card) -> i32 {
        3 * c.points() as i32 + self.keep(c)
    }

    // -------------------------------------------------------------------------- leads

    /// The opponents of the seat to act.
    fn opponents(&self) -> impl Iterator<Item = usize> + '_ {
        (0..PLAYERS).filter(|&p| !self.partners(p, self.seat))
    }

    /// Whether an opponent may ruff a lead of plain suit `suit`.
    fn ruff_risk(&self, suit: usize) -> bool {
        let trumps = self.o.suit_mask(TRUMP);
        self.opponents()
            .any(|p| self.may_be_void(p, suit) && !self.may_hold(p).intersect(trumps).is_empty())
    }

    /// The units of `cards` (one effective suit).
    fn units(&self, cards: &Multiset) -> Format {
        decompose(cards, self.o, self.tr.throw_decomposition).expect("one suit")
    }

    fn is_master(&self, u: &Unit) -> bool {
        !is_beaten(self.tr, u, &self.unseen)
    }

    fn lead(&self) -> Multiset {
        let hand = self.hand;
        let o = self.o;
        // 1. Masters of a plain suit no opponent may ruff, most points first.
        let mut best: Option<((i32, usize), Multiset)> = None;
        for s in 0..4 {
            let hs = hand.restrict(o.suit_mask(s));
            if hs.is_empty() || self.ruff_risk(s) {
                continue;
            }
            // Without a pair, only the top card can be a master.
            let top = hs.kinds().iter().max_by_key(|&c| o.index(c)).expect("a card");
            if hs.pairs().is_empty() && !self.master_card(top) {
                continue;
            }
            let f = self.units(&hs);
            let mut masters = Multiset::EMPTY;
            for u in f.units.iter().filter(|u| self.is_master(u)) {
                for c in u.to_multiset().iter() {
                    masters.add(c);
                }
            }
            if masters.is_empty() {
                continue;
            }
            let key = (points_of(&masters), masters.len());
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, masters));
            }
        }
        if let Some((_, m)) = best {
            return m;
        }
        let trumps = hand.restrict(o.suit_mask(TRUMP));
        let trump_mask = o.suit_mask(TRUMP);
        // 2. The dealer draws trumps while it is long in them.
        if self.is_dealer() && !trumps.is_empty() {
            let theirs = self.unseen.restrict(trump_mask.minus(self.common_absent())).len();
            if theirs > 0 && DRAW_RATIO * trumps.len() >= theirs {
                if let Some(u) = self.master_trump_unit(&trumps) {
                    return u;
                }
            }
        }
        // 3. A 闲家 leads into its partner's void (the dealer must follow).
        if !self.is_dealer() {
            for s in 0..4 {
                let hs = hand.restrict(o.suit_mask(s));
                if hs.is_empty() || self.may_be_void(self.dealer, s) {
                    continue;
                }
                let partner_ruffs = (0..PLAYERS).any(|p| {
                    p != self.seat
                        && p != self.dealer
                        && o.suit_mask(s).minus(self.s.not_held(p)).is_empty()
                        && !self.may_hold(p).intersect(trump_mask).is_empty()
                });
                if partner_ruffs {
                    return single(self.cheapest(hs.kinds()));
                }
            }
        }
        // 4. Low from the dealer's shortest / the 闲家's longest plain suit (the dealer leads a
        // pointless trump rather than a plain point card).
        let mut pick: Option<((bool, bool, i32), usize)> = None;
        for s in 0..4 {
            let hs = hand.restrict(o.suit_mask(s));
            if hs.is_empty() {
                continue;
            }
            let len = hs.len() as i32;
            let dealer_void = !self.is_dealer() && self.may_be_void(self.dealer, s);
            let all_points = hs.kinds().iter().all(|c| c.points() > 0);
            let key = (dealer_void, all_points, len);
            if pick.is_none_or(|(k, _)| key < k) {
                pick = Some((key, s));
            }
        }
        if let Some(((_, all_points, _), s)) = pick {
            let pointless = trumps.kinds().iter().find(|&c| c.points() == 0);
            let prefer_trump = self.is_dealer() && pointless.is_some() && all_points;
            if !prefer_trump {
                return single(self.cheapest(hand.restrict(o.suit_mask(s)).kinds()));
            }
        }
        // 5. Only trumps: a master unit, else the cheapest trump.
        if let Some(u) = self.master_trump_unit(&trumps) {
            return u;
        }
        single(self.cheapest(trumps.kinds()))
    }

    /// Kinds no opponent may hold.
    fn common_absent(&self) -> CardSet {
        let mut m = CardSet::ALL;
        for p in self.opponents() {
            m = m.intersect(self.s.not_held(p));
        }
        m
    }

    /// The biggest master unit of the trumps (a tractor, pair or single), if any.
    fn master_trump_unit(&self, trumps: &Multiset) -> Option<Multiset> {
        if trumps.is_empty() {
            return None;
        }
        // Without a master single, a master pair or two adjacent pairs (a tractor), none.
        let o = self.o;
        let top = |m: u32| 31 - m.leading_zeros() as usize;
        let mine = o.index_mask(TRUMP, trumps.kinds());
        let single = !above(self.unseen_idx[TRUMP], top(mine));
        let pairs = o.index_mask(TRUMP, trumps.pairs());
        let pair = pairs != 0 && !above(o.index_mask(TRUMP, self.unseen.pairs()), top(pairs));
        let tractor = pairs & (pairs >> 1) & o.links(TRUMP) != 0;
        if !(single || pair || tractor) {
            return None;
        }
        let f = self.units(trumps);
        f.units.iter().find(|u| self.is_master(u)).map(|u| u.to_multiset())
    }

    /// The cheapest card among `kinds` to give away (points last).
    fn cheapest(&self, kinds: CardSet) -> Card {
        kinds.iter().min_by_key(|&c| (self.cost(c), c.index())).expect("a card")
    }

    // -------------------------------------------------------------------------- follows

    fn follow_single(&self, led: usize) -> Multiset {
        let pool = single_follow_pool(self.o, led, &self.hand);
        if pool.len() == 1 {
            return Multiset::from_set(pool);
        }
        let trick = self.s.current_trick();
        let wi = tuple_winner(self.tr, led, 1, trick);
        let w = trick[wi].kinds().first().expect("one card");
        let winner = self.seat_of(wi);
        let beats = |x: Card| {
            let (sx, sw) = (self.o.suit(x), self.o.suit(w));
            (sx == sw && self.o.index(x) > self.o.index(w)) || (sx == TRUMP && sw != TRUMP)
        };
        let winners: CardSet = pool.iter().filter(|&c| beats(c)).fold(CardSet::EMPTY, |m, c| {
            let mut m = m;
            m.insert(c);
            m
        });
        let trick_points: i32 = trick.iter().map(points_of).sum();
        if !self.is_dealer() {
            if winner != self.dealer {
                let dealer_after = self.after().any(|p| p == self.dealer);
                if !dealer_after || !self.may_beat_single(self.dealer, led, w) {
                    return single(self.dump(pool));
                }
                // The partner may be beaten: make the trick safe (the partners after the
                // dealer then add their points) with the cheapest card the dealer cannot beat.
                let sure = winners.iter().filter(|&x| !self.may_beat_single(self.dealer, led, x));
                if let Some(x) = sure.min_by_key(|&x| (self.keep(x), x.index())) {
                    return single(x);
                }
                return single(self.cheapest(pool));
            }
            // The dealer is winning (and has played): beat it, giving most points.
            if let Some(x) =
                winners.iter().min_by_key(|&x| (-(x.points() as i32), self.keep(x), x.index()))
            {
                return single(x);
            }
            return single(self.cheapest(pool));
        }
        // The dealer follows: a 闲家 is winning.
        if winners.is_empty() {
            return single(self.cheapest(pool));
        }
        let mut after = [0usize; PLAYERS];
        let mut k = 0;
        for p in self.after() {
            after[k] = p;
            k += 1;
        }
        let safe = winners
            .iter()
            .filter(|&x| after[..k].iter().all(|&p| !self.may_beat_single(p, led, x)));
        if let Some(x) = safe.min_by_key(|&x| (-(x.points() as i32), self.keep(x), x.index())) {
            return single(x);
        }
        if trick_points >= RISK_POINTS {
            let x = winners.iter().max_by_key(|&x| (self.o.suit(x) == TRUMP, self.o.index(x)));
            return single(x.expect("a winner"));
        }
        single(self.cheapest(pool))
    }

    /// The card to add to a trick the seat's side wins safely: most points, never a top trump;
    /// the cheapest card when there are no points to give.
    fn dump(&self, pool: CardSet) -> Card {
        pool.iter()
            .filter(|&c| c.points() > 0 && !is_top_trump(self.o, c))
            .max_by_key(|&c| (c.points(), -self.keep(c), c.index()))
            .unwrap_or_else(|| self.cheapest(pool))
    }

    fn follow_many(&self, lead: &Format) -> Multiset {
        let tr = self.tr;
        let trick = self.s.current_trick();
        let wi = trick_winner_of(tr, lead, trick).unwrap_or(0);
        let winner = self.seat_of(wi);
        let n = lead.cards as usize;
        let led = lead.suit as usize;
        let hs = self.hand.restrict(self.o.suit_mask(led));
        let mut cands: Vec<Multiset> = Vec::with_capacity(FOLLOW_LIMIT + 8);
        let moves = FollowMoves::new(tr, lead, &self.hand).expect("a full hand");
        if hs.len() >= n {
            // Legal by construction.
            moves.for_each(&mut |p| {
                cands.push(*p);
                if cands.len() >= FOLLOW_LIMIT {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        } else {
            // The whole suit and the cheapest or richest discards (any discards are legal once
            // the suit is exhausted, §B.8), and the ruffs of a one-unit lead.
            let others = self.hand.restrict(CardSet::ALL.minus(self.o.suit_mask(led)));
            let r = n - hs.len();
            let mut rest: Vec<(i32, Card)> = others.iter().map(|c| (self.cost(c), c)).collect();
            rest.sort_unstable_by_key(|&(k, c)| (k, c.index()));
            cands.push(with(hs, rest[..r].iter().map(|&(_, c)| c)));
            let mut rich: Vec<((bool, i32, i32), Card)> = others
                .iter()
                .map(|c| ((is_top_trump(self.o, c), -(c.points() as i32), self.keep(c)), c))
                .collect();
            rich.sort_unstable_by_key(|&(k, c)| (k, c.index()));
            cands.push(with(hs, rich[..r].iter().map(|&(_, c)| c)));
            if hs.is_empty() && lead.units.len() == 1 {
                let u = lead.largest();
                let _ = for_each_unit_of(tr, &self.hand, TRUMP, u.mult, u.len as usize, &mut |t| {
                    cands.push(t.to_multiset());
                    ControlFlow::Continue(())
                });
            }
            cands.retain(|m| m.len() == n && moves.check(m).is_ok());
            if cands.is_empty() {
                // Cannot happen (the whole suit plus discards is legal); stay legal anyway.
                return moves.enumerate(1)[0];
            }
        }
        // Each candidate: (play, points, keep, top trumps given); whether it wins is computed
        // only where it matters.
        let evals: Vec<(Multiset, i32, i32, u32)> = cands
            .iter()
            .map(|m| {
                let mut keep = 0;
                let mut top = 0;
                for c in m.kinds() {
                    let k = m.count(c) as i32;
                    keep += k * self.keep(c);
                    top += k as u32 * is_top_trump(self.o, c) as u32;
                }
                (*m, points_of(m), keep, top)
            })
            .collect();
        let cheapest = || evals.iter().min_by_key(|e| 3 * e.1 + e.2).expect("a play").0;
        let richest = |e: &&(Multiset, i32, i32, u32)| (-e.1, e.2);
        if !self.is_dealer() && winner != self.dealer {
            let dealer_after = self.after().any(|p| p == self.dealer);
            if !dealer_after || !self.may_beat_play(self.dealer, led, &trick[wi]) {
                return evals.iter().min_by_key(|e| (e.3, -e.1, e.2)).expect("a play").0;
            }
            return cheapest();
        }
        let winning: Vec<&(Multiset, i32, i32, u32)> =
            evals.iter().filter(|e| play_wins(tr, lead, trick, wi, &e.0)).collect();
        if !self.is_dealer() {
            if let Some(e) = winning.iter().copied().min_by_key(richest) {
                return e.0;
            }
            return cheapest();
        }
        if winning.is_empty() {
            return cheapest();
        }
        let mut after = [0usize; PLAYERS];
        let mut k = 0;
        for p in self.after() {
            after[k] = p;
            k += 1;
        }
        let safe = |m: &Multiset| after[..k].iter().all(|&p| !self.may_beat_play(p, led, m));
        if let Some(e) = winning.iter().copied().filter(|e| safe(&e.0)).min_by_key(richest) {
            return e.0;
        }
        let trick_points: i32 = trick.iter().map(points_of).sum();
        if trick_points >= RISK_POINTS {
            return winning.iter().max_by_key(|e| e.2).expect("a winner").0;
        }
        cheapest()
    }
}

/// Whether index mask `mask` has a bit above `index`.
#[inline]
fn above(mask: u32, index: usize) -> bool {
    index < 31 && mask >> (index + 1) != 0
}

fn single(c: Card) -> Multiset {
    Multiset::from_set(CardSet::single(c))
}

fn with(base: Multiset, extra: impl Iterator<Item = Card>) -> Multiset {
    let mut m = base;
    for c in extra {
        m.add(c);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::deal_rng;
    use crate::game::{Game, GameState};
    use crate::games::hongwu::game_tests::option_sets;
    use crate::games::hongwu::HongWuRules;
    use crate::policy::Policy;
    use crate::simulator::DealSimulator;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    /// At every decision of greedy and random deals under every option set, the greedy move is
    /// legal, and it is the same in every world drawn for the seat to act: the player sees only
    /// what its seat knows (the other hands and an unseen kitty do not change its move).
    #[test]
    fn greedy_moves_are_legal_and_depend_only_on_the_seats_knowledge() {
        let mut rng = deal_rng(77, 7);
        let (mut decisions, mut worlds) = (0, 0);
        for (k, r) in option_sets().iter().enumerate() {
            for (i, policy) in [Policy::Greedy, Policy::Random].into_iter().enumerate() {
                let mut s = r.new_deal(900 + k as u64, i as u64).unwrap();
                while !s.is_terminal() {
                    let mv = greedy_action(s.core());
                    assert!(s.check_move(&mv).is_ok(), "{mv:?}: {:?}", s.check_move(&mv));
                    decisions += 1;
                    let seat = s.current_player().unwrap();
                    if decisions % 3 == 0 {
                        let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
                        for _ in 0..2 {
                            let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
                            assert_eq!(greedy_action(w.core()), mv, "seat {seat} in a world");
                            worlds += 1;
                        }
                    }
                    s.apply_builtin(policy).unwrap();
                }
            }
        }
        assert!(decisions > 1000 && worlds > 600, "{decisions} {worlds}");
    }

    /// The bid's estimate, by hand: hearts trump (16 trumps, 10 of them top trumps — ♥5 ♥5 BJ
    /// BJ SJ ♥3 ♦3 ♥2 ♥2 ♠2 —, 4 pairs), 50 points, one plain ace, one short plain suit (no
    /// diamonds): (−3259 + 545·16 + 197·10 + 189·4 + 21·50 + 345·1 + 415·1) / 100 = 99.
    #[test]
    fn expected_points_of_a_strong_hand() {
        let hand =
            ms("5H 5H BJ BJ SJ 2H 2H 3H 3D 2S AH AH KH 10H 9H 8H AS KS 10S 9S 4C 6C 7C 8C 9C");
        let orders = trump_orders(&HongWuRules::default());
        assert_eq!(trump_choice(&hand, orders), Suit::Hearts);
        assert_eq!(bid_features(&hand, orders), [16, 10, 4, 50, 1, 1]);
        assert_eq!(expected_points(&hand, orders), 99);
        let weak = ms("4S 6S 7S 8S 9S 4H 6H 7H 8H 9H 4D 6D 7D 8D 9D 4C 6C 7C 8C 9C JS JH JD JC QS");
        assert!(expected_points(&weak, orders) < 60, "a weak hand passes");
    }

    /// The burial voids the plain suits that fit (here clubs and diamonds: 3 + 5 cards) rather
    /// than the cheapest cards, and buries no trump.
    #[test]
    fn burial_voids_short_suits() {
        let r = HongWuRules::default();
        let hand = ms("5H BJ SJ 3S 3S 3C 2S 2H 2D AS KS QS JS 10S 9S 8S 7S 6S 5S 4S \
             AH KH QH JH 10H 4H 4D 6D 9D QD KD 7C 9C");
        assert_eq!(hand.len(), 33);
        // Build a state at the burial holding exactly this hand: seat 0 deals with spades trump.
        let mut deck = Multiset::full_decks(2, true).unwrap();
        deck.remove_all(&hand).unwrap();
        let rest: Vec<Card> = deck.iter().collect();
        let mut hands = [Multiset::EMPTY; 4];
        hands[0] = Multiset::from_cards(&hand.iter().take(25).collect::<Vec<_>>()).unwrap();
        let kitty = Multiset::from_cards(&hand.iter().skip(25).collect::<Vec<_>>()).unwrap();
        for (p, chunk) in rest.chunks(25).enumerate() {
            hands[p + 1] = Multiset::from_cards(chunk).unwrap();
        }
        let mut s = HongWuState::with_hands(&r, hands, kitty, 0).unwrap();
        for a in [Bid::Points(60), Bid::Pass, Bid::Pass, Bid::Pass] {
            s.apply(&Action::Bid(a)).unwrap();
        }
        s.apply(&Action::Trump(Suit::Spades)).unwrap();
        let Action::Bury(b) = greedy_action(&s) else { panic!("a burial") };
        // Clubs (2) and diamonds (5) voided, then the least bad heart; hearts and clubs (8)
        // would bury AH, KH and 10H.
        assert_eq!(b, ms("4D 6D 9D QD KD 7C 9C 4H"));
        let o = &s.trick_rules().unwrap().order;
        assert!(b.iter().all(|c| !o.is_trump(c)), "{b}");
    }

    fn checksum(r: &HongWuRules, policy: Policy, n: u64) -> i64 {
        let mut row = vec![0i32; DealSimulator::columns(r).len()];
        let mut sum = 0i64;
        for i in 0..n {
            r.play_deal(policy, &mut deal_rng(1, i), &mut row).unwrap();
            sum = sum.wrapping_mul(31).wrapping_add(row.iter().map(|&v| v as i64).sum::<i64>());
        }
        sum
    }

    /// `random` rows are those of before the greedy player changed, and `basic` rows are those
    /// of the greedy player of before (the checksums of `examples/hongwu_deals.rs`, taken before
    /// the change: `hongwu random 2000`, `hongwu greedy 300`).
    #[test]
    fn random_and_basic_rows_are_unchanged() {
        let r = HongWuRules::default();
        assert_eq!(checksum(&r, Policy::Random, 2000), 1340108053693026035);
        assert_eq!(checksum(&r, Policy::Basic, 300), -4636816682703864129);
    }
}
