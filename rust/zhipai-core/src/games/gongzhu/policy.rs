//! Built-in Gongzhu players.
//!
//! * `random`: uniform over the legal moves at every decision (exposure decisions included).
//! * `greedy`: the rule-based player of [`greedy_play`] and [`greedy_exposure`]:
//!   - **exposure**: expose ♠Q when holding at least 4 other spades (the pig is then safe to
//!     keep until it can be dumped), expose ♦J when also holding ♦A or ♦K and at least 3
//!     diamonds; never expose ♣10 or ♥A; open (never closed) declarations;
//!   - **play**: every legal play gets a utility and the highest wins (ties: the first). A play
//!     that would win the trick as it stands scores the trick's points (hearts, pig −100, sheep
//!     +100, doubled by exposure as in scoring) — so it avoids taking the pig and hearts and
//!     hunts the sheep — and, when it wins, prefers low cards unless it is the last to play
//!     (then it sheds its highest). A play that would not win scores the points it gives away
//!     (dumping the pig when void in the led suit is worth the most, then the highest hearts),
//!     then its rank (duck with the highest card that stays under the winner). Leads prefer the
//!     lowest card; they avoid leading the pig and ♠A/♠K while the pig is out, avoid hearts,
//!     and lead a diamond above ♦J (♦Q/♦K/♦A) to hunt the sheep while ♦J is out and not held.

use super::play::{pick_legal_play, play_key, suit_of, Play};
use super::scoring::{Exposure, PIG, SHEEP, TRANSFORMER};
use super::state::{Move, Phase, State};
use crate::cards::{Card, Rank, Suit};
use crate::policy::Policy;
use rand::Rng;

/// Heart values of §A.4 (♥2..♥A).
const HEART_VALUES: [i64; 13] = [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50];

/// The points a card carries when taken (sign as for the taker), with exposure factors.
fn card_points(card: Card, exposure: &Exposure) -> i64 {
    if card == PIG {
        -100 * exposure.factor(0)
    } else if card == SHEEP {
        100 * exposure.factor(1)
    } else if suit_of(card) == Suit::Hearts {
        HEART_VALUES[card.index() % 13] * exposure.factor(3)
    } else if card == TRANSFORMER {
        -10 // doubles whatever else is taken, usually a loss
    } else {
        0
    }
}

fn rank_of(card: Card) -> i64 {
    (card.index() % 13) as i64
}

/// The greedy exposure decision for the seat to act (see the module docs).
pub fn greedy_exposure(state: &State) -> Move {
    let p = state.current_player().unwrap_or(0);
    let hand = state.hand(p);
    // A copy already declared either way cannot be exposed again: the seat's earlier moves may
    // be closed declarations chosen by someone else (a Python policy) before this greedy call.
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

/// The greedy play among `legal` for the seat to act (see the module docs).
pub fn greedy_play(state: &State, legal: &[Play]) -> Play {
    let exposure = state.exposure();
    let (_, trick) = state.current_trick();
    // What the trick so far holds: the key a play must beat to win it, and its points.
    let suit = trick.first().map(|p| suit_of(p.first()));
    let to_beat =
        suit.map_or(0, |s| trick.iter().map(|p| play_key(state.rules(), s, p)).max().unwrap_or(0));
    let trick_points: i64 =
        trick.iter().flat_map(|p| p.cards().iter()).map(|&c| card_points(c, &exposure)).sum();
    let (pig_out, sheep_out) = if suit.is_none() {
        (still_out(state, PIG), still_out(state, SHEEP))
    } else {
        (false, false)
    };
    let mut best = legal[0];
    let mut best_u = i64::MIN;
    for &play in legal {
        let u = match suit {
            None => lead_utility(play, pig_out, sheep_out),
            Some(s) => {
                let wins = play_key(state.rules(), s, &play) > to_beat;
                follow_utility(play, trick.len() == 3, wins, trick_points, &exposure)
            }
        };
        if u > best_u {
            best_u = u;
            best = play;
        }
    }
    best
}

/// Whether a copy of `card` is still out: neither played yet nor in the hand of the seat to act.
fn still_out(state: &State, card: Card) -> bool {
    let p = state.current_player().unwrap_or(0);
    state.played().count(card) + state.hand(p).count(card) < state.rules().decks as usize
}

/// The utility of leading `play` while the pig / the sheep are still out.
fn lead_utility(play: Play, pig_out: bool, sheep_out: bool) -> i64 {
    let c = play.first();
    let r = rank_of(c);
    let mut u = -r * 10;
    if c == PIG {
        u -= 2000;
    }
    match suit_of(c) {
        Suit::Spades if pig_out && r > rank_of(PIG) => u -= 1000,
        Suit::Diamonds if sheep_out && r > rank_of(SHEEP) => u += 500,
        Suit::Hearts => u -= 50,
        _ => {}
    }
    u
}

/// The utility of following with `play` (the `last` play of the trick), which `wins` the trick as
/// it stands, on earlier plays worth `trick_points`.
fn follow_utility(
    play: Play,
    last: bool,
    wins: bool,
    trick_points: i64,
    exposure: &Exposure,
) -> i64 {
    let own: i64 = play.cards().iter().map(|&c| card_points(c, exposure)).sum();
    let high: i64 = play.cards().iter().map(|&c| rank_of(c)).max().unwrap_or(0);
    if wins {
        (trick_points + own) * 100 + if last { high } else { -high }
    } else {
        -own * 100 + high
    }
}

/// A uniform index in `0..n` (`n ≥ 1`), exactly uniform ([`crate::sample::below_always`]: one `u32`),
/// shared by the general state and the fast rollout so both draw the same numbers. A forced
/// choice (`n = 1`) draws too: skipping the draw would be a data-dependent branch, mispredicted
/// often enough to cost more than the draw.
#[inline(always)]
pub fn pick_index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    crate::sample::below_always(rng, n as u32) as usize
}

/// Choose a move for the seat to act with `policy`, drawing randomness from `rng`. `buf` is a
/// reusable buffer for the legal plays.
pub fn choose<R: Rng + ?Sized>(
    state: &State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) -> Move {
    match state.phase() {
        Phase::Exposure => match policy {
            Policy::Greedy | Policy::Basic => greedy_exposure(state),
            Policy::Random => {
                let moves = state.legal_moves();
                moves[pick_index(rng, moves.len())]
            }
        },
        Phase::Play if policy == Policy::Random => {
            // Singles (most decisions) are picked without listing the legal plays.
            let pos = state.position();
            let pick = |n| pick_index(rng, n);
            Move::Play(pick_legal_play(state.rules(), &pos, pick).unwrap_or_else(|| {
                state.legal_plays_into(buf);
                buf[pick_index(rng, buf.len())]
            }))
        }
        _ => {
            state.legal_plays_into(buf);
            Move::Play(match policy {
                Policy::Random => buf[pick_index(rng, buf.len())],
                Policy::Greedy | Policy::Basic => greedy_play(state, buf),
            })
        }
    }
}

/// Play `state` to the end with `policy` for every seat.
pub fn play_out<R: Rng + ?Sized>(
    state: &mut State,
    policy: Policy,
    rng: &mut R,
    buf: &mut Vec<Play>,
) {
    while !state.is_terminal() {
        match choose(state, policy, rng, buf) {
            Move::Play(p) => state.apply_play_unchecked(p),
            mv => state.apply_exposure(mv),
        }
    }
}
