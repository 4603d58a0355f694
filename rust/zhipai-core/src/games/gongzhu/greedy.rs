//! The greedy Gongzhu player (`Policy::Greedy`): a rule-based player cheap enough to be the
//! rollout policy of search players, reading only what its seat knows — its hand, the cards
//! played and taken (public), the trick, the open exposures and its own closed declarations,
//! the hand sizes, and the voids shown by play ([`State::voids`]). It never looks at another
//! hand, nor at another seat's closed declaration.
//!
//! **Exposure** ([`greedy_exposure`]): expose ♠Q when holding at least 4 other spades or ♠Q with
//! ♠A and ♠K and 3 other spades… see [`greedy_exposure`]; expose ♦J when it is likely to win it;
//! never ♣10 or ♥A; open declarations only.
//!
//! **Play** ([`greedy_play`]): every candidate play gets a utility, the highest wins (ties: the
//! first in card order). Utilities are in points, as the seat's credited result sees them: the
//! seat's own raw score counts 3, another seat's −1 (individual play, where a seat's result is
//! `r − (S − r)/3`), a partner's +3 and an opponent's −3 (partnership); with `normalize = none`
//! other seats count 0 (individual) or only the partner counts. A play's utility is
//!
//! * **the trick's value**: who takes the trick's cards and what they are worth to the taker
//!   (the exact change of the taker's raw score, transformer, exposure factors and 全红 included):
//!   - a play that does not beat the trick as it stands gives its points to the current winner;
//!   - the last play of a trick that beats it takes the trick, for certain;
//!   - an earlier play that beats it takes it with a probability from the unseen higher cards of
//!     the suit and the players still to play that are not known void in it (a boss card: 1),
//!     with what the players still to play are expected to add: a void player dumps the pig if
//!     it may hold it, else a high heart; followers of a heart lead add hearts; followers of a
//!     spade trick won with ♠K/♠A drop the pig on it when they may hold it;
//! * **what leaving the hand is worth** (the risk of keeping the card): the pig (it can still be
//!   dumped later, but not surely), ♠A/♠K while another seat may hold the pig, hearts that would
//!   win a heart trick, high cards in general (they win tricks others dump on); minus the value
//!   of keeping the sheep (♦J) and, while the sheep is out, the diamonds above it; a bonus for
//!   becoming void while the pig or hearts are out;
//! * **hunting the pig**: leading a spade below ♠Q while another seat holds the pig and the seat
//!   holds no spade above it, which makes the pig's holder drop it on ♠K/♠A.
//!
//! So it dumps the pig on another seat's ♠K/♠A or on a void, dumps ♠A/♠K and high hearts when
//! void, ducks under the trick with the highest card that stays under, takes tricks holding the
//! sheep when it can keep them, and sheds its highest card when it takes a harmless trick anyway.

use super::options::{ExposureMode, GongzhuRules, Normalize};
use super::play::{play_key, suit_of, Play, Position};
use super::scoring::{raw_score_of, Exposure, Takes, EXPOSABLE, HEART_ACE, PIG, SHEEP};
use super::state::{Move, State};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::multiset::Multiset;

/// Heart values of §A.4 (♥2..♥A).
const HEART_VALUES: [i64; 13] = [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50];

/// Card mask of the 52 kinds.
const DECK: u64 = (1 << 52) - 1;

/// Probabilities are fixed-point fractions of `ONE`.
const ONE: i64 = 256;

#[inline(always)]
fn rank_of(c: Card) -> usize {
    c.index() % 13
}

/// The cards of suit `s` ranked strictly above `rank`.
#[inline(always)]
fn above(s: Suit, rank: usize) -> u64 {
    s.mask().0 & !((2u64 << (s.index() * 13 + rank)) - 1)
}

/// The takes of the single card `c` (the additive summary scoring reads).
#[inline(always)]
fn takes_of_card(c: Card) -> Takes {
    let heart = suit_of(c) == Suit::Hearts;
    Takes {
        hearts: heart as u32,
        heart_points: if heart { HEART_VALUES[rank_of(c)] } else { 0 },
        pigs: (c == PIG) as u32,
        sheep: (c == SHEEP) as u32,
        transformers: (c == super::scoring::TRANSFORMER) as u32,
    }
}

#[inline(always)]
fn add(a: Takes, b: Takes) -> Takes {
    Takes {
        hearts: a.hearts + b.hearts,
        heart_points: a.heart_points + b.heart_points,
        pigs: a.pigs + b.pigs,
        sheep: a.sheep + b.sheep,
        transformers: a.transformers + b.transformers,
    }
}

/// The exposure levels seat `me` knows: every open exposure (the automatic one included) and its
/// own closed declarations; another seat's closed declaration is not known.
pub fn known_exposure(state: &State, me: usize) -> Exposure {
    if state.rules().exposure_mode != ExposureMode::ClosedOpen {
        return state.exposure();
    }
    let mut e = Exposure::default();
    for s in 0..4 {
        let (open, closed) = state.exposed(s);
        for (i, &c) in EXPOSABLE.iter().enumerate() {
            e.level[i] += 2 * open.count(c) as u8;
            if s == me {
                e.level[i] += closed.count(c) as u8;
            }
        }
    }
    e
}

/// The greedy exposure decision for the seat to act (open declarations only): expose ♠Q when
/// holding at least 5 spades, ♦J when holding ♦A or ♦K and at least 3 diamonds; never ♣10 nor
/// ♥A. A copy already declared (openly or closed) is never declared again.
pub fn greedy_exposure(state: &State) -> Move {
    let p = state.current_player().unwrap_or(0);
    let hand = state.hand(p);
    let (open, closed) = state.exposed(p);
    let spades = hand.count_in(Suit::Spades.mask());
    let diamonds = hand.count_in(Suit::Diamonds.mask());
    let high_diamond = hand.contains(Card::new(Suit::Diamonds, Rank::ACE))
        || hand.contains(Card::new(Suit::Diamonds, Rank::KING));
    for c in [PIG, SHEEP] {
        let want = if c == PIG { spades >= 5 } else { high_diamond && diamonds >= 3 };
        if want && hand.count(c) > open.count(c) + closed.count(c) {
            return Move::Expose(c);
        }
    }
    Move::EndExposure
}

/// Everything a decision reads, computed once per decision from what the seat knows.
struct Ctx<'a> {
    rules: &'a GongzhuRules,
    me: usize,
    hand: Multiset,
    /// Cards the seat cannot see: neither played nor in its hand (in the other three hands).
    unseen: Multiset,
    exposure: Exposure,
    /// Weight of a raw point taken by each seat, seen from `me` (×3; see the module docs).
    weight: [i64; 4],
    /// Mean weight of the three other seats.
    other_weight: i64,
    /// Chance (of [`ONE`]) that each seat holds a pig, from what `me` knows.
    pig_chance: [i64; 4],
    /// Mean value of an unseen heart to its taker (≤ 0), and whether any heart is unseen.
    heart_mean: i64,
    hearts_out: bool,
    pig_out: bool,
    sheep_out: bool,
    /// The trick so far: its cards' takes, the best key and its seat, the led suit.
    trick_takes: Takes,
    best_key: u32,
    winner: usize,
    led: Option<Suit>,
    /// Seats still to play after `me` in this trick.
    followers: [usize; 3],
    n_followers: usize,
    /// Takes of `me` and of the current winner so far.
    my_takes: Takes,
    winner_takes: Takes,
    /// Bits of suits each seat is known void in.
    voids: [u8; 4],
}

impl Ctx<'_> {
    fn new(state: &State) -> Ctx<'_> {
        let rules = state.rules();
        let me = state.current_player().unwrap_or(0);
        let hand = *state.hand(me);
        let played = state.played().planes();
        let h = hand.planes();
        let unseen = if rules.decks == 1 {
            Multiset::from_set(CardSet(DECK & !(played[0] | h[0])))
        } else {
            // Two copies of each kind minus the played ones and the held ones.
            let gone_two = played[1] | h[1] | (played[0] & h[0]);
            let none_gone = !(played[0] | h[0]);
            let mut m = Multiset::from_set(CardSet(DECK & !gone_two));
            for c in CardSet(DECK & none_gone) {
                m.add(c);
            }
            m
        };
        let exposure = known_exposure(state, me);
        let other = match (rules.partnership, rules.normalize == Normalize::None) {
            (false, false) => -1,
            (false, true) => 0,
            (true, false) => -3,
            (true, true) => 0,
        };
        let mut weight = [other; 4];
        weight[me] = 3;
        if rules.partnership {
            weight[(me + 2) % 4] = 3;
        }
        let other_weight = (weight.iter().sum::<i64>() - 3) / 3;
        let voids = std::array::from_fn(|s| state.voids(s));
        let hearts_unseen = unseen.restrict(Suit::Hearts.mask());
        let n_hearts = hearts_unseen.len() as i64;
        let heart_mean = if n_hearts == 0 {
            0
        } else {
            let pts: i64 = hearts_unseen
                .planes()
                .iter()
                .map(|&p| {
                    CardSet(p).iter().map(|c| HEART_VALUES[rank_of(c)]).sum::<i64>()
                })
                .sum();
            pts * exposure.factor(3) / n_hearts
        };
        let pig_out = unseen.contains(PIG);
        let mut pig_chance = [0; 4];
        if pig_out {
            let known = (0..4).find(|&s| {
                s != me && state.exposed(s).0.count(PIG) > state.played_by(s).count(PIG)
            });
            if let Some(s) = known {
                pig_chance[s] = ONE;
            } else {
                let spade = 1 << Suit::Spades.index();
                let size = |s: usize| {
                    if s == me || voids[s] & spade != 0 {
                        0
                    } else {
                        state.hand(s).len() as i64
                    }
                };
                let total: i64 = (0..4).map(size).sum();
                if total > 0 {
                    for (s, p) in pig_chance.iter_mut().enumerate() {
                        *p = size(s) * ONE / total;
                    }
                }
            }
        }
        let (leader, trick) = state.current_trick();
        let led = trick.first().map(|p| suit_of(p.first()));
        let mut trick_takes = Takes::default();
        let mut best_key = 0;
        let mut winner = me;
        let mut seat = leader;
        for p in trick {
            for &c in p.cards() {
                trick_takes = add(trick_takes, takes_of_card(c));
            }
            let k = play_key(rules, led.unwrap_or(Suit::Spades), p);
            if k > best_key {
                best_key = k;
                winner = seat;
            }
            seat = rules.next_seat(seat);
        }
        let mut followers = [0; 3];
        let n_followers = 3 - trick.len();
        let mut s = me;
        for f in followers.iter_mut().take(n_followers) {
            s = rules.next_seat(s);
            *f = s;
        }
        Ctx {
            rules,
            me,
            hand,
            unseen,
            exposure,
            weight,
            other_weight,
            pig_chance,
            heart_mean,
            hearts_out: n_hearts > 0,
            pig_out,
            sheep_out: unseen.contains(SHEEP),
            trick_takes,
            best_key,
            winner,
            led,
            followers,
            n_followers,
            my_takes: Takes::of(state.taken(me)),
            winner_takes: Takes::of(state.taken(winner)),
            voids,
        }
    }

    /// The change of a raw score with takes `before` when it also takes `extra`.
    #[inline(always)]
    fn delta(&self, before: Takes, extra: Takes) -> i64 {
        raw_score_of(self.rules, &add(before, extra), &self.exposure)
            - raw_score_of(self.rules, &before, &self.exposure)
    }

    /// The plain value of takes to any taker (hearts, pig, sheep with the known factors; the
    /// transformer and the all-hearts flip left out).
    #[inline(always)]
    fn plain(&self, t: Takes) -> i64 {
        t.heart_points * self.exposure.factor(3) - 100 * self.exposure.factor(0) * t.pigs as i64
            + 100 * self.exposure.factor(1) * t.sheep as i64
    }

    /// What the players still to play are expected to add to a trick of suit `s` that `me` is
    /// winning with `top` (raw points to the taker).
    fn expected_additions(&self, s: Suit, top: Card) -> i64 {
        let pig = -100 * self.exposure.factor(0);
        let mut sum = 0;
        for &f in &self.followers[..self.n_followers] {
            let pig_p = self.pig_chance[f];
            if self.voids[f] & (1 << s.index()) != 0 {
                // A void player dumps the pig if it holds it, else a high heart.
                let heart = if self.hearts_out && self.voids[f] & 2 == 0 {
                    2 * self.heart_mean
                } else {
                    0
                };
                sum += (pig_p * pig + (ONE - pig_p) * heart) / ONE;
            } else if s == Suit::Hearts {
                sum += self.heart_mean;
            } else if s == Suit::Spades && self.pig_out && rank_of(top) > rank_of(PIG) {
                sum += pig_p * pig / ONE;
            }
        }
        sum
    }

    /// The chance (of [`ONE`]) that the players still to play leave `me` the trick it is
    /// winning with `top`: from the unseen cards of the suit above `top` and how many cards the
    /// followers not void in the suit hold against the other seats.
    fn keep_chance(&self, s: Suit, top: Card, value: i64) -> i64 {
        let higher = self.unseen.count_in(CardSet(above(s, rank_of(top)))) as u32;
        if higher == 0 || self.n_followers == 0 {
            return ONE;
        }
        let bit = 1u8 << s.index();
        let mut with_followers = 0u32;
        for &f in &self.followers[..self.n_followers] {
            if self.voids[f] & bit == 0 {
                with_followers += 1;
            }
        }
        if with_followers == 0 {
            return ONE;
        }
        // Each higher card sits with a follower with chance about (followers not void) / 3; a
        // follower holding one takes a valuable trick but ducks a costly one when it can.
        let mut keep = ONE;
        let miss = ONE - with_followers as i64 * ONE / 3;
        for _ in 0..higher.min(6) {
            keep = keep * miss / ONE;
        }
        let beaten = ONE - keep;
        let beaten = if value < 0 { beaten / 2 } else { beaten };
        ONE - beaten
    }

    /// The value of no longer holding `c` (the risk of keeping it), in raw points of `me`.
    fn shed_value(&self, c: Card, hand_after: &Multiset) -> i64 {
        let s = suit_of(c);
        let r = rank_of(c);
        let higher = self.unseen.count_in(CardSet(above(s, r))) as i64;
        // High cards win tricks others dump on.
        let mut v = 8 / (1 + higher) + r as i64 / 4;
        if c == PIG {
            v += 50 * self.exposure.factor(0);
        } else if s == Suit::Spades && self.pig_out && r > rank_of(PIG) {
            let low_spades = hand_after.count_in(CardSet(Suit::Spades.mask().0 & !above(s, 9)));
            v += 30 * self.exposure.factor(0) / (1 + low_spades as i64);
        } else if s == Suit::Hearts {
            // A heart that would win a heart trick takes about four hearts.
            v += -4 * self.heart_mean / (1 + 2 * higher);
        } else if c == SHEEP {
            v -= 40 * self.exposure.factor(1);
        } else if s == Suit::Diamonds && self.sheep_out && r > rank_of(SHEEP) {
            v -= 10 * self.exposure.factor(1);
        }
        if hand_after.count_in(s.mask()) == 0 && (self.pig_out || self.hearts_out) {
            v += 6;
        }
        v
    }

    /// The utility of `play` (see the module docs).
    fn utility(&self, play: &Play) -> i64 {
        let s = self.led.unwrap_or_else(|| suit_of(play.first()));
        let key = play_key(self.rules, s, play);
        let mut play_takes = Takes::default();
        let mut hand_after = self.hand;
        for &c in play.cards() {
            play_takes = add(play_takes, takes_of_card(c));
            hand_after.remove(c);
        }
        let trick = add(self.trick_takes, play_takes);
        let trick_value = if key > self.best_key || self.led.is_none() {
            let top = if play.len() == 2 && play.cards()[1].index() > play.first().index() {
                play.cards()[1]
            } else {
                play.first()
            };
            if self.n_followers == 0 {
                3 * self.delta(self.my_takes, trick)
            } else {
                let extra = self.expected_additions(s, top);
                let mine = self.delta(self.my_takes, trick) + extra;
                let keep = self.keep_chance(s, top, mine);
                let theirs = self.plain(trick) + extra;
                (keep * 3 * mine + (ONE - keep) * self.other_weight * theirs) / ONE
            }
        } else {
            self.weight[self.winner] * self.delta(self.winner_takes, trick)
        };
        let mut shed = 0;
        for &c in play.cards() {
            shed += self.shed_value(c, &hand_after);
        }
        let mut u = trick_value + 3 * shed;
        if self.led.is_none() && s == Suit::Spades && self.pig_out {
            let top = rank_of(play.first());
            let high = self.hand.count_in(CardSet(above(Suit::Spades, rank_of(PIG))));
            if top < rank_of(PIG) && high == 0 {
                u += 3 * 15 * self.exposure.factor(0);
            }
        }
        u
    }
}

/// The greedy play for the seat to act (see the module docs). `buf` is a reusable buffer for
/// the legal plays when a pair was led (two decks).
pub fn greedy_play(state: &State, buf: &mut Vec<Play>) -> Play {
    let ctx = Ctx::new(state);
    let pos: Position = state.position();
    let mut best = None;
    let mut best_u = i64::MIN;
    let mut consider = |play: Play| {
        let u = ctx.utility(&play);
        if u > best_u {
            best_u = u;
            best = Some(play);
        }
    };
    match pos.lead {
        Some(lead) if lead.len() == 2 => {
            state.legal_plays_into(buf);
            for &p in buf.iter() {
                consider(p);
            }
        }
        _ => {
            let (singles, pairs) = candidates(state.rules(), &pos);
            for c in singles {
                consider(Play::single(c));
            }
            for c in pairs {
                consider(Play::two(c, c));
            }
        }
    }
    best.expect("a seat to act has a legal play")
}

/// The legal single cards and pairs (two-deck leads) of a lead or a single-card follow, as
/// [`super::play::legal_plays`] lists them.
fn candidates(rules: &GongzhuRules, pos: &Position) -> (CardSet, CardSet) {
    if let Some(card) = pos.forced {
        if pos.lead.is_none() && pos.hand.contains(card) {
            let pair = if pos.hand.count(card) >= 2 { CardSet::single(card) } else { CardSet::EMPTY };
            return (CardSet::single(card), pair);
        }
    }
    let playable = pos.playable(rules);
    let hand = if playable.is_empty() { pos.hand } else { playable };
    let kinds = hand.kinds();
    match pos.lead {
        None if rules.decks == 2 => (kinds, hand.pairs()),
        None => (kinds, CardSet::EMPTY),
        Some(lead) => {
            let follow = kinds & suit_of(lead.first()).mask();
            (if follow.is_empty() { kinds } else { follow }, CardSet::EMPTY)
        }
    }
}

const _: () = assert!(HEART_ACE.index() == 13 + 12);
