//! The fixed integer action space of a Baohuang deal (the game trait's actions).
//!
//! | actions    | meaning                                                              |
//! |------------|----------------------------------------------------------------------|
//! | `0..54`    | add one card of kind `k` (`Card::from_index(k)`: ♠2 … ♣A, SJ, BJ) to the play being built |
//! | `54`       | `stop`: play the cards built so far                                  |
//! | `55..65`   | `pass`, `yield`, `jiefeng`, `abdicate`, `grab`, `decline`, `open_guard`, `secret_guard`, `open_solo`, `secret_solo` |
//! | `65..119`  | `ascend <kind k - 65>` (登基 or 逼位 with that card)                    |
//!
//! A play is built card by card: a card action is legal iff the cards so far plus that card can
//! still be completed to a legal play (held, one natural rank, some legal shape covers them,
//! [`completable`]); `stop` iff the cards so far are themselves a legal play. While cards are
//! pending no other action is legal. Suits are kept, so the 登基 card is its own action
//! (baohuang.md §C.3.6).

use super::play_cards::{completable, decision, legal_shapes, to_cards, CardMove};
use super::state::{Move, Phase, State};
use crate::cards::{Card, NUM_KINDS};
use crate::multiset::Multiset;

/// `stop`: play the cards built so far.
pub const STOP: usize = NUM_KINDS;
/// The first of the word actions ([`WORDS`]).
pub const FIRST_WORD: usize = STOP + 1;
/// The words, in action order from [`FIRST_WORD`].
pub const WORDS: [CardMove; 10] = [
    Move::Pass,
    Move::Yield,
    Move::Jiefeng,
    Move::Abdicate,
    Move::Grab,
    Move::Decline,
    Move::OpenGuard,
    Move::SecretGuard,
    Move::OpenSolo,
    Move::SecretSolo,
];
/// The first `ascend <kind>` action.
pub const FIRST_ASCEND: usize = FIRST_WORD + WORDS.len();
/// Size of the action space.
pub const NUM_ACTIONS: usize = FIRST_ASCEND + NUM_KINDS;

/// What an action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Add this card to the play being built.
    Card(Card),
    /// Play the cards built so far.
    Stop,
    /// A whole non-play move (a word or `ascend <card>`).
    Move(CardMove),
}

/// The meaning of action `a`, `None` outside `0..NUM_ACTIONS`.
pub fn decode(a: usize) -> Option<Action> {
    match a {
        _ if a < NUM_KINDS => Card::from_index(a).map(Action::Card),
        STOP => Some(Action::Stop),
        _ if a < FIRST_ASCEND => Some(Action::Move(WORDS[a - FIRST_WORD])),
        _ if a < NUM_ACTIONS => {
            Card::from_index(a - FIRST_ASCEND).map(|c| Action::Move(Move::Ascend(c)))
        }
        _ => None,
    }
}

/// The action of a non-play move (`None` for a play, which takes card actions and `stop`).
pub fn encode(mv: &CardMove) -> Option<usize> {
    match mv {
        Move::Play(_) => None,
        Move::Ascend(c) => Some(FIRST_ASCEND + c.index()),
        m => WORDS.iter().position(|w| w == m).map(|i| FIRST_WORD + i),
    }
}

/// The action as text: the card (`"9C"`), `"stop"`, the word, `"ascend 9C"`.
pub fn name(a: usize) -> Option<String> {
    Some(match decode(a)? {
        Action::Card(c) => c.to_string(),
        Action::Stop => "stop".to_string(),
        Action::Move(m) => m.to_string(),
    })
}

/// The legal actions of the player to act, ascending, with `pending` cards built so far.
pub fn legal(state: &State, pending: &Multiset) -> Vec<usize> {
    let Some(seat) = state.current_player() else { return Vec::new() };
    if state.phase() != Phase::Play {
        let mut out: Vec<usize> = (0..state.count_moves())
            .filter_map(|k| state.nth_move(k))
            .filter_map(|m| encode(&to_cards(state, m)))
            .collect();
        out.sort_unstable();
        return out;
    }
    let shapes = legal_shapes(state);
    let hand = state.hand(seat);
    let mut out: Vec<usize> = hand
        .kinds()
        .iter()
        .filter(|&c| pending.count(c) < hand.count(c))
        .filter(|&c| {
            let mut more = *pending;
            more.add(c);
            completable(state, seat, &more, &shapes)
        })
        .map(Card::index)
        .collect();
    if pending.is_empty() {
        out.extend(WORDS[..3].iter().filter(|w| is_legal_word(state, w)).filter_map(encode));
    } else if state.cards_error(pending).is_none() {
        out.push(STOP);
    }
    out
}

fn is_legal_word(state: &State, word: &CardMove) -> bool {
    decision(word).is_some_and(|m| state.check_move(&m).is_ok())
}
