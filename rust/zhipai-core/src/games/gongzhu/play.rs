//! Trick play: the [`Play`] type and its action encoding, legal leads and follows with the
//! exposed-card restriction, and the trick winner (gongzhu.md §A.2, §A.7, §A.8, §A.12).

use super::options::{ExposedDiscard, GongzhuRules};
use crate::cards::{Card, CardSet, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use std::fmt;

/// Number of two-card play codes: unordered pairs `a ≤ b` of the 52 kinds.
const TWO_CARD_CODES: usize = 52 * 53 / 2;
/// Play action codes are `0..PLAY_ACTIONS`: a single card is its kind (0..52); two cards
/// `a ≤ b` (a pair when `a == b`, two decks only) are `52 + triangular index`.
pub const PLAY_ACTIONS: usize = 52 + TWO_CARD_CODES;

/// One player's cards in one trick: a single card, or (two decks) two cards — a pair of
/// identical cards when leading, any two when following a pair. Cards are kept sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    cards: [Card; 2],
    len: u8,
}

impl Play {
    pub const fn single(card: Card) -> Play {
        Play { cards: [card, card], len: 1 }
    }

    /// Two cards, in any order.
    pub fn two(a: Card, b: Card) -> Play {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        Play { cards: [a, b], len: 2 }
    }

    /// A play from a card list of 1 or 2 suited cards; errors name the list.
    pub fn from_cards(cards: &[Card]) -> Result<Play> {
        if let Some(j) = cards.iter().find(|c| c.is_joker()) {
            return Err(ZhipaiError::invalid_value("play", j, "Gongzhu is played without jokers"));
        }
        match cards {
            [a] => Ok(Play::single(*a)),
            [a, b] => Ok(Play::two(*a, *b)),
            _ => Err(ZhipaiError::invalid_value(
                "play",
                crate::cards::format_cards(cards),
                "a play is one card or two cards",
            )),
        }
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub const fn len(&self) -> usize {
        self.len as usize
    }

    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The first (lowest-index) card.
    pub const fn first(&self) -> Card {
        self.cards[0]
    }

    /// Two identical cards.
    pub fn is_pair(&self) -> bool {
        self.len == 2 && self.cards[0] == self.cards[1]
    }

    pub fn to_multiset(&self) -> Multiset {
        let mut m = Multiset::EMPTY;
        for &c in self.cards() {
            m.add(c);
        }
        m
    }

    /// The action code (see [`PLAY_ACTIONS`]).
    pub fn action(&self) -> usize {
        let a = self.cards[0].index();
        if self.len == 1 {
            return a;
        }
        let b = self.cards[1].index();
        // Rows before `a` hold 52, 51, … codes: Σ_{i<a} (52 − i) = 52a − a(a−1)/2.
        52 + 52 * a - a * a.saturating_sub(1) / 2 + (b - a)
    }

    /// The play of action code `code`, `None` outside `0..PLAY_ACTIONS`.
    pub fn from_action(code: usize) -> Option<Play> {
        if code < 52 {
            return Card::from_index(code).map(Play::single);
        }
        let mut rest = code.checked_sub(52)?;
        for a in 0..52 {
            let row = 52 - a;
            if rest < row {
                let b = a + rest;
                return Some(Play::two(Card::from_index(a)?, Card::from_index(b)?));
            }
            rest -= row;
        }
        None
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::cards::format_cards(self.cards()))
    }
}

/// The suit of a card (Gongzhu has no jokers).
#[inline]
pub fn suit_of(card: Card) -> Suit {
    Suit::from_index(card.index() / 13)
}

/// What a player knows when choosing a play: enough to decide legality (§A.2, §A.7, §A.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Position {
    /// The player's hand.
    pub hand: Multiset,
    /// The player's openly exposed copies still in hand (restricted by §A.7).
    pub exposed: Multiset,
    /// Bit `s` set: suit `s` was led in an earlier, completed trick.
    pub suits_led: u8,
    /// The lead of the current trick, `None` when this player leads.
    pub lead: Option<Play>,
    /// The card that must be led (first trick of a match, §A.8).
    pub forced: Option<Card>,
}

impl Position {
    /// Suits whose exposed copies are barred in this trick, as bit masks `(guarded, always)`:
    /// `guarded` suits are barred only while an unexposed card of the suit is held (leading, and
    /// the first round of the led suit, §A.7); `always` suits are barred outright (discards
    /// under `exposed_discard_before_first_round = forbidden`). Suits led before are free.
    pub fn barred_suits(&self, rules: &GongzhuRules) -> (u8, u8) {
        let open = 0xF & !self.suits_led;
        match self.lead {
            None => (open, 0),
            Some(lead) => {
                let led = 1u8 << suit_of(lead.first()).index();
                let always = match rules.exposed_discard_before_first_round {
                    ExposedDiscard::Forbidden => open & !led,
                    ExposedDiscard::Allowed => 0,
                };
                (open & led, always)
            }
        }
    }

    /// The hand without the exposed copies barred in this trick (§A.7): an exposed copy of a
    /// suit not yet led may not be led, nor played to the first trick of its suit, while the
    /// player holds an unexposed card of that suit; with `exposed_discard_before_first_round =
    /// forbidden` it may not be discarded either (sdawzy: no singleton exception for discards;
    /// a player left with nothing else plays it). Two decks: only the exposed copy is barred.
    pub fn playable(&self, rules: &GongzhuRules) -> Multiset {
        if self.exposed.is_empty() {
            return self.hand;
        }
        let (guarded, always) = self.barred_suits(rules);
        let mut out = self.hand;
        for s in Suit::ALL {
            let bit = 1 << s.index();
            let exposed = self.exposed.restrict(s.mask());
            if exposed.is_empty() || (guarded | always) & bit == 0 {
                continue;
            }
            let free = self.hand.restrict(s.mask()).len() - exposed.len();
            if free > 0 || always & bit != 0 {
                for c in exposed.iter() {
                    out.remove(c);
                }
            }
        }
        out
    }
}

/// Push every legal play of `pos` into `out` (cleared first). Never empty for a non-empty hand.
pub fn legal_plays(rules: &GongzhuRules, pos: &Position, out: &mut impl PlaySink) {
    out.clear();
    if let Some(card) = pos.forced {
        if pos.lead.is_none() && pos.hand.contains(card) {
            out.push(Play::single(card));
            if pos.hand.count(card) >= 2 {
                out.push(Play::two(card, card));
            }
            return;
        }
    }
    let playable = pos.playable(rules);
    push_plays(rules, &playable, pos.lead, out);
    if out.is_empty() && playable != pos.hand {
        // The restriction left nothing (e.g. two decks, only exposed cards of the led suit):
        // the exposed cards are then played like the singleton of §A.7.
        push_plays(rules, &pos.hand, pos.lead, out);
    }
}

/// Where [`legal_plays`] lists the plays: a list of plays, or [`ActionCodes`].
pub trait PlaySink {
    fn clear(&mut self);
    fn push(&mut self, play: Play);
    fn is_empty(&self) -> bool;
}

impl PlaySink for Vec<Play> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn push(&mut self, play: Play) {
        Vec::push(self, play);
    }
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

/// The plays' action codes ([`Play::action`]) pushed straight into a list of codes: a vector
/// env's step lists the legal actions with no list of plays in between (no allocation).
pub struct ActionCodes<'a>(pub &'a mut Vec<usize>);

impl PlaySink for ActionCodes<'_> {
    fn clear(&mut self) {
        self.0.clear();
    }
    fn push(&mut self, play: Play) {
        self.0.push(play.action());
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The `pick(n)`-th of the `n` legal plays of `pos`, in the order of [`legal_plays`], without
/// listing them — for leads and single-card follows, where the plays are single cards (and, two
/// decks, the pairs of a lead); `None` without calling `pick` when a pair was led (those plays
/// need the list).
pub fn pick_legal_play(
    rules: &GongzhuRules,
    pos: &Position,
    pick: impl FnOnce(usize) -> usize,
) -> Option<Play> {
    if pos.lead.is_some_and(|l| l.len() == 2) {
        return None;
    }
    if let Some(card) = pos.forced {
        if pos.lead.is_none() && pos.hand.contains(card) {
            let n = if pos.hand.count(card) >= 2 { 2 } else { 1 };
            return Some(if pick(n) == 0 { Play::single(card) } else { Play::two(card, card) });
        }
    }
    let playable = pos.playable(rules);
    // `legal_plays` falls back to the whole hand only when nothing is playable.
    let hand = if playable.is_empty() { pos.hand } else { playable };
    let kinds = hand.kinds();
    let (singles, pairs) = match pos.lead {
        None if rules.decks == 2 => (kinds, hand.pairs()),
        None => (kinds, CardSet::EMPTY),
        Some(lead) => {
            let follow = kinds & suit_of(lead.first()).mask();
            (if follow.is_empty() { kinds } else { follow }, CardSet::EMPTY)
        }
    };
    let n_singles = singles.len() as usize;
    let i = pick(n_singles + pairs.len() as usize);
    Some(if i < n_singles {
        Play::single(nth_card(singles, i))
    } else {
        let c = nth_card(pairs, i - n_singles);
        Play::two(c, c)
    })
}

/// The `i`-th card (ascending) of `set` (`i < set.len()`).
fn nth_card(set: CardSet, i: usize) -> Card {
    let bit = crate::sample::nth_bit_portable(set.0, i as u32);
    Card::from_index(bit.trailing_zeros() as usize).expect("a card of the set")
}

fn push_singles(set: CardSet, out: &mut impl PlaySink) {
    for c in set {
        out.push(Play::single(c));
    }
}

/// Push every pair of distinct kinds of `set`.
fn push_two_distinct(set: CardSet, out: &mut impl PlaySink) {
    let mut rest = set;
    while let Some(a) = rest.first() {
        rest.remove(a);
        for b in rest {
            out.push(Play::two(a, b));
        }
    }
}

fn push_plays(rules: &GongzhuRules, hand: &Multiset, lead: Option<Play>, out: &mut impl PlaySink) {
    let kinds = hand.kinds();
    let Some(lead) = lead else {
        push_singles(kinds, out);
        if rules.decks == 2 {
            for c in hand.pairs() {
                out.push(Play::two(c, c));
            }
        }
        return;
    };
    let suit = suit_of(lead.first()).mask();
    if lead.len() == 1 {
        let follow = kinds & suit;
        push_singles(if follow.is_empty() { kinds } else { follow }, out);
        return;
    }
    // A pair was led (§A.12): a pair of the suit if held, else two cards of the suit, else the
    // one card of the suit plus any other card, else any two cards.
    let in_suit = hand.restrict(suit);
    let pairs = in_suit.pairs();
    if !pairs.is_empty() {
        for c in pairs {
            out.push(Play::two(c, c));
        }
    } else if in_suit.len() >= 2 {
        push_two_distinct(in_suit.kinds(), out);
    } else if let Some(only) = in_suit.kinds().first() {
        for c in kinds & !suit {
            out.push(Play::two(only, c));
        }
    } else {
        push_two_distinct(kinds, out);
        for c in hand.pairs() {
            out.push(Play::two(c, c));
        }
    }
}

/// Is `play` legal in `pos`? `Err(reason)` names the rule it breaks.
pub fn check_play(
    rules: &GongzhuRules,
    pos: &Position,
    play: &Play,
) -> std::result::Result<(), String> {
    if !pos.hand.contains_all(&play.to_multiset()) {
        return Err(format!("{play} is not in the hand"));
    }
    let mut legal = Vec::new();
    legal_plays(rules, pos, &mut legal);
    if legal.contains(play) {
        return Ok(());
    }
    if let (Some(card), None) = (pos.forced, pos.lead) {
        if pos.hand.contains(card) {
            return Err(format!("the first lead of the match must be {card} (§A.8)"));
        }
    }
    match pos.lead {
        None if play.len() == 2 && !play.is_pair() => {
            return Err("a lead is one card or a pair of identical cards (§A.12)".into())
        }
        None if play.len() == 2 && rules.decks == 1 => {
            return Err("one deck: a lead is one card (§A.2)".into())
        }
        Some(lead) if lead.len() != play.len() => {
            return Err(format!("must play {} card(s) to follow {lead}", lead.len()))
        }
        _ => {}
    }
    let mut unrestricted = Vec::new();
    push_plays(rules, &pos.hand, pos.lead, &mut unrestricted);
    if unrestricted.contains(play) {
        return Err(
            "an exposed card may not be led or played in the first round of its suit while \
             another card of that suit is held (§A.7)"
                .into(),
        );
    }
    let lead = pos.lead.map(|l| l.to_string()).unwrap_or_default();
    let suit = pos.lead.map(|l| suit_of(l.first()).letter()).unwrap_or('?');
    match pos.lead {
        Some(l) if l.len() == 2 && pos.hand.restrict(suit_of(l.first()).mask()).pairs().0 != 0 => {
            Err(format!("a pair of {suit} is held and must be played on {lead} (§A.12)"))
        }
        _ => Err(format!("must follow suit {suit} on {lead} (§A.2, §A.12)")),
    }
}

/// The index (in `plays`, leader first) of the play that wins the trick (§A.2, §A.12): the
/// highest card of the led suit; after a pair lead, pairs and two unpaired cards of the led suit
/// beat discards, two unpaired cards beat pairs except in ♦ when `diamond_pairs_beat_singles`,
/// pairs rank by rank, two singles by their higher card; equal plays: the earlier one wins.
pub fn trick_winner(rules: &GongzhuRules, plays: &[Play]) -> usize {
    let suit = suit_of(plays[0].first());
    let mut best = 0;
    let mut best_key = play_key(rules, suit, &plays[0]);
    for (i, p) in plays.iter().enumerate().skip(1) {
        let k = play_key(rules, suit, p);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

/// The strength of `p` in a trick led in `suit` ([`trick_winner`]): 0 for a discard, else
/// `category · 16 + rank`; a later play wins only with a strictly greater key.
#[inline]
pub fn play_key(rules: &GongzhuRules, suit: Suit, p: &Play) -> u32 {
    let [a, b] = p.cards;
    if suit_of(a) != suit || (p.len == 2 && suit_of(b) != suit) {
        return 0;
    }
    let pair_category =
        if suit == Suit::Diamonds && rules.diamond_pairs_beat_singles { 2 } else { 1 };
    let high = a.index().max(b.index()) as u32 % 13 + 1;
    let category = match p.len {
        1 => 1,
        _ if a == b => pair_category,
        _ => 3 - pair_category,
    };
    category * 16 + high
}

/// Validate a trick given as card lists (leader first): 1 to 4 plays of equal size, a single or
/// a pair lead, and no more copies of a card than `decks`. Errors name the bad play.
pub fn parse_trick(rules: &GongzhuRules, plays: &[Vec<Card>]) -> Result<Vec<Play>> {
    if plays.is_empty() || plays.len() > 4 {
        let shown: Vec<String> = plays.iter().map(crate::cards::format_cards).collect();
        let shown = format!("[{}]", shown.join(", "));
        return Err(ZhipaiError::invalid_value("plays", shown, "expected 1 to 4 plays"));
    }
    let mut all = Multiset::EMPTY;
    let mut out = Vec::with_capacity(plays.len());
    for cards in plays {
        let p = Play::from_cards(cards)?;
        if p.len() != plays[0].len() {
            return Err(ZhipaiError::invalid_value(
                "play",
                p,
                "every play of a trick has as many cards as the lead",
            ));
        }
        for &c in p.cards() {
            if all.count(c) >= rules.decks as usize {
                return Err(ZhipaiError::invalid_value(
                    "play",
                    p,
                    format!("{c} appears more often than {} deck(s) hold", rules.decks),
                ));
            }
            all.add(c);
        }
        out.push(p);
    }
    if out[0].len() == 2 && !out[0].is_pair() {
        return Err(ZhipaiError::invalid_value("lead", out[0], "a lead is one card or a pair"));
    }
    if rules.decks == 1 && out[0].len() == 2 {
        return Err(ZhipaiError::invalid_value("lead", out[0], "one deck: a lead is one card"));
    }
    Ok(out)
}
