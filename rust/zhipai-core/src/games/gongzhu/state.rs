//! A Gongzhu deal as a game state with OpenSpiel-style verbs: deal (52 or 104 cards), the
//! exposure phase (亮牌/卖, §A.6), trick play (§A.2, §A.7, §A.8, §A.12) and scoring.
//!
//! Seats are 0..4; the seat after `s` is [`GongzhuRules::next_seat`]. Actions are integers
//! `0..NUM_ACTIONS`: plays as [`Play::action`], then the exposure actions (see [`Move`]).

use super::options::{ExposureMode, FirstLead, GongzhuRules, NextLeader};
use super::play::{legal_plays, suit_of, trick_winner, ActionCodes, Play, Position, PLAY_ACTIONS};
use super::scoring::{
    exposable_index, final_scores, raw_scores, DealScore, Exposure, EXPOSABLE, PIG,
};
use crate::cards::{Card, CardSet};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::sample::{self, DrawPlan};
use rand::Rng;

/// Action code of [`Move::Expose`] of `EXPOSABLE[i]` is `EXPOSE_ACTION + i`.
pub const EXPOSE_ACTION: usize = PLAY_ACTIONS;
/// Action code of [`Move::ExposeClosed`] of `EXPOSABLE[i]` is `EXPOSE_CLOSED_ACTION + i`.
pub const EXPOSE_CLOSED_ACTION: usize = PLAY_ACTIONS + 4;
/// Action code of [`Move::EndExposure`].
pub const END_EXPOSURE_ACTION: usize = PLAY_ACTIONS + 8;
/// Number of distinct action codes.
pub const NUM_ACTIONS: usize = PLAY_ACTIONS + 9;

/// One decision of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Expose (open, QQ 亮牌) one copy of an exposable card held (§A.6).
    Expose(Card),
    /// `closed_open` exposure mode: a closed declaration (factor 2, no play restriction).
    ExposeClosed(Card),
    /// This seat is done exposing.
    EndExposure,
    /// Play a card, a pair, or two cards on a pair lead.
    Play(Play),
}

impl Move {
    /// The action code (see the module docs).
    pub fn action(&self) -> usize {
        match self {
            Move::Play(p) => p.action(),
            Move::Expose(c) => EXPOSE_ACTION + exposable_index(*c).unwrap_or(0),
            Move::ExposeClosed(c) => EXPOSE_CLOSED_ACTION + exposable_index(*c).unwrap_or(0),
            Move::EndExposure => END_EXPOSURE_ACTION,
        }
    }

    /// The move of action code `code`; errors name a code outside `0..NUM_ACTIONS`.
    pub fn from_action(code: usize) -> Result<Move> {
        match code {
            c if c < PLAY_ACTIONS => Ok(Move::Play(Play::from_action(c).expect("code in range"))),
            c if c < EXPOSE_CLOSED_ACTION => Ok(Move::Expose(EXPOSABLE[c - EXPOSE_ACTION])),
            c if c < END_EXPOSURE_ACTION => {
                Ok(Move::ExposeClosed(EXPOSABLE[c - EXPOSE_CLOSED_ACTION]))
            }
            END_EXPOSURE_ACTION => Ok(Move::EndExposure),
            _ => Err(ZhipaiError::invalid_value(
                "action",
                code,
                format!("expected 0..{NUM_ACTIONS}"),
            )),
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Play(p) => write!(f, "{p}"),
            Move::Expose(c) => write!(f, "expose {c}"),
            Move::ExposeClosed(c) => write!(f, "expose closed {c}"),
            Move::EndExposure => f.write_str("end exposure"),
        }
    }
}

/// Phase of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Exposure,
    Play,
    Done,
}

impl Phase {
    /// The contract's phase (one vocabulary for every game; its `name()` is what messages show).
    pub fn shared(self) -> crate::game::Phase {
        use crate::game::Phase as P;
        match self {
            Phase::Exposure => P::Exposure,
            Phase::Play => P::Play,
            Phase::Done => P::Done,
        }
    }
}

/// How the first trick of a deal is led (§A.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// First deal of a match: the holder of `first_lead_card` leads it (seat 0 leads freely
    /// under `rotate`). Two holders (two decks): one is drawn at random.
    FirstOfMatch,
    /// A later deal: this seat (the previous pig-taker, or the rotating seat) leads any card.
    LedBy(usize),
}

/// One Gongzhu deal in progress.
#[derive(Clone, Debug)]
pub struct State {
    rules: GongzhuRules,
    phase: Phase,
    hands: [Multiset; 4],
    /// Openly exposed copies per seat (scoring) and those still held (play restriction).
    open: [Multiset; 4],
    closed: [Multiset; 4],
    restricted: [Multiset; 4],
    current: u8,
    leader: u8,
    first_leader: u8,
    exposure_turns: u8,
    trick: [Play; 4],
    trick_len: u8,
    suits_led: u8,
    tricks: u8,
    forced: Option<Card>,
    taken: [Multiset; 4],
    played: Multiset,
    /// Seats that took a pig, in trick order (two decks: up to 2).
    pig_takers: [u8; 2],
    pig_count: u8,
    auto_exposed: bool,
    /// The exposure levels of `open` and `closed` (kept up to date: the greedy policy and
    /// scoring read them at every decision).
    exposure: Exposure,
    /// The cards each seat has played (public).
    played_by: [Multiset; 4],
    /// Bit `s` of `voids[p]`: seat `p` certainly holds no card of suit `s` other than its
    /// openly exposed copies still held (public; see [`State::voids`]).
    voids: [u8; 4],
    /// Two decks: plays of a kind of which the seat had one openly exposed copy left, in a trick
    /// where the exposed copy was barred while another card of the suit was held (§A.7), and the
    /// other copy of the kind not known to be elsewhere: `seat << 6 | card index`. Whoever knows
    /// the other copy is in another hand knows the exposed copy was played, so the seat held no
    /// other card of the suit ([`State::exposure_voids_seen_by`]).
    events: [u8; 8],
    n_events: u8,
    /// Kinds each seat certainly holds no unexposed copy of: the automatic exposure (§A.6)
    /// exposes a copy of the first seat in exposure order holding one, so the seats before it
    /// hold none (two decks; in one deck the card's only copy is then known anyway).
    kind_voids: [u64; 4],
}

/// All 52 kinds of one deck as a bitboard.
/// One deck: 39 cards dealt to seats 0, 1, 2 from 52, 51, …, 14 remaining (4 `u64`s).
pub const DEAL_ONE_DECK: DrawPlan = DrawPlan::new(52, 39);
/// Two decks: 78 cards from 104, 103, …, 27 remaining.
pub const DEAL_TWO_DECKS: DrawPlan = DrawPlan::new(104, 78);

pub const ONE_DECK: u64 = (1 << 52) - 1;

/// Deal `13 · decks` cards to each seat (§A.1, §A.12): seats 0, 1 and 2 in turn receive their
/// cards one at a time, each exactly uniform among the cards not yet dealt (the draws of
/// [`DEAL_ONE_DECK`] / [`DEAL_TWO_DECKS`]: 4 or 10 `u64`s), and seat 3 gets the
/// rest. A draw `r` takes the `r`-th remaining physical card in the order: first copies of kinds
/// 0..52, then second copies. Every partition of the deck(s) into four hands is equally likely,
/// as with a shuffled physical deck.
pub fn deal_hands<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R) -> [Multiset; 4] {
    let two = rules.decks == 2;
    let plan = if two { &DEAL_TWO_DECKS } else { &DEAL_ONE_DECK };
    let mut draws = [0u8; 78];
    sample::draw_descending(rng, plan, &mut draws);
    // Not yet dealt: `rest[k]` = kinds whose copy k is still in the deck.
    let mut rest = [ONE_DECK, if two { ONE_DECK } else { 0 }];
    let per = 13 * rules.decks as usize;
    let mut hands = [Multiset::EMPTY; 4];
    for (i, &r) in draws[..plan.count()].iter().enumerate() {
        let first = rest[0].count_ones();
        let (k, r) = if (r as u32) < first { (0, r as u32) } else { (1, r as u32 - first) };
        let bit = sample::nth_bit_portable(rest[k], r);
        rest[k] ^= bit;
        hands[i / per].add(card_of_bit(bit));
    }
    for plane in rest {
        for c in CardSet(plane) {
            hands[3].add(c);
        }
    }
    hands
}

/// The card of a one-bit mask of kinds 0..52.
#[inline]
fn card_of_bit(bit: u64) -> Card {
    Card::from_index(bit.trailing_zeros() as usize).expect("a card of the deck")
}

/// The seat that leads the first deal of a match (§A.8, §A.12): the holder of the first-lead
/// card; with two holders (two decks) one drawn from `rng` (no draw with one holder).
pub fn first_leader<R: Rng + ?Sized>(
    rules: &GongzhuRules,
    hands: &[Multiset; 4],
    rng: &mut R,
) -> usize {
    let FirstLead::Card(c) = rules.first_lead_card else { return 0 };
    let mut holders = [0usize; 2];
    let mut n = 0;
    for (s, h) in hands.iter().enumerate() {
        if h.contains(c) && n < 2 {
            holders[n] = s;
            n += 1;
        }
    }
    if n > 1 {
        holders[sample::below_always(rng, n as u32) as usize]
    } else {
        holders[0]
    }
}

impl State {
    /// A new deal with random hands from `rng` (§A.1, §A.12).
    pub fn deal<R: Rng + ?Sized>(rules: &GongzhuRules, rng: &mut R, opening: Opening) -> State {
        let hands = deal_hands(rules, rng);
        let pick = first_leader(rules, &hands, rng);
        State::from_hands_with_holder(rules, hands, opening, pick).expect("a full deal is valid")
    }

    /// A deal from given hands (each `13 · decks` cards, together the full deck(s), no jokers).
    /// With [`Opening::FirstOfMatch`] and two holders of the first-lead card, the lower seat
    /// leads. Errors name the bad hand or seat.
    pub fn from_hands(
        rules: &GongzhuRules,
        hands: [Multiset; 4],
        opening: Opening,
    ) -> Result<State> {
        let holder = match rules.first_lead_card {
            FirstLead::Card(c) => (0..4).find(|&s| hands[s].contains(c)).unwrap_or(0),
            FirstLead::Rotate => 0,
        };
        State::from_hands_with_holder(rules, hands, opening, holder)
    }

    /// [`State::from_hands`] with the first leader of [`Opening::FirstOfMatch`] given (the
    /// holder of the first-lead card the caller picked, e.g. by [`first_leader`]).
    pub(super) fn from_hands_with_holder(
        rules: &GongzhuRules,
        hands: [Multiset; 4],
        opening: Opening,
        holder: usize,
    ) -> Result<State> {
        let per = 13 * rules.decks as usize;
        for (s, h) in hands.iter().enumerate() {
            if h.len() != per || !h.at_least(1).intersect(crate::cards::CardSet::JOKERS).is_empty()
            {
                return Err(ZhipaiError::invalid_value(
                    format!("hand of seat {s}"),
                    h,
                    format!("expected {per} cards without jokers"),
                ));
            }
        }
        let parts = [&hands[0], &hands[1], &hands[2], &hands[3]];
        if let Some(diff) = crate::multiset::deck_difference(&parts, rules.decks as usize, false) {
            return Err(ZhipaiError::invalid_value(
                "hands",
                format!("({diff})"),
                format!("together the hands must be exactly {} deck(s)", rules.decks),
            ));
        }
        let (leader, forced) = match (opening, rules.first_lead_card) {
            (Opening::LedBy(s), _) if s >= 4 => {
                return Err(ZhipaiError::invalid_value("leader", s, "expected a seat 0..4"))
            }
            (Opening::LedBy(s), _) => (s, None),
            (Opening::FirstOfMatch, FirstLead::Card(c)) => (holder, Some(c)),
            (Opening::FirstOfMatch, FirstLead::Rotate) => (0, None),
        };
        let phase =
            if rules.exposure_mode == ExposureMode::None { Phase::Play } else { Phase::Exposure };
        Ok(State {
            rules: *rules,
            phase,
            hands,
            open: [Multiset::EMPTY; 4],
            closed: [Multiset::EMPTY; 4],
            restricted: [Multiset::EMPTY; 4],
            current: leader as u8,
            leader: leader as u8,
            first_leader: leader as u8,
            exposure_turns: 0,
            trick: [Play::single(PIG); 4],
            trick_len: 0,
            suits_led: 0,
            tricks: 0,
            forced,
            taken: [Multiset::EMPTY; 4],
            played: Multiset::EMPTY,
            pig_takers: [0; 2],
            pig_count: 0,
            auto_exposed: false,
            exposure: Exposure::default(),
            played_by: [Multiset::EMPTY; 4],
            voids: [0; 4],
            events: [0; 8],
            n_events: 0,
            kind_voids: [0; 4],
        })
    }

    pub fn rules(&self) -> &GongzhuRules {
        &self.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act; `None` when the deal is over.
    pub fn current_player(&self) -> Option<usize> {
        (self.phase != Phase::Done).then_some(self.current as usize)
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Done
    }

    pub fn hand(&self, seat: usize) -> &Multiset {
        &self.hands[seat]
    }

    /// The cards seat `seat` has taken in won tricks.
    pub fn taken(&self, seat: usize) -> &Multiset {
        &self.taken[seat]
    }

    /// Copies seat `seat` exposed openly and (closed_open mode) closed.
    pub fn exposed(&self, seat: usize) -> (&Multiset, &Multiset) {
        (&self.open[seat], &self.closed[seat])
    }

    /// Whether the 3-of-4 rule exposed the fourth card automatically (§A.6).
    pub fn auto_exposed(&self) -> bool {
        self.auto_exposed
    }

    /// The seat that led the first trick.
    pub fn first_leader(&self) -> usize {
        self.first_leader as usize
    }

    /// The cards of the trick in progress, leader first, and its leader.
    pub fn current_trick(&self) -> (usize, &[Play]) {
        (self.leader as usize, &self.trick[..self.trick_len as usize])
    }

    /// Number of completed tricks.
    pub fn tricks_played(&self) -> usize {
        self.tricks as usize
    }

    /// Every card played so far (completed tricks and the current one).
    pub fn played(&self) -> &Multiset {
        &self.played
    }

    /// The cards seat `seat` has played so far (completed tricks and the current one).
    pub fn played_by(&self, seat: usize) -> &Multiset {
        &self.played_by[seat]
    }

    /// The suits (bit `s` = [`crate::cards::Suit::index`]) in which seat `seat` has shown, to
    /// everyone, that it holds no card other than its openly exposed copies still held:
    /// * it followed a lead with fewer cards of the led suit than the lead has (§A.2, §A.12);
    /// * it played, alone or as a pair lead, an openly exposed card in a trick where §A.7 bars
    ///   that card while another card of its suit is held (a lead of a suit not yet led, or the
    ///   first round of the led suit) — in two decks only when the exposed copy is certainly the
    ///   one played (both copies exposed by the seat, or the other copy known elsewhere: played
    ///   by another seat before, or exposed by one). Two-card follows of a pair lead tell
    ///   nothing here: §A.7 can leave such a follow nothing else (the whole hand is then legal).
    pub fn voids(&self, seat: usize) -> u8 {
        self.voids[seat]
    }

    /// [`State::voids`] plus what `viewer` alone can add (two decks): a seat that played a kind
    /// of which it had one exposed copy left, barred by §A.7, while the other copy was not known
    /// elsewhere, played the exposed copy if the other copy is in another hand — which `viewer`
    /// knows when it holds that copy, or learns later when another seat plays or exposes it.
    pub fn exposure_voids_seen_by(&self, seat: usize, viewer: usize) -> u8 {
        let mut v = self.voids[seat];
        for &e in &self.events[..self.n_events as usize] {
            let (p, c) = ((e >> 6) as usize, Card::from_index((e & 63) as usize).expect("a card"));
            if p == seat && p != viewer && self.other_copy_elsewhere(p, c, viewer) {
                v |= 1 << suit_of(c).index();
            }
        }
        v
    }

    /// Kinds seat `seat` is known to hold no copy of beyond its openly exposed ones, from the
    /// automatic exposure (see the field's doc).
    pub fn kind_voids(&self, seat: usize) -> CardSet {
        CardSet(self.kind_voids[seat])
    }

    /// Whether a copy of `c` is known (to `viewer`, or to everyone with `viewer = p`) to have
    /// been dealt to a seat other than `p`: played by another seat, exposed by another seat, or
    /// in `viewer`'s hand.
    fn other_copy_elsewhere(&self, p: usize, c: Card, viewer: usize) -> bool {
        (0..4).any(|q| {
            q != p
                && (self.played_by[q].contains(c)
                    || self.open[q].contains(c)
                    || (q == viewer && self.hands[q].contains(c)))
        })
    }

    /// The card the first trick must be led with and the seat that must lead it, while that lead
    /// is still to come (first deal of a match under `first_lead_card`, exposure phase included):
    /// everyone then knows that seat holds the card (§A.8).
    pub fn pending_first_lead(&self) -> Option<(usize, Card)> {
        match self.forced {
            Some(c) if self.tricks == 0 && self.trick_len == 0 && self.phase != Phase::Done => {
                Some((self.leader as usize, c))
            }
            _ => None,
        }
    }

    /// This deal with every hand replaced by `hands` and the closed declarations by `closed`
    /// (a world of [`super::view`]): the copies barred by §A.7 (`min(open, held)` per kind, as
    /// play keeps them) and the exposure levels follow; everything public is unchanged. The
    /// caller guarantees the hands fit (sizes, cards not played, exposed copies held).
    pub(super) fn with_hands(&self, hands: [Multiset; 4], closed: [Multiset; 4]) -> State {
        let mut w = self.clone();
        w.hands = hands;
        w.closed = closed;
        for s in 0..4 {
            let mut r = Multiset::EMPTY;
            if !w.open[s].is_empty() {
                for &c in &EXPOSABLE {
                    for _ in 0..w.open[s].count(c).min(w.hands[s].count(c)) {
                        r.add(c);
                    }
                }
            }
            w.restricted[s] = r;
        }
        w.exposure = w.count_exposure();
        w
    }

    /// Copies of the exposable cards seat `seat` exposed openly and has not played since: the
    /// copies everyone knows are still in its hand.
    pub fn known_exposed(&self, seat: usize) -> Multiset {
        let mut m = Multiset::EMPTY;
        let (open, played) = (self.open[seat].planes(), self.played_by[seat].planes());
        if open[0] == 0 {
            return m;
        }
        if open[1] == 0 && played[1] == 0 {
            // One copy at most of each (one deck): a set difference.
            return Multiset::from_set(CardSet(open[0] & !played[0]));
        }
        for &c in &EXPOSABLE {
            let n = self.open[seat].count(c).saturating_sub(self.played_by[seat].count(c));
            for _ in 0..n {
                m.add(c);
            }
        }
        m
    }

    /// Seats that took a pig, in trick order.
    pub fn pig_takers(&self) -> &[u8] {
        &self.pig_takers[..self.pig_count as usize]
    }

    /// The seat that leads the next deal of a match (§A.8, §A.12 `two_deck_next_leader`):
    /// the pig-taker; `None` before any pig was taken.
    pub fn next_deal_leader(&self) -> Option<usize> {
        let takers = self.pig_takers();
        let s = match self.rules.two_deck_next_leader {
            NextLeader::FirstPigTaker => takers.first(),
            NextLeader::LastPigTaker => takers.last(),
        };
        s.map(|&s| s as usize)
    }

    /// The exposure levels so far (§A.6, §A.12).
    pub fn exposure(&self) -> Exposure {
        debug_assert_eq!(self.exposure, self.count_exposure());
        self.exposure
    }

    /// The exposure levels counted from the exposed copies (QQ: 1 per copy; `closed_open`: 2
    /// per open and 1 per closed declaration).
    fn count_exposure(&self) -> Exposure {
        let open_weight = if self.rules.exposure_mode == ExposureMode::ClosedOpen { 2 } else { 1 };
        let mut e = Exposure::default();
        for s in 0..4 {
            for (i, &c) in EXPOSABLE.iter().enumerate() {
                e.level[i] +=
                    open_weight * self.open[s].count(c) as u8 + self.closed[s].count(c) as u8;
            }
        }
        e
    }

    /// The legality context of the seat to act.
    pub fn position(&self) -> Position {
        let p = self.current as usize;
        Position {
            hand: self.hands[p],
            exposed: self.restricted[p],
            suits_led: self.suits_led,
            lead: (self.trick_len > 0).then_some(self.trick[0]),
            forced: if self.tricks == 0 { self.forced } else { None },
        }
    }

    /// Every legal move of the seat to act (empty when terminal).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Done => {}
            Phase::Exposure => {
                let p = self.current as usize;
                for &c in &EXPOSABLE {
                    let done = self.open[p].count(c) + self.closed[p].count(c);
                    if self.hands[p].count(c) > done {
                        out.push(Move::Expose(c));
                        if self.rules.exposure_mode == ExposureMode::ClosedOpen {
                            out.push(Move::ExposeClosed(c));
                        }
                    }
                }
                out.push(Move::EndExposure);
            }
            Phase::Play => out = self.play_list().into_iter().map(Move::Play).collect(),
        }
        out
    }

    /// The legal action codes, ascending, into `out` (cleared first; no allocation once it
    /// has grown).
    pub fn legal_actions_into(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.phase == Phase::Play {
            legal_plays(&self.rules, &self.position(), &mut ActionCodes(out));
        } else {
            out.extend(self.legal_moves().iter().map(Move::action));
        }
        out.sort_unstable();
    }

    /// The legal plays (play phase only), sized once: a hand's plays rarely pass 32 (growing the
    /// list cost ~3 % of an env step).
    fn play_list(&self) -> Vec<Play> {
        let mut plays = Vec::with_capacity(32);
        self.legal_plays_into(&mut plays);
        plays
    }

    /// The legal plays (play phase only) into a reusable buffer: no allocation once it has grown.
    pub fn legal_plays_into(&self, out: &mut Vec<Play>) {
        if self.phase == Phase::Play {
            legal_plays(&self.rules, &self.position(), out);
        } else {
            out.clear();
        }
    }

    /// `Ok` when `mv` is legal for the seat to act, else `IllegalPlay` naming the move and the
    /// rule it breaks (the check of [`State::apply`], without applying).
    pub fn check(&self, mv: Move) -> Result<()> {
        match (self.phase, mv) {
            (Phase::Done, _) => Err(ZhipaiError::illegal_play(mv, "the deal is over")),
            (Phase::Play, Move::Play(p)) => {
                super::play::check_play(&self.rules, &self.position(), &p)
                    .map_err(|reason| ZhipaiError::illegal_play(p, reason))
            }
            (Phase::Exposure, Move::Play(_)) | (Phase::Play, _) => Err(ZhipaiError::illegal_play(
                mv,
                format!("not allowed in the {} phase", self.phase.shared().name()),
            )),
            (Phase::Exposure, _) if !self.legal_moves().contains(&mv) => {
                Err(ZhipaiError::illegal_play(
                    mv,
                    "only an exposable card held and not yet exposed can be exposed (§A.6)",
                ))
            }
            (Phase::Exposure, _) => Ok(()),
        }
    }

    /// Apply a move after checking it is legal; errors with `IllegalPlay` naming the move and
    /// the rule it breaks (the state then unchanged).
    pub fn apply(&mut self, mv: Move) -> Result<()> {
        self.check(mv)?;
        self.apply_unchecked(mv);
        Ok(())
    }

    /// Apply a legal move of either phase (caller guarantees legality).
    pub fn apply_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Play(p) => self.apply_play_unchecked(p),
            other => self.apply_exposure(other),
        }
    }

    /// Apply an action code (see [`Move::from_action`]), checked.
    pub fn apply_action(&mut self, code: usize) -> Result<()> {
        self.apply(Move::from_action(code)?)
    }

    /// Apply a legal exposure-phase move (caller guarantees legality).
    pub fn apply_exposure(&mut self, mv: Move) {
        let p = self.current as usize;
        match mv {
            Move::Expose(c) => {
                self.open[p].add(c);
                self.restricted[p].add(c);
                let open_weight = 1 + (self.rules.exposure_mode == ExposureMode::ClosedOpen) as u8;
                self.exposure.level[exposable_index(c).unwrap_or(0)] += open_weight;
            }
            Move::ExposeClosed(c) => {
                self.closed[p].add(c);
                self.exposure.level[exposable_index(c).unwrap_or(0)] += 1;
            }
            _ => {
                self.exposure_turns += 1;
                self.current = self.rules.next_seat(p) as u8;
                if self.exposure_turns == 4 {
                    self.finish_exposure();
                }
            }
        }
    }

    /// The 3-of-4 automatic exposure (§A.6; two decks: layer by layer, see
    /// [`Exposure::auto_fourth`]), then the first lead. The copy exposed is held by the first
    /// seat in exposure order (from the first leader) holding an unexposed copy ([I]: only
    /// matters in two decks, where it decides whose copy is restricted by §A.7).
    fn finish_exposure(&mut self) {
        while let Some(i) = self.exposure().auto_fourth(&self.rules) {
            let c = EXPOSABLE[i];
            let mut seat = self.leader as usize;
            let mut holder = None;
            for _ in 0..4 {
                if self.hands[seat].count(c) > self.open[seat].count(c) {
                    holder = Some(seat);
                    break;
                }
                seat = self.rules.next_seat(seat);
            }
            // A card below its layer always has an unexposed copy in some hand.
            let Some(s) = holder else { break };
            let mut before = self.leader as usize;
            while before != s {
                self.kind_voids[before] |= c.bit();
                before = self.rules.next_seat(before);
            }
            self.open[s].add(c);
            self.restricted[s].add(c);
            self.exposure.level[i] += 1;
            self.auto_exposed = true;
        }
        self.phase = Phase::Play;
        self.current = self.leader;
    }

    /// Apply a legal play of the seat to act (caller guarantees legality; the hot path of
    /// simulations: no allocation).
    pub fn apply_play_unchecked(&mut self, play: Play) {
        let p = self.current as usize;
        if !self.restricted[p].is_empty() {
            self.note_exposed_play(p, play);
        }
        if self.trick_len > 0 {
            // A follow with fewer cards of the led suit than the lead shows a void (§A.2, §A.12).
            let lead = self.trick[0];
            let led = lead.first().index() / 13;
            let [a, b] = [play.first().index() / 13, play.cards()[play.len() - 1].index() / 13];
            let in_suit = (a == led) as usize + (play.len() == 2 && b == led) as usize;
            if in_suit < lead.len() {
                self.voids[p] |= 1 << led;
            }
        }
        for &c in play.cards() {
            self.hands[p].remove(c);
            self.played.add(c);
            self.played_by[p].add(c);
            // The unexposed copy is played first, so the exposed one stays restricted.
            if !self.restricted[p].is_empty()
                && self.restricted[p].count(c) > self.hands[p].count(c)
            {
                self.restricted[p].remove(c);
            }
        }
        self.trick[self.trick_len as usize] = play;
        self.trick_len += 1;
        if self.trick_len < 4 {
            self.current = self.rules.next_seat(p) as u8;
            return;
        }
        self.finish_trick();
    }

    /// Record what a play of seat `p` (holding openly exposed copies) shows by §A.7 (see
    /// [`State::voids`]); called before the play is applied. Uses only public facts: the copies
    /// `p` exposed, the cards every seat played and exposed, the suits led, the lead.
    fn note_exposed_play(&mut self, p: usize, play: Play) {
        let lead = (self.trick_len > 0).then(|| self.trick[0]);
        if lead.is_some_and(|l| l.len() == 2) {
            return; // a two-card follow may be the fallback of `legal_plays`: nothing certain
        }
        for &c in play.cards() {
            // Only a kind with an exposed copy still held can be barred.
            if !self.restricted[p].contains(c) {
                continue;
            }
            let s = suit_of(c);
            let bit = 1u8 << s.index();
            let guarded = self.suits_led & bit == 0 && lead.is_none_or(|l| suit_of(l.first()) == s);
            let open = self.open[p].count(c);
            if !guarded || open == 0 {
                continue;
            }
            // An exposed copy is barred while another card of its suit is held, so playing it
            // shows that none is. It is the exposed copy that is played unless the seat also
            // held an unexposed copy of the kind (then that one is played first, and legally):
            // certain in one deck, and in two when the seat's exposed and played copies, or a
            // copy known in another hand, account for both copies; else remembered.
            let before = self.played_by[p].count(c);
            if self.rules.decks == 1 || open + before >= 2 || self.other_copy_elsewhere(p, c, p) {
                self.voids[p] |= bit;
            } else if (self.n_events as usize) < self.events.len() {
                self.events[self.n_events as usize] = (p as u8) << 6 | c.index() as u8;
                self.n_events += 1;
            }
        }
    }

    fn finish_trick(&mut self) {
        let w = trick_winner(&self.rules, &self.trick);
        let mut seat = self.leader as usize;
        for _ in 0..w {
            seat = self.rules.next_seat(seat);
        }
        for play in self.trick {
            for &c in play.cards() {
                self.taken[seat].add(c);
                if c == PIG && (self.pig_count as usize) < 2 {
                    self.pig_takers[self.pig_count as usize] = seat as u8;
                    self.pig_count += 1;
                }
            }
        }
        self.suits_led |= 1 << suit_of(self.trick[0].first()).index();
        self.tricks += 1;
        self.trick_len = 0;
        self.leader = seat as u8;
        self.current = seat as u8;
        if self.hands[seat].is_empty() {
            self.phase = Phase::Done;
        }
    }

    /// Raw and final scores from the cards taken so far (§A.4–A.13).
    pub fn score(&self) -> DealScore {
        let raw = raw_scores(&self.rules, &self.taken, &self.exposure());
        DealScore { raw, final_: final_scores(&self.rules, &raw) }
    }

    /// The final (credited) scores as `f64` per seat once terminal, zeros before (OpenSpiel
    /// `returns`).
    pub fn returns(&self) -> [f64; 4] {
        if !self.is_terminal() {
            return [0.0; 4];
        }
        self.score().final_.map(|x| x as f64)
    }
}
