//! Plays as cards: the moves of the game trait (baohuang.md §C.2, §C.3.6).
//!
//! Suits never decide a beat (§C.2), so the rules and the rollouts work on [`Shape`]s. A player
//! still plays cards, and one suit matters: a copy of the 登基 card played by the guard reveals
//! him (§C.3.6, \[I\]). So the trait's move is [`CardMove`] (`Play` carries the cards), and:
//!
//! * the move list names each legal shape once, with the cards [`State::cards_of`] takes (the
//!   登基 card last), followed by the same play with one natural swapped for the 登基 card when
//!   the seat holds it ([`with_dengji`]): the two choices that differ in what they reveal;
//! * the count is of every distinct card multiset that is a legal play ([`count`]), so the list
//!   is complete exactly when the listed suits are the only ones the seat can play them with;
//! * [`completable`] tells whether cards chosen so far can still grow into a legal play (the
//!   exact mask of the card-by-card actions).

use super::moves::{self, shape_of, Shape};
use super::options::GuardCardRank;
use super::state::{Move, Phase, State};
use crate::cards::{Card, Suit};
use crate::error::Result;
use crate::multiset::Multiset;

/// A decision with the cards of a play (the game trait's move): `Move::Play(cards)`.
pub type CardMove = Move<Multiset>;

/// The guard card kind of `seat` when its copies rank above BJ (`guard_card_rank =
/// above_big_joker`, §C.2 Alt): the guard's copies of the 登基 card are then a tier of their own,
/// never naturals.
pub fn guard_card(state: &State, seat: u8) -> Option<Card> {
    let above = state.rules().guard_card_rank == GuardCardRank::AboveBigJoker;
    state.dengji_card().filter(|_| above && state.guard() == Some(seat))
}

/// `cards` (a play chosen by [`State::cards_of`], without the 登基 card) with one natural swapped
/// for the 登基 card when `seat` holds it: the same play up to suits, but a revealing one for a
/// guard. `None` when there is no such choice: no natural 登基 card, it is already among `cards`,
/// the seat does not hold it, it is no natural of this play, or it is the guard's own tier above
/// BJ (`above_big_joker`: the plays then differ in shape already).
pub fn with_dengji(state: &State, seat: u8, cards: &Multiset) -> Option<Multiset> {
    let d = state.dengji_card().filter(|d| !d.is_joker())?;
    if guard_card(state, seat).is_some() || cards.contains(d) || !state.hand(seat).contains(d) {
        return None;
    }
    let swap = cards.iter().find(|c| c.rank() == d.rank())?;
    let mut with = *cards;
    with.remove(swap);
    with.add(d);
    Some(with)
}

/// The cards of a shape-level move of the player to act ([`State::cards_of`]; decisions as they
/// are).
pub fn to_cards(state: &State, mv: Move) -> CardMove {
    mv.map_play(|shape| state.cards_of(&shape).expect("a legal play is held"))
}

/// The decision of a non-play move, `None` for a play.
pub fn decision(mv: &CardMove) -> Option<Move> {
    match mv {
        Move::Play(_) => None,
        m => Some(m.map_play(|_| Shape::default())),
    }
}

/// At most `limit` legal moves of the player to act, in the order of [`State::legal_moves`]
/// (plays in [`moves::enumerate`] order, each followed by its [`with_dengji`] variant, then
/// `pass`, `yield`, `jiefeng`; accession words in their order); empty once over.
pub fn listed(state: &State, limit: usize) -> Vec<CardMove> {
    let Some(seat) = state.current_player() else { return Vec::new() };
    let mut out = Vec::new();
    for k in 0..state.count_moves() {
        if out.len() >= limit {
            break;
        }
        let Some(mv) = state.nth_move(k) else { break };
        let mv = to_cards(state, mv);
        out.push(mv);
        if let Move::Play(cards) = mv {
            if let Some(with) = with_dengji(state, seat, &cards).filter(|_| out.len() < limit) {
                out.push(Move::Play(with));
            }
        }
    }
    out
}

/// Number of distinct legal moves of the player to act, a play counted once per distinct card
/// multiset (every choice of suits of every legal shape); 0 once over.
pub fn count(state: &State) -> u64 {
    let Some(seat) = state.current_player() else { return 0 };
    if state.phase() != Phase::Play {
        return u64::from(state.count_moves());
    }
    let ways = SuitWays::new(state.hand(seat), guard_card(state, seat));
    let rules = state.rules();
    let counts = state.hand_counts(seat);
    let plays = moves::count(counts, state.play_to_beat().as_ref(), rules.bombs);
    let mut total = 0u64;
    moves::for_each(counts, state.play_to_beat().as_ref(), rules.bombs, |s| {
        total = total.saturating_add(ways.of_shape(&s));
        true
    });
    total.saturating_add(u64::from(state.count_moves() - plays))
}

/// Per natural rank, how many distinct card multisets hold `n` naturals of it: the coefficient
/// of `x^n` in the product over the four suits of `1 + x + … + x^(copies held)`.
struct SuitWays {
    /// `ways[strength][n]`.
    ways: [[u64; 17]; 13],
}

impl SuitWays {
    fn new(hand: &Multiset, guard_card: Option<Card>) -> SuitWays {
        let mut ways = [[0u64; 17]; 13];
        for (strength, row) in ways.iter_mut().enumerate() {
            let rank = moves::strength_rank(strength as u8);
            row[0] = 1;
            for suit in Suit::ALL {
                let card = Card::new(suit, rank);
                let held = if Some(card) == guard_card { 0 } else { hand.count(card) };
                multiply_by_run(row, held);
            }
        }
        SuitWays { ways }
    }

    /// Distinct card multisets realising `shape` (jokers and guard cards are one kind each).
    fn of_shape(&self, shape: &Shape) -> u64 {
        if shape.naturals == 0 {
            return 1;
        }
        self.ways[shape.rank as usize][shape.naturals as usize]
    }
}

/// `row *= 1 + x + … + x^held` (polynomial coefficients, degree ≤ 16).
fn multiply_by_run(row: &mut [u64; 17], held: usize) {
    let old = *row;
    for (n, out) in row.iter_mut().enumerate() {
        *out = (0..=held.min(n)).map(|j| old[n - j]).sum();
    }
}

/// Whether `cards` (chosen so far, non-empty) can grow into a legal play of the player to act:
/// held, naturals of one rank, and some legal shape has at least as many of each tier (same
/// rank). Legality depends on the shape alone, and any such shape is held, so the missing cards
/// can always be added from the hand. `legal` = the legal shapes ([`legal_shapes`]).
pub fn completable(state: &State, seat: u8, cards: &Multiset, legal: &[Shape]) -> bool {
    if !state.hand(seat).contains_all(cards) {
        return false;
    }
    let Ok(part) = shape_of(cards, guard_card(state, seat)) else { return false };
    legal.iter().any(|s| covers(s, &part))
}

/// Every legal shape of the player to act (empty outside the play).
pub fn legal_shapes(state: &State) -> Vec<Shape> {
    let Some(seat) = state.current_player().filter(|_| state.phase() == Phase::Play) else {
        return Vec::new();
    };
    let counts = state.hand_counts(seat);
    moves::enumerate(counts, state.play_to_beat().as_ref(), state.rules().bombs, usize::MAX)
}

/// Whether shape `s` holds at least the cards of `part` (naturals of the same rank).
fn covers(s: &Shape, part: &Shape) -> bool {
    (part.naturals == 0 || (s.rank == part.rank && s.naturals >= part.naturals))
        && s.small >= part.small
        && s.big >= part.big
        && s.guard >= part.guard
}

/// The move of `text` (a word in any letter case, `ascend <card>`, else the cards of a play in any order); errors quote the text as given.
pub fn parse_move(text: &str) -> Result<CardMove> {
    let text = text.trim();
    let t = text.to_ascii_lowercase();
    Ok(match t.as_str() {
        "abdicate" => Move::Abdicate,
        "grab" => Move::Grab,
        "decline" => Move::Decline,
        "open_guard" => Move::OpenGuard,
        "secret_guard" => Move::SecretGuard,
        "open_solo" => Move::OpenSolo,
        "secret_solo" => Move::SecretSolo,
        "pass" => Move::Pass,
        "yield" => Move::Yield,
        "jiefeng" => Move::Jiefeng,
        _ if t.starts_with("ascend ") => Move::Ascend(text["ascend ".len()..].parse()?),
        _ => Move::Play(text.parse()?),
    })
}
