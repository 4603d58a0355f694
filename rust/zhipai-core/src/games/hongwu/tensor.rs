//! The observation tensor of a Hong Wu deal (issue 14): one seat's information state as float32
//! ([`LAYOUT`]; written by [`write`] into the caller's buffer, without allocating), and
//! [`move_cards`].
//!
//! Seats appear **relative to the observer in playing order** (`direction`): row 0 is the
//! observer, row 1 the next seat to play after it, and so on. Card planes have one value per
//! card kind in kind order (`Card::index`: S 2…A, H 2…A, D 2…A, C 2…A, SJ, BJ) holding the count
//! (0, 1 or 2). One-hot fields are all zero while their fact is unknown (no bid yet, trump not
//! chosen, no trick led, the deal over).

use super::auction::{MAX_BID, MIN_BID, MIN_RAISE, PLAYERS};
use super::state::{Action, HongWuState, Phase};
use super::world::kitty_known;
use super::{HAND_SIZE, KITTY_SIZE};
use crate::cards::NUM_KINDS;
use crate::error::{Result, ZhipaiError};
use crate::game::TensorField;
use crate::multiset::Multiset;
use crate::tricks::order::NUM_EFFECTIVE_SUITS;

/// Bids on the ladder 60, 65, …, 200.
const BIDS: usize = ((MAX_BID - MIN_BID) / MIN_RAISE) as usize + 1;

/// The fields in order: name, length, meaning (offsets follow from the order).
pub const LAYOUT: [(&str, usize, &str); 23] = [
    ("hand", NUM_KINDS, "the observer's hand: count per card kind (33 cards for the dealer while it buries)"),
    ("played", PLAYERS * NUM_KINDS, "cards each seat has played (completed tricks and the current one), 4 rows of 54 by relative seat"),
    ("trick", PLAYERS * NUM_KINDS, "the current trick: each seat's play, 4 rows of 54 by relative seat (empty rows for seats yet to play)"),
    ("kitty", NUM_KINDS, "the buried kitty when the observer knows it (the dealer after burying it; every seat once the deal is over), else zeros"),
    ("shown", PLAYERS * NUM_KINDS, "cards each seat showed in a failed throw (§B.7) and still holds, 4 rows of 54 by relative seat"),
    ("not_held", PLAYERS * NUM_KINDS, "1 for each kind a seat is publicly known not to hold (voids shown by follows, kinds above a standing throw's single), 4 rows by relative seat"),
    ("voids", PLAYERS * NUM_EFFECTIVE_SUITS, "1 where a seat has shown a void by a short follow (§B.8): 4 rows by relative seat of S H D C trump (plain suits by their letter, trumps one suit)"),
    ("pending", NUM_KINDS, "the burial or play the observer is building card by card (pending_cards), when it is to act; else zeros"),
    ("hand_sizes", PLAYERS, "cards each seat holds / 25, by relative seat"),
    ("kitty_size", 1, "cards in the kitty / 8 (0 while the dealer holds it to bury)"),
    ("phase", 5, "one-hot phase: auction, trump, kitty, play, done"),
    ("to_act", PLAYERS, "one-hot relative seat to act (zeros once over)"),
    ("opener", PLAYERS, "one-hot relative seat that opened the auction (dealer at 60 if all pass, §B.2)"),
    ("passed", PLAYERS, "1 for each seat that has passed in the auction, by relative seat"),
    ("high_bid", BIDS, "one-hot highest bid so far, then the contract: bid 60, 65, …, 200"),
    ("high_bidder", PLAYERS, "one-hot relative seat of the highest bid so far (the dealer once the auction is over)"),
    ("dealer", PLAYERS, "one-hot relative seat of the dealer 庄家 once the auction is over"),
    ("trump", 4, "one-hot trump suit S H D C once chosen"),
    ("leader", PLAYERS, "one-hot relative seat that leads the current trick (play phase: the seat to lead while none is led yet)"),
    ("points_won", PLAYERS, "card points each seat has won in tricks / 200, by relative seat"),
    ("tricks", 1, "completed tricks / 25"),
    ("perfect_hands", PLAYERS * NUM_KINDS, "perfect information only (else zeros): every seat's hand, 4 rows of 54 by relative seat"),
    ("perfect_kitty", NUM_KINDS, "perfect information only (else zeros): the kitty, as dealt or as buried"),
];

/// The length of the tensor.
pub const TENSOR_LEN: usize = TensorField::total_len(&LAYOUT);

/// The layout as [`TensorField`]s with their offsets.
pub fn layout() -> Vec<TensorField> {
    TensorField::layout(&LAYOUT)
}

/// The offset of field `name` (a name of [`LAYOUT`]).
const fn offset_of(name: &str) -> usize {
    TensorField::offset_of(&LAYOUT, name)
}

const HAND: usize = offset_of("hand");
const PLAYED: usize = offset_of("played");
const TRICK: usize = offset_of("trick");
const KITTY: usize = offset_of("kitty");
const SHOWN: usize = offset_of("shown");
const NOT_HELD: usize = offset_of("not_held");
const VOIDS: usize = offset_of("voids");
const PENDING: usize = offset_of("pending");
const HAND_SIZES: usize = offset_of("hand_sizes");
const KITTY_SIZE_AT: usize = offset_of("kitty_size");
const PHASE: usize = offset_of("phase");
const TO_ACT: usize = offset_of("to_act");
const OPENER: usize = offset_of("opener");
const PASSED: usize = offset_of("passed");
const HIGH_BID: usize = offset_of("high_bid");
const HIGH_BIDDER: usize = offset_of("high_bidder");
const DEALER: usize = offset_of("dealer");
const TRUMP_AT: usize = offset_of("trump");
const LEADER: usize = offset_of("leader");
const POINTS_WON: usize = offset_of("points_won");
const TRICKS: usize = offset_of("tricks");
const PERFECT_HANDS: usize = offset_of("perfect_hands");
const PERFECT_KITTY: usize = offset_of("perfect_kitty");

/// Write the counts of `m` into the 54 values at `out[at..]`.
fn cards(out: &mut [f32], at: usize, m: &Multiset) {
    m.add_counts(&mut out[at..at + NUM_KINDS]);
}

/// Write what `seat` knows of `s` (with `perfect`, every hand and the kitty too) into `out`
/// (exactly [`TENSOR_LEN`] values; every value is written). `pending` is the move being built.
/// Errors (`InvalidValue`) for a seat outside 0 to 3 or a buffer of another length.
pub fn write(
    s: &HongWuState,
    pending: &Multiset,
    seat: usize,
    perfect: bool,
    out: &mut [f32],
) -> Result<()> {
    crate::game::check_seat(seat, PLAYERS)?;
    if out.len() != TENSOR_LEN {
        return Err(ZhipaiError::invalid_value(
            "out",
            format!("a buffer of {} values", out.len()),
            format!("the Hong Wu observation tensor has {TENSOR_LEN} values"),
        ));
    }
    out.fill(0.0);
    // Relative seat of every seat in playing order from the observer.
    let mut rel = [0usize; PLAYERS];
    let mut p = seat;
    for r in 0..PLAYERS {
        rel[p] = r;
        p = s.next_seat(p);
    }
    cards(out, HAND, &s.hand(seat));
    for (p, &r) in rel.iter().enumerate() {
        cards(out, PLAYED + r * NUM_KINDS, &s.played_by(p));
        cards(out, SHOWN + r * NUM_KINDS, &s.shown(p));
        for c in s.not_held(p) {
            out[NOT_HELD + r * NUM_KINDS + c.index()] = 1.0;
        }
        let voids = s.shown_voids(p);
        for k in 0..NUM_EFFECTIVE_SUITS {
            out[VOIDS + r * NUM_EFFECTIVE_SUITS + k] = (voids >> k & 1) as f32;
        }
        out[HAND_SIZES + r] = s.hand(p).len() as f32 / HAND_SIZE as f32;
        out[POINTS_WON + r] = s.points_won()[p] as f32 / 200.0;
        if perfect {
            cards(out, PERFECT_HANDS + r * NUM_KINDS, &s.hand(p));
        }
        if s.auction().has_passed(p) {
            out[PASSED + r] = 1.0;
        }
    }
    let mut p = s.leader();
    for play in s.current_trick() {
        cards(out, TRICK + rel[p] * NUM_KINDS, play);
        p = s.next_seat(p);
    }
    if kitty_known(s, seat) {
        cards(out, KITTY, &s.kitty());
    }
    if perfect {
        cards(out, PERFECT_KITTY, &s.kitty());
    }
    if s.to_act() == Some(seat) {
        cards(out, PENDING, pending);
    }
    out[KITTY_SIZE_AT] = s.kitty().len() as f32 / KITTY_SIZE as f32;
    out[PHASE + phase_index(s.phase())] = 1.0;
    if let Some(p) = s.to_act() {
        out[TO_ACT + rel[p]] = 1.0;
    }
    out[OPENER + rel[s.auction().first()]] = 1.0;
    if let Some(h) = s.contract().or(s.auction().high()) {
        out[HIGH_BID + ((h.bid - MIN_BID) / MIN_RAISE) as usize] = 1.0;
        out[HIGH_BIDDER + rel[h.dealer]] = 1.0;
    }
    if let Some(c) = s.contract() {
        out[DEALER + rel[c.dealer]] = 1.0;
    }
    if let Some(t) = s.trump() {
        out[TRUMP_AT + t.index()] = 1.0;
    }
    if s.phase() == Phase::Play {
        out[LEADER + rel[s.leader()]] = 1.0;
    }
    out[TRICKS] = s.tricks() as f32 / 25.0;
    Ok(())
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Auction => 0,
        Phase::Trump => 1,
        Phase::Kitty => 2,
        Phase::Play => 3,
        Phase::Over => 4,
    }
}

/// The cards a move puts down: the burial's 8 cards, a play's cards (a throw as attempted);
/// none for a pass, a bid or a trump.
pub fn move_cards(mv: &Action) -> Multiset {
    match *mv {
        Action::Bury(m) | Action::Play(m) => m,
        Action::Bid(_) | Action::Trump(_) => Multiset::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::deal::deal_rng;
    use crate::game::{DealSetup, Game, GameState};
    use crate::games::hongwu::{DealState, HongWuRules};
    use crate::policy::Policy;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn tensor(s: &DealState, seat: usize, perfect: bool) -> Vec<f32> {
        let mut out = vec![0.0; TENSOR_LEN];
        s.write_observation_tensor(seat, perfect, &mut out).unwrap();
        out
    }

    /// The 54 values of field `name` row `row`.
    fn row<'a>(t: &'a [f32], name: &str, row: usize) -> &'a [f32] {
        let at = offset_of(name) + row * NUM_KINDS;
        &t[at..at + NUM_KINDS]
    }

    #[test]
    fn layout_lengths_add_up_and_offsets_are_contiguous() {
        let s = HongWuRules::default().new_deal(1, 0).unwrap();
        let fields = s.observation_layout();
        assert_eq!(fields, layout());
        let mut next = 0;
        for f in &fields {
            assert_eq!(f.offset, next, "{}", f.name);
            assert!(f.len > 0 && !f.meaning.is_empty());
            next += f.len;
        }
        assert_eq!(next, TENSOR_LEN);
        // The table in DealState's docs is this layout.
        let doc = include_str!("game.rs");
        for f in &fields {
            let row = format!("/// | `{}` | {} | {} | {} |", f.name, f.offset, f.len, f.meaning);
            assert!(doc.contains(&row), "DealState's docs lack {row}");
        }
        let names: std::collections::HashSet<_> = fields.iter().map(|f| f.name).collect();
        assert_eq!(names.len(), fields.len(), "unique names");
        assert_eq!(TENSOR_LEN, 1388);
        let mut short = vec![0.0; TENSOR_LEN - 1];
        assert!(s.write_observation_tensor(0, false, &mut short).is_err());
        assert!(s.write_observation_tensor(4, false, &mut vec![0.0; TENSOR_LEN]).is_err());
    }

    /// A deal with fixed hands: seat 1 opens and wins at 60, names hearts, buries 8 known
    /// cards and leads ♠A; seat 2 follows. Entries checked by hand for seats 1 and 3.
    #[test]
    fn entries_of_a_known_position() {
        let r = HongWuRules::default();
        let dealt = HongWuState::deal(&r, &mut deal_rng(12, 0));
        let mut hands: Vec<Multiset> = (0..4).map(|p| dealt.hand(p)).collect();
        // Make sure seat 1 holds AS (swap it in from wherever it is).
        let a_s: Card = "AS".parse().unwrap();
        if hands[1].count(a_s) == 0 {
            let from = (0..4).find(|&p| hands[p].count(a_s) > 0);
            let give = hands[1].iter().find(|&c| c != a_s).unwrap();
            match from {
                Some(p) => {
                    hands[p].remove(a_s);
                    hands[p].add(give);
                }
                None => panic!("AS in the kitty: pick another seed"),
            }
            hands[1].remove(give);
            hands[1].add(a_s);
        }
        let setup = DealSetup {
            hands: hands.clone(),
            kitty: Some(dealt.kitty()),
            dealer: Some(1),
            ..DealSetup::default()
        };
        let mut s = r.deal_from(&setup).unwrap();
        for mv in ["bid 60", "pass", "pass", "pass", "trump H"] {
            s.apply_move(&s.parse_move(mv).unwrap()).unwrap();
        }
        let h1 = s.core().hand(1);
        let bury: Vec<Card> = h1.iter().filter(|&c| c != a_s).take(8).collect();
        let bury = Multiset::from_cards(&bury).unwrap();
        s.apply_move(&Action::Bury(bury)).unwrap();
        s.apply_move(&Action::Play(ms("AS"))).unwrap();
        let t1 = tensor(&s, 1, false);
        let t3 = tensor(&s, 3, false);
        let kind = |c: &str| c.parse::<Card>().unwrap().index();
        // Seat 1: its hand lost the burial and AS; it played AS (its own row 0).
        let mut h = h1;
        h.remove_all(&bury).unwrap();
        h.remove(a_s);
        for c in Card::all() {
            assert_eq!(row(&t1, "hand", 0)[c.index()], h.count(c) as f32, "{c}");
        }
        assert_eq!(row(&t1, "played", 0)[kind("AS")], 1.0);
        assert_eq!(row(&t1, "trick", 0)[kind("AS")], 1.0);
        assert_eq!(row(&t1, "played", 0).iter().sum::<f32>(), 1.0);
        // Seat 3 sees seat 1 as relative seat 2 (3 → 0 → 1 anticlockwise).
        assert_eq!(row(&t3, "played", 2)[kind("AS")], 1.0);
        assert_eq!(row(&t3, "trick", 2)[kind("AS")], 1.0);
        // The kitty: the dealer's tensor only.
        assert_eq!(row(&t1, "kitty", 0).iter().sum::<f32>(), 8.0);
        assert_eq!(row(&t3, "kitty", 0).iter().sum::<f32>(), 0.0);
        let at = |t: &[f32], name: &str, i: usize| t[offset_of(name) + i];
        assert_eq!(at(&t1, "phase", 3), 1.0, "play");
        assert_eq!((at(&t1, "dealer", 0), at(&t3, "dealer", 2)), (1.0, 1.0));
        assert_eq!((at(&t1, "trump", 1), at(&t3, "trump", 1)), (1.0, 1.0), "hearts");
        assert_eq!((at(&t1, "high_bid", 0), at(&t1, "high_bidder", 0)), (1.0, 1.0), "60");
        assert_eq!((at(&t1, "to_act", 1), at(&t3, "to_act", 3)), (1.0, 1.0), "seat 2 next");
        assert_eq!((at(&t1, "leader", 0), at(&t3, "leader", 2)), (1.0, 1.0));
        assert_eq!(at(&t3, "opener", 2), 1.0);
        for r in 1..4 {
            assert_eq!(at(&t1, "passed", r), 1.0, "seats 2, 3, 0 passed");
        }
        assert_eq!(at(&t1, "passed", 0), 0.0);
        assert_eq!(at(&t1, "hand_sizes", 0), 24.0 / 25.0);
        assert_eq!(at(&t1, "hand_sizes", 1), 1.0);
        assert_eq!((at(&t1, "kitty_size", 0), at(&t1, "tricks", 0)), (1.0, 0.0));
        // No perfect information unless asked.
        assert!(row(&t3, "perfect_hands", 2).iter().all(|&v| v == 0.0));
        let p3 = tensor(&s, 3, true);
        assert_eq!(row(&p3, "perfect_hands", 2), row(&t1, "hand", 0));
        assert_eq!(row(&p3, "perfect_kitty", 0), row(&t1, "kitty", 0));
        // A card being built shows to the builder only.
        let mut b = s.clone();
        let a = b.legal_actions()[0];
        b.apply_action(a).unwrap();
        let pending = b.pending_cards();
        if !pending.is_empty() {
            let t2 = tensor(&b, 2, false);
            assert_eq!(row(&t2, "pending", 0)[a], 1.0);
            assert!(row(&tensor(&b, 3, false), "pending", 0).iter().all(|&v| v == 0.0));
        }
        assert_eq!(s.move_cards(&Action::Bury(bury)), bury);
        assert_eq!(s.move_cards(&s.parse_move("bid 65").unwrap()), Multiset::EMPTY);
        assert_eq!(s.move_cards(&s.parse_move("play 9C 9C").unwrap()), ms("9C 9C"));
    }

    /// Two other seats' hands swapped: the same tensor for the observer, unless `perfect`;
    /// writing over a dirty buffer gives the same values as writing over zeros.
    #[test]
    fn other_hands_do_not_show_and_no_stale_values() {
        let r = HongWuRules::default();
        let mut checked = 0;
        for i in 0..6u64 {
            let mut s = r.new_deal(60, i).unwrap();
            let mut rng = deal_rng(61, i);
            let mut step = 0;
            while !s.is_terminal() {
                let seat = s.current_player().unwrap();
                let (a, b) = ((seat + 1) % 4, (seat + 2) % 4);
                let view = s.seat_view(seat).unwrap();
                let mut hidden = view.dealer().unwrap().deal(&mut rng);
                let w1 = s.with_hidden(seat, &hidden, &mut rng).unwrap();
                hidden.hands.swap(a, b);
                if let Ok(w2) = s.with_hidden(seat, &hidden, &mut rng) {
                    assert_eq!(tensor(&w1, seat, false), tensor(&w2, seat, false));
                    if w1.core().hand(a) != w1.core().hand(b) {
                        assert_ne!(tensor(&w1, seat, true), tensor(&w2, seat, true));
                    }
                    checked += 1;
                }
                for q in 0..4 {
                    for perfect in [false, true] {
                        let clean = tensor(&s, q, perfect);
                        let mut dirty = vec![f32::NAN; TENSOR_LEN];
                        s.write_observation_tensor(q, perfect, &mut dirty).unwrap();
                        assert_eq!(dirty, clean);
                        dirty.fill(7.0);
                        s.write_observation_tensor(q, perfect, &mut dirty).unwrap();
                        assert_eq!(dirty, clean);
                    }
                }
                let policy = if step % 2 == 0 { Policy::Random } else { Policy::Basic };
                s.apply_builtin(policy).unwrap();
                step += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
