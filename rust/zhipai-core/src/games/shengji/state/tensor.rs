//! The observation tensor of a Shengji deal (the information state of one seat as float32, for
//! learning agents; issue 14): the fields of [`FIELDS`] in order, written by
//! [`Deal::write_tensor`] without allocating. Seats are counted from the observer: 0 = the seat
//! itself, 1 = the next seat (its right, counter-clockwise), 2 = its partner, 3 = its left. Card
//! planes have one float per card kind in [`crate::cards::Card::index`] order (S 2…A = 0…12,
//! H 13…25, D 26…38, C 39…51, SJ 52, BJ 53), holding the number of copies. Effective suits are
//! S H D C and trump (shengji.md §3).

use super::{hand_and_kitty, Deal, Phase, NUM_PLAYERS};
use crate::cards::NUM_KINDS;
use crate::error::{Result, ZhipaiError};
use crate::game::{TensorField, TensorWriter};
use crate::multiset::Multiset;
use crate::tricks::order::NUM_EFFECTIVE_SUITS;

const K: usize = NUM_KINDS;
const P: usize = NUM_PLAYERS;

/// The tensor's fields in order: name, length, meaning (offsets follow from the lengths).
pub const FIELDS: [(&str, usize, &str); 26] = [
    ("hand", K, "the seat's hand: copies of each card kind"),
    ("played", P * K, "per seat from the observer: cards it played in completed tricks"),
    ("trick", P * K, "per seat from the observer: its cards in the current trick"),
    (
        "known",
        P * K,
        "per seat from the observer: cards every seat knows to be in its hand (declared since \
         its last burial, or shown in a failed throw, and not played since)",
    ),
    (
        "kitty",
        K,
        "the seat's last burial when it made the last one (the kitty it buried, or what a 炒底 \
         overcaller picked up from it); zeros otherwise",
    ),
    ("declaration", K, "the cards of the winning declaration so far"),
    ("pending", K, "the move the seat is building card by card (zeros unless it is to move)"),
    ("perfect_hands", P * K, "with `perfect` only: every hand, per seat from the observer"),
    (
        "perfect_rest",
        K,
        "with `perfect` only: the cards in no hand and not played (the buried kitty, or the \
         undealt stock while dealing)",
    ),
    ("level", 14, "one-hot level rank 2…A, then the joker-only level"),
    ("trump", 6, "one-hot trump suit S H D C, no-trump, not known yet (dealing)"),
    ("dealer", P + 1, "one-hot dealer from the observer, then not known yet"),
    ("declarer", P + 1, "one-hot seat of the winning declaration from the observer, then none"),
    (
        "kitty_owner",
        P + 1,
        "one-hot seat that made the last burial from the observer, then none yet",
    ),
    ("phase", 5, "one-hot dealing, burying, chaodi, play, done"),
    (
        "to_move",
        P + 1,
        "one-hot seat to move from the observer; last: not shown (another seat deciding while \
         dealing or in a 炒底 offer: private) or the deal is over",
    ),
    (
        "leader",
        P,
        "one-hot seat that led the current trick from the observer (zeros between tricks)",
    ),
    ("lead_suit", NUM_EFFECTIVE_SUITS, "one-hot effective suit of the current lead S H D C trump"),
    (
        "lead_size",
        1,
        "cards in the current lead (after a failed throw: its forced part) / hand size",
    ),
    (
        "voids",
        P * NUM_EFFECTIVE_SUITS,
        "per seat from the observer, per effective suit S H D C trump: 1 when it has shown a void",
    ),
    ("hand_sizes", P, "cards each seat holds (from the observer) / hand size"),
    ("stock", 1, "cards still to deal (the kitty included) / whole stock"),
    (
        "points",
        P,
        "card points won in completed tricks by each seat (from the observer) / (100 × decks)",
    ),
    ("tricks", 1, "tricks completed / hand size"),
    ("penalty", 1, "failed-throw penalties in the attackers' total / (100 × decks)"),
    ("attacker", 1, "1 when the seat is an attacker (the dealer known and not its team)"),
];

/// Length of the tensor.
pub const TENSOR_LEN: usize = TensorField::total_len(&FIELDS);

/// The fields with their offsets ([`crate::game::GameState::observation_layout`]).
pub fn layout() -> Vec<TensorField> {
    TensorField::layout(&FIELDS)
}

impl Deal {
    /// Write the observation tensor of `seat` ([`FIELDS`]; with `perfect`, every hand too) into
    /// `out` (length [`TENSOR_LEN`]), without allocating. `InvalidValue` for a seat outside 0..4
    /// or a buffer of another length.
    pub fn write_tensor(&self, seat: u8, perfect: bool, out: &mut [f32]) -> Result<()> {
        if seat as usize >= P {
            return Err(ZhipaiError::invalid_value("seat", seat, "players are 0..=3"));
        }
        if out.len() != TENSOR_LEN {
            return Err(ZhipaiError::invalid_value(
                "tensor",
                format!("{} floats", out.len()),
                format!("the observation tensor has {TENSOR_LEN}"),
            ));
        }
        let s = seat as usize;
        // Seat of observer-relative index r.
        let at = |r: usize| (s + r) % P;
        let rel = |p: usize| (p + P - s) % P;
        let (hand_size, kitty) = hand_and_kitty(self.rules.decks);
        let scale = 100.0 * self.rules.decks as f32;
        let mut w = TensorWriter::new(out);
        let trick = self.current_trick();
        let trick_of = |p: usize| {
            let i = (p + P - self.leader as usize) % P;
            trick.get(i).copied().filter(|_| self.phase == Phase::Playing)
        };
        w.cards(&self.hands[s]);
        for r in 0..P {
            let p = at(r);
            let mut done = self.played_by[p];
            if let Some(m) = trick_of(p) {
                done.remove_all(&m).expect("the trick's cards are played");
            }
            w.cards(&done);
        }
        for r in 0..P {
            w.cards(&trick_of(at(r)).unwrap_or(Multiset::EMPTY));
        }
        for r in 0..P {
            w.cards(&self.shown[at(r)]);
        }
        let own = !self.last_burial.is_empty() && self.kitty_owner as usize == s;
        w.cards(&if own { self.last_burial } else { Multiset::EMPTY });
        let winner = self.declaring.winner();
        let mut bid = Multiset::EMPTY;
        if let Some((_, b)) = winner {
            for _ in 0..b.count {
                bid.add(b.card);
            }
        }
        w.cards(&bid);
        let mover = self.phase != Phase::Done && self.to_move == seat;
        w.cards(&if mover { self.building } else { Multiset::EMPTY });
        for r in 0..P {
            w.cards(&if perfect { self.hands[at(r)] } else { Multiset::EMPTY });
        }
        let mut rest = Multiset::EMPTY;
        if perfect {
            if self.phase == Phase::Dealing {
                for &c in &self.stock[self.dealt..hand_size * P + kitty] {
                    rest.add(c);
                }
            } else {
                rest = self.kitty;
            }
        }
        w.cards(&rest);
        w.one_hot(14, Some(self.level.map_or(13, |r| r.index())));
        let trump = match self.phase {
            Phase::Dealing => 5,
            _ => self.trump.map_or(4, |t| t.index()),
        };
        w.one_hot(6, Some(trump));
        w.one_hot(P + 1, Some(self.dealer.map_or(P, |d| rel(d as usize))));
        w.one_hot(P + 1, Some(winner.map_or(P, |(p, _)| rel(p as usize))));
        w.one_hot(
            P + 1,
            Some(if self.last_burial.is_empty() { P } else { rel(self.kitty_owner as usize) }),
        );
        let phase = match self.phase {
            Phase::Dealing => 0,
            Phase::Burying => 1,
            Phase::Chaodi => 2,
            Phase::Playing => 3,
            Phase::Done => 4,
        };
        w.one_hot(5, Some(phase));
        let private = matches!(self.phase, Phase::Dealing | Phase::Chaodi) && !mover;
        let shown_mover = self.phase != Phase::Done && !private;
        w.one_hot(P + 1, Some(if shown_mover { rel(self.to_move as usize) } else { P }));
        let in_trick = self.phase == Phase::Playing && self.played > 0;
        w.one_hot(P, in_trick.then(|| rel(self.leader as usize)));
        w.one_hot(NUM_EFFECTIVE_SUITS, in_trick.then_some(self.lead_format.suit as usize));
        let lead = if in_trick { self.lead_format.cards as f32 } else { 0.0 };
        w.scalar(lead / hand_size as f32);
        for r in 0..P {
            let voids = if self.tr.is_some() { self.shown_voids(at(r) as u8) } else { 0 };
            let v = w.take(NUM_EFFECTIVE_SUITS);
            for (e, x) in v.iter_mut().enumerate() {
                *x = (voids >> e & 1) as f32;
            }
        }
        for r in 0..P {
            w.scalar(self.hands[at(r)].len() as f32 / hand_size as f32);
        }
        let stock =
            if self.phase == Phase::Dealing { hand_size * P + kitty - self.dealt } else { 0 };
        w.scalar(stock as f32 / (hand_size * P + kitty) as f32);
        for r in 0..P {
            w.scalar(self.won[at(r)] as f32 / scale);
        }
        w.scalar(self.tricks as f32 / hand_size as f32);
        w.scalar(self.penalty as f32 / scale);
        w.scalar(if self.dealer.is_some() && self.is_attacker(seat) { 1.0 } else { 0.0 });
        debug_assert_eq!(w.written(), TENSOR_LEN, "every field written");
        Ok(())
    }
}
