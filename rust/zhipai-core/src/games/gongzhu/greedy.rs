//! The greedy Gongzhu player (`Policy::Greedy`): a rule-based player cheap enough to be the
//! rollout policy of search players. It reads only what its seat knows: its hand, the cards
//! played and taken (public), the trick, the open exposures (the automatic one included) and its
//! own closed declarations, the hand sizes, and the voids shown by play ([`State::voids`]) —
//! never another hand, nor another seat's closed declaration.
//!
//! It grew out of the first-generation player (`basic`, [`super::basic`]): the same scale (a
//! card's points × 100 plus a rank tie-break when following; 10 per rank when leading), with
//! rules added one at a time, each kept only if it won in duplicate deals against the player
//! without it (`examples/gongzhu_versus.rs`).
//!
//! **Exposure** ([`greedy_exposure`], open declarations only): ♠Q when holding at least 5 spades
//! (the pig is then safe to keep until it can be dumped); ♦J always (its holder usually takes it
//! in the end, so doubling it pays); never ♣10 nor ♥A. A copy already declared is never declared
//! again.
//!
//! **Leads**: the lowest card, but
//! * never the pig, nor ♠A/♠K while another seat may hold the pig;
//! * **hunting the pig**: a spade below ♠Q while the pig is out and the seat holds no spade above
//!   it (the pig's holder must drop it on a ♠K/♠A some day);
//! * **protecting the pig**: holding it, not a spade while holding 3 spades or fewer, and rather a
//!   short side suit (to become void and dump it);
//! * low hearts (at least 2 unseen hearts above) push hearts onto the others; other hearts are
//!   avoided;
//! * a diamond above ♦J hunts the sheep while it is out; ♦J itself once no unseen diamond beats
//!   it (the seat takes the sheep);
//! * not a card no unseen card beats in a suit another seat is known void in (it would dump the
//!   pig or hearts on the seat's winning card).
//!
//! **Follows**:
//! * a play that beats the trick as it stands scores what the seat would take — the exact change
//!   of its raw score (a ♣10 alone counts −10: its +50 rarely survives the deal) — and, not being
//!   last, a gain only as far as the players still to play are unlikely to beat it (the unseen
//!   higher cards, the followers not known void). Last, it takes with its highest card; not last,
//!   with its lowest, unless it cannot duck a harmless trick (nothing to drop on it, not hearts):
//!   then it sheds its highest;
//! * a play under the winner scores the points it gives the winner (negative for the seat: the
//!   pig first, then the highest hearts), or, in partnership play, the points it gives its
//!   partner when the partner is winning; then its rank (the highest card that stays under);
//! * **discards** (void in the led suit) add: ♠A/♠K while the pig is out (30 per pig factor), a
//!   card of a suit the seat is about to be void in; and keep the diamonds above ♦J while the
//!   sheep is out. The sheep goes to an opponent's trick only when nothing else can.
//!
//! Two decks: pairs are scored as two cards (a pair lead counts twice), two-card follows of a
//! pair lead by the same rules on their higher card.

use super::options::{ExposureMode, GongzhuRules, Normalize};
use super::play::{play_key, suit_of, Play, Position};
use super::scoring::{raw_score_of, Exposure, Takes, EXPOSABLE, PIG, SCORING, SHEEP};
use super::state::{Move, State};
use crate::cards::{Card, CardSet, Suit};

/// Heart values of §A.4 (♥2..♥A).
const HEART_VALUES: [i64; 13] = [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50];

/// Card mask of the 52 kinds.
const DECK: u64 = (1 << 52) - 1;

/// Probabilities are fixed-point fractions of `ONE`.
const ONE: i64 = 256;

/// Suit indices ([`Suit::index`]) and card masks.
const SPADES: usize = 0;
const HEARTS: usize = 1;
const DIAMONDS: usize = 2;
const SUIT_MASK: [u64; 4] = [0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39];
const PIG_INDEX: usize = PIG.index();
const SHEEP_INDEX: usize = SHEEP.index();
const PIG_RANK: usize = PIG_INDEX % 13;
const SHEEP_RANK: usize = SHEEP_INDEX % 13;

/// The takes of each single card, by card index.
const TAKES: [Takes; 52] = {
    let mut t = [Takes { hearts: 0, heart_points: 0, pigs: 0, sheep: 0, transformers: 0 }; 52];
    let mut i = 0;
    while i < 52 {
        if i / 13 == HEARTS {
            t[i].hearts = 1;
            t[i].heart_points = HEART_VALUES[i % 13];
        }
        t[i].pigs = (i == PIG_INDEX) as u32;
        t[i].sheep = (i == SHEEP_INDEX) as u32;
        t[i].transformers = (i == super::scoring::TRANSFORMER.index()) as u32;
        i += 1;
    }
    t
};

/// The cards of the suit of card index `c` ranked strictly above it, by card index.
const ABOVE: [u64; 52] = {
    let mut t = [0; 52];
    let mut c = 0;
    while c < 52 {
        t[c] = SUIT_MASK[c / 13] & !((2u64 << c) - 1);
        c += 1;
    }
    t
};

/// The suit index and the rank index (0 = 2 … 12 = A) of each card index.
const SUIT_OF: [u8; 52] = {
    let mut t = [0; 52];
    let mut c = 0;
    while c < 52 {
        t[c] = (c / 13) as u8;
        c += 1;
    }
    t
};
const RANK_OF: [u8; 52] = {
    let mut t = [0; 52];
    let mut c = 0;
    while c < 52 {
        t[c] = (c % 13) as u8;
        c += 1;
    }
    t
};

/// The cards of the suit of card index `c` ranked strictly above it.
#[inline(always)]
fn above_index(c: usize) -> u64 {
    ABOVE[c]
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

/// The greedy exposure decision for the seat to act (see the module docs).
pub fn greedy_exposure(state: &State) -> Move {
    let p = state.current_player().unwrap_or(0);
    let hand = state.hand(p);
    // A copy already declared either way cannot be declared again.
    let (open, closed) = state.exposed(p);
    let spades = hand.count_in(Suit::Spades.mask());
    for c in [PIG, SHEEP] {
        let want = c == SHEEP || spades >= 5;
        if want && hand.count(c) > open.count(c) + closed.count(c) {
            return Move::Expose(c);
        }
    }
    Move::EndExposure
}

/// How many cards of the kinds in `mask` the planes hold (plane 0: kinds held at least once,
/// plane 1: twice).
#[inline(always)]
fn count(planes: &[u64; 2], mask: u64) -> i64 {
    ((planes[0] & mask).count_ones() + (planes[1] & mask).count_ones()) as i64
}

/// Everything a decision reads, from what the seat knows: the little every decision needs is
/// computed at once, the rest when asked.
struct Ctx<'a> {
    state: &'a State,
    rules: &'a GongzhuRules,
    me: usize,
    /// The seat's hand and the cards it cannot see (neither played nor in its hand: in the
    /// other three hands), as planes (kinds held at least once, twice).
    hand: [u64; 2],
    unseen: [u64; 2],
    exposure: Exposure,
    /// The known factors of hearts, the pig and the sheep.
    hf: i64,
    pf: i64,
    sf: i64,
    pig_out: bool,
    sheep_out: bool,
    /// The trick so far: the led suit, the best key and its seat.
    led: Option<Suit>,
    led_index: usize,
    /// The card mask of the led suit (0 when leading).
    led_mask: u64,
    best_key: u32,
    winner: usize,
    /// How many seats play after `me` in this trick.
    n_followers: usize,
    /// Whether the seat holds a spade above ♠Q.
    high_spade: bool,
    /// The takes of the trick's cards so far, and [`Ctx::pig_chance`] of each seat, computed
    /// when first asked.
    trick_takes: std::cell::OnceCell<Takes>,
    pig_chances: std::cell::OnceCell<[i64; 4]>,
}

impl Ctx<'_> {
    fn new(state: &State) -> Ctx<'_> {
        let rules = state.rules();
        let me = state.current_player().unwrap_or(0);
        let p = state.played().planes();
        let h = state.hand(me).planes();
        let hand = [h[0], h[1]];
        let unseen = if rules.decks == 1 {
            [DECK & !(p[0] | h[0]), 0]
        } else {
            // Two copies of each kind minus the played ones and the held ones.
            [DECK & !(p[1] | h[1] | (p[0] & h[0])), DECK & !(p[0] | h[0])]
        };
        let (leader, trick) = state.current_trick();
        let led = trick.first().map(|p| suit_of(p.first()));
        let mut best_key = 0;
        let mut winner = me;
        if let Some(s) = led {
            let mut seat = leader;
            let mask = SUIT_MASK[s.index()];
            for p in trick {
                // As `play_key`: a single scores 16 + rank + 1 in the led suit, 0 elsewhere.
                let c = p.first().index();
                let k = if p.len() == 2 {
                    play_key(rules, s, p)
                } else if (mask >> c) & 1 != 0 {
                    17 + RANK_OF[c] as u32
                } else {
                    0
                };
                if k > best_key {
                    best_key = k;
                    winner = seat;
                }
                seat = rules.next_seat(seat);
            }
        }
        let exposure = known_exposure(state, me);
        Ctx {
            state,
            rules,
            me,
            hand,
            unseen,
            exposure,
            hf: exposure.factor(3),
            pf: exposure.factor(0),
            sf: exposure.factor(1),
            pig_out: unseen[0] & PIG.bit() != 0,
            sheep_out: unseen[0] & SHEEP.bit() != 0,
            led,
            led_index: led.map_or(0, Suit::index),
            led_mask: led.map_or(0, |s| SUIT_MASK[s.index()]),
            best_key,
            winner,
            n_followers: 3 - trick.len(),
            high_spade: hand[0] & above_index(PIG_INDEX) != 0,
            trick_takes: std::cell::OnceCell::new(),
            pig_chances: std::cell::OnceCell::new(),
        }
    }

    /// The weight of a raw point taken by seat `s`, seen from `me` (×3; see the module docs).
    #[inline(always)]
    fn weight(&self, s: usize) -> i64 {
        if s == self.me || (self.rules.partnership && s == (self.me + 2) % 4) {
            3
        } else {
            self.opponent_weight()
        }
    }

    /// The weight of an opponent's raw point.
    #[inline(always)]
    fn opponent_weight(&self) -> i64 {
        match (self.rules.partnership, self.rules.normalize == Normalize::None) {
            (false, false) => -1,
            (true, false) => -3,
            (_, true) => 0,
        }
    }

    /// The mean weight of the three other seats.
    fn other_weight(&self) -> i64 {
        let partner = if self.rules.partnership { 3 } else { self.opponent_weight() };
        (partner + 2 * self.opponent_weight()) / 3
    }

    /// The suits seat `s` is known void in (bits).
    #[inline(always)]
    fn voids(&self, s: usize) -> u8 {
        self.state.voids(s)
    }

    /// The seats still to play after `me` in this trick, in order.
    fn followers(&self) -> impl Iterator<Item = usize> + '_ {
        let mut s = self.me;
        (0..self.n_followers).map(move |_| {
            s = self.rules.next_seat(s);
            s
        })
    }

    /// The takes of the cards of the trick so far.
    fn trick_takes(&self) -> Takes {
        *self.trick_takes.get_or_init(|| {
            let mut t = Takes::default();
            for p in self.state.current_trick().1 {
                for &c in p.cards() {
                    t = add(t, TAKES[c.index()]);
                }
            }
            t
        })
    }

    /// Unseen cards of the kinds in `mask`.
    #[inline(always)]
    fn unseen_in(&self, mask: u64) -> i64 {
        count(&self.unseen, mask)
    }

    /// The seat's cards of the kinds in `mask`.
    #[inline(always)]
    fn held_in(&self, mask: u64) -> i64 {
        count(&self.hand, mask)
    }

    /// The mean value of an unseen heart to its taker (≤ 0; 0 when none is unseen).
    fn heart_mean(&self) -> i64 {
        let hearts = Suit::Hearts.mask().0;
        let n = self.unseen_in(hearts);
        if n == 0 {
            return 0;
        }
        let pts = Takes::of_set(self.unseen[0] & hearts).heart_points
            + Takes::of_set(self.unseen[1] & hearts).heart_points;
        pts * self.hf / n
    }

    /// The chance (of [`ONE`]) that seat `s` holds a pig, from what `me` knows: 1 for a seat
    /// known to hold an exposed pig, else in proportion to the hand sizes of the other seats not
    /// known void in spades.
    fn pig_chance(&self, s: usize) -> i64 {
        self.pig_chances.get_or_init(|| self.pig_chances_now())[s]
    }

    fn pig_chances_now(&self) -> [i64; 4] {
        let mut out = [0; 4];
        if !self.pig_out {
            return out;
        }
        let state = self.state;
        let known = |q: usize| state.exposed(q).0.count(PIG) > state.played_by(q).count(PIG);
        if let Some(q) = (0..4).find(|&q| q != self.me && known(q)) {
            out[q] = ONE;
            return out;
        }
        let size = |q: usize| {
            if q == self.me || self.voids(q) & (1 << SPADES) != 0 {
                0
            } else {
                state.hand(q).len() as i64
            }
        };
        let total: i64 = (0..4).map(size).sum();
        if total > 0 {
            for (q, o) in out.iter_mut().enumerate() {
                *o = size(q) * ONE / total;
            }
        }
        out
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
        t.heart_points * self.hf - 100 * self.pf * t.pigs as i64 + 100 * self.sf * t.sheep as i64
            - 10 * t.transformers as i64
    }

    /// The utility of leading `p` (see the module docs).
    fn lead_utility(&self, p: &Cand) -> i64 {
        let c = p.first;
        let (s, r) = (SUIT_OF[c] as usize, RANK_OF[c] as i64);
        let higher = self.unseen_in(above_index(c));
        let pig = PIG_RANK as i64;
        let mut u = -r * 10;
        if c == PIG_INDEX {
            u -= 2000;
        }
        match s {
            SPADES if self.pig_out && r > pig => u -= 1000,
            SPADES if self.pig_out && r < pig && !self.high_spade => u += 250,
            DIAMONDS if self.sheep_out && r > SHEEP_RANK as i64 => u += 500,
            HEARTS => u += if higher >= 2 { 100 } else { -50 },
            _ => {}
        }
        if c == SHEEP_INDEX && higher == 0 {
            u += 3000;
        }
        if self.hand[0] & PIG.bit() != 0 {
            let n = self.held_in(SUIT_MASK[s]);
            if s != SPADES {
                u += 20 * (4 - n.min(4));
            } else if c != PIG_INDEX && n <= 3 {
                u -= 100;
            }
        }
        if higher == 0 && (0..4).any(|o| o != self.me && self.voids(o) & (1 << s) != 0) {
            u -= 300;
        }
        u * p.len
    }

    /// The utility of following with `p` (see the module docs).
    fn follow_utility(&self, p: &Cand) -> i64 {
        let s = self.led_index;
        let high = RANK_OF[p.top] as i64;
        let last = self.n_followers == 0;
        if p.key > self.best_key {
            let trick = add(self.trick_takes(), p.takes());
            let mut value = self.my_value(trick);
            if !last && value > 0 {
                // A later player may take it: the value stays only if the seat keeps the trick.
                let keep = self.keep_chance(s, p.top);
                value = (keep * value + (ONE - keep) * self.other_weight() * self.plain(trick) / 3)
                    / ONE;
            }
            let shed = last
                || (value == 0
                    && s != HEARTS
                    && self.can_not_duck(s)
                    && self.expected_additions(s, p.top) == 0);
            value * 100 + if shed { high } else { -high }
        } else {
            let given = if p.scoring() { self.plain(p.takes()) } else { 0 };
            let sign = if self.weight(self.winner) > 0 { 1 } else { -1 };
            let mut u = sign * given * 100 + high;
            if SUIT_OF[p.first] as usize != s {
                for &c in &p.cards[..p.len as usize] {
                    u += self.discard_bonus(c) * 100;
                }
                if given == 0 {
                    let left = self.held_in(SUIT_MASK[SUIT_OF[p.first] as usize]) - 1;
                    u += 3 * (3 - left.min(3));
                }
            }
            u
        }
    }

    /// The value to `me` of taking `trick`: the exact change of its raw score, but a ♣10 that
    /// would be its only scoring card so far counts −10 (the +50 rarely survives the deal).
    fn my_value(&self, trick: Takes) -> i64 {
        let taken = self.state.taken(self.me);
        if trick.transformers == 0 && !taken.contains(super::scoring::TRANSFORMER) {
            return self.plain(trick);
        }
        let mine = Takes::of(taken);
        let all = add(mine, trick);
        if all.hearts == 0 && all.pigs == 0 && all.sheep == 0 {
            return if trick.transformers > 0 { -10 } else { 0 };
        }
        self.delta(mine, trick)
    }

    /// Whether every card of the seat in suit `s` beats the trick (no way to duck).
    fn can_not_duck(&self, s: usize) -> bool {
        let mine = self.hand[0] & SUIT_MASK[s];
        let best_rank = (self.best_key % 16) as usize;
        // Cards of the suit at or below the best card's rank would duck.
        best_rank > 0 && mine & !above_index(s * 13 + best_rank - 1) == 0
    }

    /// The chance (of [`ONE`]) that the players still to play leave `me` the trick it is
    /// winning with card `top` of suit `s`.
    fn keep_chance(&self, s: usize, top: usize) -> i64 {
        let higher = self.unseen_in(above_index(top));
        if higher == 0 || self.n_followers == 0 {
            return ONE;
        }
        let with = self.followers().filter(|&f| self.voids(f) & (1 << s) == 0).count() as i64;
        let miss = ONE - with * ONE / 3;
        let mut keep = ONE;
        for _ in 0..higher.min(6) {
            keep = keep * miss / ONE;
        }
        keep
    }

    /// Extra reasons to discard card `c` (when void in the led suit), in points.
    fn discard_bonus(&self, c: usize) -> i64 {
        let (s, r) = (SUIT_OF[c] as usize, RANK_OF[c] as usize);
        if s == SPADES && self.pig_out && r > PIG_RANK {
            return 30 * self.pf;
        }
        if s == DIAMONDS && self.sheep_out && r > SHEEP_RANK {
            return -5;
        }
        0
    }

    /// What the players still to play are expected to add to a trick of suit `s` that `me` is
    /// winning with card `top` (raw points to the taker).
    fn expected_additions(&self, s: usize, top: usize) -> i64 {
        let pig = -100 * self.pf;
        let hearts_out = self.unseen[0] & SUIT_MASK[HEARTS] != 0;
        let mut sum = 0;
        for f in self.followers() {
            if self.voids(f) & (1 << s) != 0 {
                // A void player dumps the pig if it holds it, else a high heart.
                let pig_p = self.pig_chance(f);
                let heart = if hearts_out && self.voids(f) & (1 << HEARTS) == 0 {
                    2 * self.heart_mean()
                } else {
                    0
                };
                sum += (pig_p * pig + (ONE - pig_p) * heart) / ONE;
            } else if s == SPADES && self.pig_out && RANK_OF[top] as usize > PIG_RANK {
                sum += self.pig_chance(f) * pig / ONE;
            }
        }
        sum
    }

    /// The utility of candidate `p` (see the module docs).
    #[inline(always)]
    fn utility(&self, p: &Cand) -> i64 {
        if self.led.is_none() {
            self.lead_utility(p)
        } else {
            self.follow_utility(p)
        }
    }

    /// The cards of `singles` (legal single cards) that can have the highest utility: the
    /// others are strictly below one of them, so dropping them changes no move (a speed-up).
    /// Following the led suit, a card that scores nothing and stays under the trick is worth its
    /// rank: only the highest such card counts. Leading, a suit's cards are worth −10 per rank
    /// plus terms constant on rank ranges (around ♠Q and ♦J, the hearts with two unseen hearts
    /// above, the cards no unseen card beats): only the lowest card of each range counts.
    fn undominated(&self, singles: u64) -> u64 {
        if self.led.is_some() {
            if singles & !self.led_mask != 0 {
                return singles; // a discard
            }
            let best_rank = (self.best_key % 16) as usize - 1;
            let under = singles & !ABOVE[self.led_index * 13 + best_rank] & !SCORING.0;
            if under == 0 {
                return singles;
            }
            let top = 1u64 << (63 - under.leading_zeros());
            return (singles & !under) | top;
        }
        let mut out = 0;
        for (s, &suit) in SUIT_MASK.iter().enumerate() {
            let held = singles & suit;
            if held == 0 {
                continue;
            }
            let unseen = self.unseen[0] & suit;
            let boss = if unseen == 0 { suit } else { ABOVE[63 - unseen.leading_zeros() as usize] };
            let ranges: [u64; 3] = match s {
                SPADES => [suit & !ABOVE[PIG_INDEX - 1], PIG.bit(), ABOVE[PIG_INDEX]],
                DIAMONDS => [suit & !ABOVE[SHEEP_INDEX - 1], SHEEP.bit(), ABOVE[SHEEP_INDEX]],
                HEARTS => {
                    // Hearts below the kind where the unseen copies, counted from the top,
                    // reach two.
                    let top = 63usize.saturating_sub(unseen.leading_zeros() as usize);
                    let low = if unseen == 0 {
                        0
                    } else if self.unseen[1] & (1 << top) != 0 {
                        suit & ((1 << top) - 1)
                    } else {
                        let rest = unseen & !(1 << top);
                        if rest == 0 {
                            0
                        } else {
                            suit & ((1 << (63 - rest.leading_zeros())) - 1)
                        }
                    };
                    [low, suit & !low, 0]
                }
                _ => [suit, 0, 0],
            };
            for range in ranges {
                for part in [held & range & boss, held & range & !boss] {
                    out |= part & part.wrapping_neg();
                }
            }
        }
        out
    }

    /// The candidate of one card (index `c`).
    #[inline(always)]
    fn single(&self, c: usize) -> Cand {
        // As `play_key` scores a single: 16 + rank + 1 in the led suit, 0 elsewhere.
        let key = if (self.led_mask >> c) & 1 != 0 { 17 + RANK_OF[c] as u32 } else { 0 };
        Cand { first: c, top: c, len: 1, cards: [c, c], key }
    }

    /// The candidate of a two-card play.
    fn two(&self, play: &Play) -> Cand {
        let [a, b] = [play.cards()[0].index(), play.cards()[1].index()];
        let key = self.led.map_or(0, |s| play_key(self.rules, s, play));
        // The higher rank, the later card on a tie (as `max_by_key`).
        let top = if RANK_OF[b] >= RANK_OF[a] { b } else { a };
        Cand { first: a, top, len: 2, cards: [a, b], key }
    }
}

/// A candidate play as the utilities read it: card indices (`first` decides the suit of a lead
/// or a discard, `top` is the highest rank) and its key in the trick.
struct Cand {
    first: usize,
    top: usize,
    len: i64,
    cards: [usize; 2],
    key: u32,
}

impl Cand {
    /// The takes of its cards.
    #[inline(always)]
    fn takes(&self) -> Takes {
        if self.len == 1 {
            TAKES[self.first]
        } else {
            add(TAKES[self.cards[0]], TAKES[self.cards[1]])
        }
    }

    /// Whether a card of it scores (a heart, ♠Q, ♦J or ♣10).
    #[inline(always)]
    fn scoring(&self) -> bool {
        ((1u64 << self.cards[0]) | (1u64 << self.cards[1])) & SCORING.0 != 0
    }
}

/// The greedy play for the seat to act (see the module docs). `buf` is a reusable buffer for
/// the legal plays when a pair was led (two decks).
pub fn greedy_play(state: &State, buf: &mut Vec<Play>) -> Play {
    choose_play(state, buf, true)
}

/// [`greedy_play`], with the dominated candidates dropped or not (the same play either way).
fn choose_play(state: &State, buf: &mut Vec<Play>, prune: bool) -> Play {
    let me = state.current_player().unwrap_or(0);
    let trick = state.current_trick().1;
    let pair_led = trick.first().is_some_and(|l| l.len() == 2);
    // The legal singles and pairs: straight from the hand unless §A.7 or the first lead binds.
    let (singles, pairs) = if pair_led {
        (CardSet::EMPTY, CardSet::EMPTY)
    } else if state.exposed(me).0.is_empty() && state.pending_first_lead().is_none() {
        let hand = state.hand(me);
        match trick.first() {
            None => {
                (hand.kinds(), if state.rules().decks == 2 { hand.pairs() } else { CardSet::EMPTY })
            }
            Some(lead) => {
                let follow = hand.kinds() & suit_of(lead.first()).mask();
                (if follow.is_empty() { hand.kinds() } else { follow }, CardSet::EMPTY)
            }
        }
    } else {
        candidates(state.rules(), &state.position())
    };
    if !pair_led && singles.len() == 1 && pairs.is_empty() {
        return Play::single(singles.first().expect("one card"));
    }
    let ctx = Ctx::new(state);
    let mut best = None;
    let mut best_u = i64::MIN;
    match pair_led {
        true => {
            state.legal_plays_into(buf);
            for &p in buf.iter() {
                let u = ctx.utility(&ctx.two(&p));
                if u > best_u {
                    best_u = u;
                    best = Some(p);
                }
            }
        }
        false => {
            let mut best_card = usize::MAX;
            let mut bits = if prune { ctx.undominated(singles.0) } else { singles.0 };
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let u = ctx.utility(&ctx.single(c));
                if u > best_u {
                    best_u = u;
                    best_card = c;
                }
            }
            if best_card != usize::MAX {
                best = Card::from_index(best_card).map(Play::single);
            }
            for c in pairs {
                let p = Play::two(c, c);
                let u = ctx.utility(&ctx.two(&p));
                if u > best_u {
                    best_u = u;
                    best = Some(p);
                }
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
            let pair =
                if pos.hand.count(card) >= 2 { CardSet::single(card) } else { CardSet::EMPTY };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameState};
    use crate::policy::Policy;

    /// Dropping the dominated candidates never changes the play (every rule set, both players
    /// at the table).
    #[test]
    fn pruning_changes_no_play() {
        let mut buf = Vec::new();
        let mut n = 0;
        for r in super::super::game_tests::option_sets() {
            for seed in 0..8 {
                let mut st = r.new_deal(seed, 17).unwrap();
                while !st.is_terminal() {
                    let s = st.state();
                    if s.phase() == super::super::state::Phase::Play {
                        let a = choose_play(s, &mut buf, true);
                        assert_eq!(a, choose_play(s, &mut buf, false), "{r:?} seed {seed}");
                        n += 1;
                    }
                    st.apply_builtin([Policy::Greedy, Policy::Random][seed as usize % 2]).unwrap();
                }
            }
        }
        assert!(n > 3000, "{n}");
    }
}
