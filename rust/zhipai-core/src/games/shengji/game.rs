//! The Shengji family under the game contract ([`crate::game`]): [`DealState`] (one deal in
//! progress) and `impl Game for ShengjiRules` (shengji.md §1–§8).

use super::listing;
use super::move_text::{self, Record};
use super::moves::Move;
use super::scoring::Level;
use super::state::{self, tensor, Deal, NUM_ACTIONS, NUM_PLAYERS, STOP};
use super::ShengjiRules;
use crate::cards::{Card, Rank, NUM_KINDS};
use crate::deal::deal_rng;
use crate::deal::Deal as Cards;
use crate::error::{Result, ZhipaiError};
use crate::game::{
    check_seat, deal_over, not_over, Column, DealSetup, Game, GameRng, GameState, HistoryEntry,
    Observation, Phase, TensorField,
};
use crate::knowledge::SeatView;
use crate::multiset::Multiset;
use crate::policy::Policy;

/// One Shengji-family deal in progress (tractor 1–3 decks, tractor_jj, eighty_points): the
/// [`Deal`] state machine (which owns the deal's generator and everything the observation
/// reads) and the history records.
///
/// **Whole moves** ([`Move`], text `pass`, `declare 2H 2H`, `bury <cards>`, `play <cards>`):
/// see [`super::listing`] for the order and limits of [`GameState::legal_moves`] (burials,
/// leads and follows can have millions of choices). [`GameState::sample_legal_move`] draws as
/// the `random` policy does, which is *not* uniform over the legal leads: a lead is drawn
/// uniformly from the lead candidates (every single-unit lead, and each suit's whole holding
/// when it is a throw); declarations, burials and follows are uniform.
///
/// While a move is being built card by card ([`GameState::pending_cards`]), the whole-move
/// verbs still describe the decision (list, count, sample), but [`GameState::apply_move`],
/// [`GameState::check_move`] and the built-in moves are refused until the actions finish it.
///
/// **Integer actions** (55, card by card as [`Deal::apply_action`]):
///
/// | action | meaning |
/// |---|---|
/// | `0..=53` | add one card of kind `a` (`Card::from_index`: S 2…A = 0…12, H 13…25, D 26…38, C 39…51, SJ 52, BJ 53) to the bid, burial or play being built |
/// | `54` (`stop`) | end a bid while declaring or in a 炒底 offer (`pass` when nothing was added), or end a lead |
///
/// A burial ends by itself at the kitty size, a follow at the lead's number of cards. The mask
/// holds exactly the actions after which the move can still be completed to a legal one. Text:
/// the card (`"9C"`, `"BJ"`) or `"stop"`.
///
/// **Returns**: levels gained by the seat's team at the end (shengji.md §8): `+levels` for the
/// two seats of the side that gains, `-levels` for the others, so they sum to 0; a take-over
/// without levels is 0 everywhere (never `-0.0`).
///
/// **Search support**: [`GameState::seat_view`] / [`GameState::with_hidden`] in every phase
/// where a seat decides (what a world conditions on, and what not, is listed in
/// [`super::state::world`]); [`GameState::play_out`] plays on the deal's fast path.
///
/// **Observation tensor** ([`GameState::write_observation_tensor`], 1221 floats for every rule
/// set; [`super::state::tensor`]): seats are counted from the observer (0 = itself, 1 = its
/// right, 2 = its partner, 3 = its left); a card plane is 54 floats, the copies of each kind in
/// `Card::index` order; effective suits are S H D C, trump.
///
/// | field | offset | len | meaning |
/// |---|---|---|---|
/// | `hand` | 0 | 54 | the seat's hand: copies of each card kind |
/// | `played` | 54 | 216 | per seat from the observer: cards it played in completed tricks |
/// | `trick` | 270 | 216 | per seat from the observer: its cards in the current trick |
/// | `known` | 486 | 216 | per seat from the observer: cards every seat knows to be in its hand (declared since its last burial, or shown in a failed throw, and not played since) |
/// | `kitty` | 702 | 54 | the seat's last burial when it made the last one (the kitty it buried, or what a 炒底 overcaller picked up from it); zeros otherwise |
/// | `declaration` | 756 | 54 | the cards of the winning declaration so far |
/// | `pending` | 810 | 54 | the move the seat is building card by card (zeros unless it is to move) |
/// | `perfect_hands` | 864 | 216 | with `perfect` only: every hand, per seat from the observer |
/// | `perfect_rest` | 1080 | 54 | with `perfect` only: the cards in no hand and not played (the buried kitty, or the undealt stock while dealing) |
/// | `level` | 1134 | 14 | one-hot level rank 2…A, then the joker-only level |
/// | `trump` | 1148 | 6 | one-hot trump suit S H D C, no-trump, not known yet (dealing) |
/// | `dealer` | 1154 | 5 | one-hot dealer from the observer, then not known yet |
/// | `declarer` | 1159 | 5 | one-hot seat of the winning declaration from the observer, then none |
/// | `kitty_owner` | 1164 | 5 | one-hot seat that made the last burial from the observer, then none yet |
/// | `phase` | 1169 | 5 | one-hot dealing, burying, chaodi, play, done |
/// | `to_move` | 1174 | 5 | one-hot seat to move from the observer; last: not shown (another seat deciding while dealing or in a 炒底 offer: private) or the deal is over |
/// | `leader` | 1179 | 4 | one-hot seat that led the current trick from the observer (zeros between tricks) |
/// | `lead_suit` | 1183 | 5 | one-hot effective suit of the current lead S H D C trump |
/// | `lead_size` | 1188 | 1 | cards in the current lead (after a failed throw: its forced part) / hand size |
/// | `voids` | 1189 | 20 | per seat from the observer, per effective suit S H D C trump: 1 when it has shown a void |
/// | `hand_sizes` | 1209 | 4 | cards each seat holds (from the observer) / hand size |
/// | `stock` | 1213 | 1 | cards still to deal (the kitty included) / whole stock |
/// | `points` | 1214 | 4 | card points won in completed tricks by each seat (from the observer) / (100 × decks) |
/// | `tricks` | 1218 | 1 | tricks completed / hand size |
/// | `penalty` | 1219 | 1 | failed-throw penalties in the attackers' total / (100 × decks) |
/// | `attacker` | 1220 | 1 | 1 when the seat is an attacker (the dealer known and not its team) |
#[derive(Clone, Debug)]
pub struct DealState {
    deal: Deal,
    records: Vec<Record>,
}

impl DealState {
    /// The state of a deal at its first decision.
    pub fn new(deal: Deal) -> DealState {
        DealState { deal, records: Vec::new() }
    }

    /// The underlying deal (read only: moves go through the state, which records them).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The burial `policy` chooses for the dealer to act while keeping `keep` in hand (hand
    /// evaluation: a forced first lead; [`Deal::burial_keeping`]), drawn from the deal's
    /// generator; not applied.
    pub(crate) fn burial_keeping(&mut self, policy: Policy, keep: &Multiset) -> Result<Move> {
        self.deal.burial_keeping(policy, keep)
    }

    /// Apply `mv` for the seat to move — checked ([`Deal::apply`]) or, when `checked` is false,
    /// as `simulate` applies a policy's move — and record it.
    fn step(&mut self, mv: Move, checked: bool, builtin: Option<Policy>) -> Result<()> {
        let before = self.before_move();
        if checked {
            self.deal.apply(mv)?;
        } else {
            self.deal.apply_policy_move(mv)?;
        }
        self.record(before, mv, builtin);
        Ok(())
    }

    /// What [`DealState::record`] needs to know of the deal before a move.
    fn before_move(&self) -> Before {
        Before {
            seat: self.deal.current_player().unwrap_or(0),
            plays: self.deal.current_trick().len(),
        }
    }

    /// Record `mv`, just applied, in the history.
    fn record(&mut self, before: Before, mv: Move, builtin: Option<Policy>) {
        let played = match mv {
            // A failed throw is reduced to its forced part: record what was played.
            Move::Play(m) if before.plays == 0 => {
                self.deal.current_trick().first().copied().unwrap_or(m)
            }
            Move::Play(m) => m,
            Move::Pass | Move::Declare(_) | Move::Bury(_) => Multiset::EMPTY,
        };
        self.records.push(Record { seat: before.seat, mv, played, builtin });
    }

    /// The history records (tests).
    #[cfg(test)]
    pub(crate) fn records(&self) -> &[Record] {
        &self.records
    }

    fn check_idle(&self, what: impl std::fmt::Display) -> Result<()> {
        if self.deal.building().is_empty() {
            Ok(())
        } else {
            Err(ZhipaiError::illegal_play(
                what,
                "a card-by-card move is being built; finish it with apply_action",
            ))
        }
    }
}

/// The deal just before a move (see [`DealState::record`]).
#[derive(Clone, Copy)]
struct Before {
    seat: u8,
    /// Plays already in the current trick.
    plays: usize,
}

/// `"S"`, `"H"`, `"D"`, `"C"`, or `"NT"` (no-trump).
fn trump_text(t: Option<crate::cards::Suit>) -> String {
    t.map_or("NT".to_string(), |s| s.letter().to_string())
}

impl GameState for DealState {
    type Move = Move;

    fn num_players(&self) -> usize {
        NUM_PLAYERS
    }

    fn current_player(&self) -> Option<usize> {
        self.deal.current_player().map(usize::from)
    }

    fn phase(&self) -> Phase {
        self.deal.phase().shared()
    }

    /// Levels gained by the seat's team (see [`DealState`]); zeros before the end.
    fn returns(&self) -> Vec<f64> {
        let r = self.deal.returns().unwrap_or([0.0; NUM_PLAYERS]);
        r.iter().map(|v| v + 0.0).collect() // + 0.0: no -0.0 from a zero-level split
    }

    fn legal_moves(&self, limit: usize) -> Vec<Move> {
        listing::legal_moves(&self.deal, limit)
    }

    fn count_legal_moves(&self) -> u64 {
        listing::count_legal_moves(&self.deal)
    }

    fn sample_legal_move(&self, rng: &mut GameRng) -> Option<Move> {
        self.deal.random_move_with(rng).ok()
    }

    fn check_move(&self, mv: &Move) -> Result<()> {
        self.deal.check(*mv)
    }

    fn apply_move(&mut self, mv: &Move) -> Result<()> {
        self.step(*mv, true, None)
    }

    fn apply_move_unchecked(&mut self, mv: &Move) {
        debug_assert!(self.check_move(mv).is_ok(), "illegal move {mv}: {:?}", self.check_move(mv));
        let r = self.step(*mv, false, None);
        debug_assert!(r.is_ok(), "{r:?}");
    }

    fn move_to_string(&self, mv: &Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move> {
        move_text::parse_move(&self.deal, text)
    }

    fn builtin_move(&mut self, policy: Policy) -> Result<Move> {
        let name = match policy {
            Policy::Random => "random move",
            Policy::Greedy => "greedy move",
            Policy::Basic => "basic move",
        };
        self.check_idle(name)?;
        self.deal.policy_move(policy)
    }

    fn apply_builtin(&mut self, policy: Policy) -> Result<Move> {
        let mv = self.builtin_move(policy)?;
        self.step(mv, false, Some(policy))?;
        Ok(mv)
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn legal_actions_into(&self, out: &mut Vec<usize>) {
        crate::game::actions_of_bits(u128::from(self.deal.legal_action_mask()), out);
    }

    fn legal_action_mask(&self, out: &mut [bool]) {
        let mask = self.deal.legal_action_mask();
        for (a, slot) in out.iter_mut().enumerate() {
            *slot = a < NUM_ACTIONS && mask & (1 << a) != 0;
        }
    }

    fn apply_action(&mut self, action: usize) -> Result<()> {
        if self.is_terminal() {
            return Err(deal_over(format!("action {action}")));
        }
        let before = self.before_move();
        let phase = self.deal.phase();
        let mut cards = self.deal.building();
        if let Some(card) = Card::from_index(action) {
            cards.add(card);
        }
        self.deal.apply_action(action)?;
        // A move is complete when the deal has applied it and nothing is pending any more.
        if self.deal.building().is_empty() {
            let mv = match phase {
                state::Phase::Dealing | state::Phase::Chaodi => match cards.kinds().first() {
                    None => Move::Pass,
                    Some(card) => {
                        Move::Declare(super::declare::Bid { card, count: cards.len() as u8 })
                    }
                },
                state::Phase::Burying => Move::Bury(cards),
                state::Phase::Playing | state::Phase::Done => Move::Play(cards),
            };
            self.record(before, mv, None);
        }
        Ok(())
    }

    fn action_to_string(&self, action: usize) -> Result<String> {
        match Card::from_index(action) {
            Some(card) => Ok(card.to_string()),
            None if action == STOP => Ok("stop".to_string()),
            None => Err(ZhipaiError::invalid_value(
                "action",
                action,
                format!("actions are 0 to {NUM_KINDS} (card kinds, then stop)"),
            )),
        }
    }

    fn pending_cards(&self) -> Multiset {
        self.deal.building()
    }

    /// Keys (besides `game` = `"shengji"`, `seat`, `phase`, `current_player`, `hand`,
    /// `hand_sizes`): `level` (rank text, `"NT"` on the joker-only level), `dealer` (`None`
    /// until known in hand 1), `trump` (`"S"`/`"H"`/`"D"`/`"C"`/`"NT"`, `None` while dealing),
    /// `declaration` (`(seat, cards)` of the winning declaration so far, or `None`), `kitty` (the
    /// seat's last burial when it made the last one — the kitty it buried, or what a 炒底
    /// overcaller picked up from it while that seat buries again — else `None`),
    /// `current_trick` (`(seat, cards)`, leader first),
    /// `points_won` (card points per seat in completed tricks), `tricks` (completed). While
    /// declaring (dealing, 炒底) a seat is asked only when it holds a legal declaration, so
    /// `current_player` is `None` to the other seats.
    fn observation(&self, seat: usize) -> Result<Observation> {
        check_seat(seat, NUM_PLAYERS)?;
        let d = &self.deal;
        let mut o = Observation::default();
        o.set("game", "shengji");
        o.set("seat", seat);
        o.set("phase", self.phase().name());
        let private = matches!(d.phase(), state::Phase::Dealing | state::Phase::Chaodi);
        let asked = self.current_player().filter(|&p| !private || p == seat);
        o.set("current_player", asked);
        o.set("level", d.level().map_or("NT".to_string(), |r| r.to_string()));
        o.set("dealer", d.dealer());
        o.set("trump", d.trump().map(trump_text));
        let declaration = d.declaring().winner().map(|(p, b)| {
            (p, Multiset::from_cards(&vec![b.card; b.count as usize]).expect("≤ 3 copies"))
        });
        o.set("declaration", declaration);
        o.set("hand", d.hand(seat as u8));
        // The last burial is seen by its burier (the dealer, or a 炒底 overcaller once buried).
        let own = d.last_burial().filter(|&(burier, _)| burier as usize == seat);
        o.set("kitty", own.map(|(_, cards)| cards));
        o.set("hand_sizes", (0..4u8).map(|p| d.hand(p).len()).collect::<Vec<_>>());
        o.set("current_trick", self.current_trick());
        o.set("points_won", d.points_won().to_vec());
        o.set("tricks", d.tricks_played() as u32);
        Ok(o)
    }

    fn history_len(&self) -> usize {
        self.records.len()
    }

    fn history_entry(&self, i: usize) -> HistoryEntry {
        self.records[i].entry()
    }

    fn result_row(&self, row: &mut [i32]) -> Result<()> {
        let r = self.deal.result().ok_or_else(not_over)?;
        let rules = self.deal.rules();
        rules.check_row(row)?;
        rules.write_row_at(r, self.deal.level(), row);
        Ok(())
    }

    /// [`Deal::seat_view`]: the four seats, then while dealing the undealt stock (its end is
    /// the kitty); what is and is not conditioned on is listed in [`super::state::world`].
    fn seat_view(&self, seat: usize) -> Result<SeatView> {
        check_seat(seat, NUM_PLAYERS)?;
        self.deal.seat_view(seat as u8)
    }

    /// [`Deal::with_hidden`], with the history kept; the last burial recorded for another seat
    /// reads as the world's (its kitty, or what a 炒底 overcaller picked up).
    fn with_hidden(&self, seat: usize, hidden: &Cards, rng: &mut GameRng) -> Result<Self> {
        check_seat(seat, NUM_PLAYERS)?;
        let deal = self.deal.with_hidden(seat as u8, hidden, rng)?;
        let mut records = self.records.clone();
        if let Some((burier, cards)) = deal.last_burial().filter(|(b, _)| *b as usize != seat) {
            let last = records.iter_mut().rev().find(|r| matches!(r.mv, Move::Bury(_)));
            if let Some(r) = last.filter(|r| r.seat == burier) {
                r.mv = Move::Bury(cards);
            }
        }
        Ok(DealState { deal, records })
    }

    /// [`Deal::play_out`]: the moves of `apply_builtin`, not recorded (the history stops here;
    /// everything else, the observation included, is as after `apply_builtin`). `IllegalPlay`
    /// while a move is being built card by card.
    fn play_out(&mut self, policy: Policy) -> Result<()> {
        if self.is_terminal() {
            return Ok(());
        }
        self.check_idle(format!("{} move", policy.name()))?;
        self.deal.play_out(policy)?;
        Ok(())
    }

    /// Card points of the tricks each seat won so far (the kitty's points are added at the
    /// end of the deal, not here).
    fn points_won(&self) -> Option<Vec<f64>> {
        Some(self.deal.points_won().iter().map(|&p| p as f64).collect())
    }

    /// The fields of the table in [`DealState`]'s docs.
    fn observation_layout(&self) -> Vec<TensorField> {
        tensor::layout()
    }

    /// [`Deal::write_tensor`]: `InvalidValue` for a seat out of range or a buffer whose length
    /// is not the layout's.
    fn write_observation_tensor(&self, seat: usize, perfect: bool, out: &mut [f32]) -> Result<()> {
        check_seat(seat, NUM_PLAYERS)?;
        self.deal.write_tensor(seat as u8, perfect, out)
    }

    /// The cards of a move: a declaration's cards, a burial, a play (a throw in full: after a
    /// failed throw only its forced part is played, §4.5, as the history shows); none for a
    /// pass.
    fn move_cards(&self, mv: &Move) -> Multiset {
        match *mv {
            Move::Pass => Multiset::EMPTY,
            Move::Declare(b) => {
                let mut m = Multiset::EMPTY;
                for _ in 0..b.count {
                    m.add(b.card);
                }
                m
            }
            Move::Bury(m) | Move::Play(m) => m,
        }
    }
}

impl DealState {
    /// The current trick as `(seat, cards)`, leader first.
    fn current_trick(&self) -> Vec<(usize, Multiset)> {
        let leader = self.deal.leader() as usize;
        let trick = self.deal.current_trick();
        trick.iter().enumerate().map(|(i, m)| ((leader + i) % NUM_PLAYERS, *m)).collect()
    }
}

impl Game for ShengjiRules {
    type State = DealState;

    /// Hand 1 at level 2 (random first drawer; the declarations decide the dealer), dealt from
    /// `deal_rng(seed, index)` exactly as `simulate` deals it.
    fn new_deal(&self, seed: u64, index: u64) -> Result<DealState> {
        Ok(DealState::new(Deal::new(self, Rank::TWO, None, &mut deal_rng(seed, index))?))
    }

    /// A deal of four hands and the kitty (both required, §1.1 sizes). `level`: the dealer
    /// team's level (`None` = 2, `Some(None)` = the joker-only level under
    /// `after_A=no_trump_level`). Without `trump` the hands are received card by card in a
    /// random order with declarations as they come in ([`Deal::from_hands`]); with `trump`
    /// known nobody declares and the deal starts at the burial ([`Deal::from_hands_declared`]).
    /// `dealer`: the dealer and first drawer (`None`: hand 1, the declarations decide, or a
    /// random seat with `trump` known). The deal's generator is `deal_rng(seed, 0)`, as
    /// `zhipai.shengji.Deal(seed=...)`.
    fn deal_from(&self, setup: &DealSetup) -> Result<DealState> {
        if setup.hands.is_empty() && setup.kitty.is_none() && setup.trump.is_none() {
            // No cards given: a shuffled deal at this level and dealer (a match hand).
            let dealer = check_dealer(setup.dealer)?;
            let deal = Deal::new(self, level_of(setup.level), dealer, &mut setup.rng())?;
            return Ok(DealState::new(deal));
        }
        if setup.hands.is_empty() {
            // A kitty or a known trump without the hands: name the field given.
            let (what, value) = match (setup.trump, setup.kitty) {
                (Some(t), _) => ("trump", trump_text(t)),
                (None, k) => ("kitty", k.map(|k| k.to_string()).unwrap_or_default()),
            };
            return Err(ZhipaiError::invalid_value(
                what,
                value,
                "given without the hands: a known trump or kitty needs the 4 hands (hands=...)",
            ));
        }
        let hands: [Multiset; NUM_PLAYERS] =
            setup.hands.clone().try_into().map_err(|h: Vec<_>| {
                ZhipaiError::invalid_value("hands", format!("{} hands", h.len()), "Shengji deals 4")
            })?;
        let kitty = setup.kitty.ok_or_else(|| {
            ZhipaiError::invalid_value("kitty", "None", "a Shengji deal needs its kitty (§1.1)")
        })?;
        let dealer = check_dealer(setup.dealer)?;
        let level = level_of(setup.level);
        let rng = &mut setup.rng();
        let deal = match setup.trump {
            Some(trump) => {
                Deal::from_hands_declared(self, level, trump, dealer, &hands, &kitty, rng)?
            }
            None => Deal::from_hands(self, level, dealer, &hands, &kitty, rng)?,
        };
        Ok(DealState::new(deal))
    }

    fn columns(&self) -> Vec<Column> {
        self.result_columns()
    }
}

/// The dealer seat of a setup (`None`: hand 1, decided by the declarations).
fn check_dealer(dealer: Option<usize>) -> Result<Option<u8>> {
    match dealer {
        Some(d) if d >= NUM_PLAYERS => {
            Err(ZhipaiError::invalid_value("dealer", d, "players are 0..=3"))
        }
        d => Ok(d.map(|d| d as u8)),
    }
}

/// The level of a setup: 2 by default, `Some(None)` = the joker-only level.
fn level_of(level: Option<Option<Rank>>) -> Level {
    match level {
        None => Level::from(Rank::TWO),
        Some(Some(rank)) => Level::from(rank),
        Some(None) => Level::NO_TRUMP,
    }
}
