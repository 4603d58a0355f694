//! Declaring trump (亮主) and overcalling (反主), shengji.md §2.2; dealer selection, §2.3.
//!
//! A declaration ("bid") shows `count` identical cards: a level card (级牌) of one suit, which
//! names that suit as trump, or a pair/triple of one joker kind, which makes the hand no-trump.
//! [`Declaring`] is the small state machine of the declaration phase: it accepts or refuses each
//! bid with the rule it breaks, and knows the final declaration and the trump.
//!
//! Ladders (weakest → strongest, §2.2; a new bid must be **strictly** stronger):
//! * 1 deck: a single level card; the first declaration is final (no overcall, GR).
//! * 2 decks: single L < pair L < pair SJ (NT) < pair BJ (NT) (S001 "其他牌手可用两张无别花色的
//!   级牌或无别王牌反主", CT, BZ).
//! * 3 decks: single L < pair L < pair SJ < pair BJ < triple L < triple SJ < triple BJ (S004
//!   "单张 2 / 两张 2 / 两张王（打无主）/ 三张 2 / 三张王（打无主）"; SJ < BJ inside one count is
//!   the digest default, Q6).
//!
//! All three ladders are one order: by number of cards shown, then level < SJ < BJ. Two bids of
//! the same strength never overcall each other (S004 "不能再亮同级别或该级别以下的牌"), so a
//! level pair cannot overcall a level pair of another suit unless `suit_ranked_bids` is on.

use crate::cards::{format_cards, Card, CardSet, Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use std::fmt;

pub use super::options::{
    DeclareOptions, FirstHandDealer, KittyBuryRestrictions, NextDealer, NoDeclaration,
    NoDeclarationDealer,
};

impl DeclareOptions {
    /// Number of decks these options were built for.
    pub fn decks(&self) -> u8 {
        self.decks
    }
}

/// One declaration: `count` copies of `card`, a level card or a joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bid {
    pub card: Card,
    pub count: u8,
}

impl Bid {
    /// Read a shown card list as a bid at `level` with `decks` decks (§2.2). Errors with
    /// [`ZhipaiError::IllegalPlay`] naming the cards: empty, not identical (`2H 2D`, `SJ BJ`),
    /// more copies than decks, a single joker, or not a level card.
    pub fn from_cards(cards: &[Card], level: Rank, decks: u8) -> Result<Bid> {
        let shown = || format_cards(cards);
        let Some(&card) = cards.first() else {
            return Err(ZhipaiError::illegal_play("(no cards)", "a declaration shows cards"));
        };
        if cards.iter().any(|&c| c != card) {
            return Err(ZhipaiError::illegal_play(
                shown(),
                "a declaration shows identical cards (one suit and rank, or one joker kind)",
            ));
        }
        if cards.len() > decks as usize {
            return Err(ZhipaiError::illegal_play(
                shown(),
                format!("only {decks} copies of {card} exist with {decks} decks"),
            ));
        }
        let count = cards.len() as u8;
        if card.is_joker() {
            if count < 2 {
                return Err(ZhipaiError::illegal_play(shown(), "a single joker cannot declare"));
            }
        } else if card.rank() != Some(level) {
            return Err(ZhipaiError::illegal_play(
                shown(),
                format!("only level cards (level {level}) and joker pairs declare"),
            ));
        }
        Ok(Bid { card, count })
    }

    /// The trump this bid names: `Some(suit)`, or `None` (no-trump) for jokers.
    pub fn trump(self) -> Option<Suit> {
        self.card.suit()
    }

    /// Level < SJ < BJ inside one count.
    fn tier(self) -> u8 {
        match self.card {
            Card::SMALL_JOKER => 1,
            Card::BIG_JOKER => 2,
            _ => 0,
        }
    }

    /// `self` is strictly stronger than `other` (§2.2 ladder).
    pub fn beats(self, other: Bid, suit_ranked: bool) -> bool {
        let (a, b) = ((self.count, self.tier()), (other.count, other.tier()));
        if a != b {
            return a > b;
        }
        // Same count and tier: equal jokers, or level cards of (maybe) different suits.
        suit_ranked && self.tier() == 0 && self.count >= 2 && suit_rank(self) > suit_rank(other)
    }

    /// Slot 0..6 of the bid card: the four level suits, SJ, BJ.
    fn slot(self) -> usize {
        match self.card.suit() {
            Some(s) => s.index(),
            None => 4 + self.tier() as usize - 1,
        }
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cards = vec![self.card; self.count as usize];
        f.write_str(&format_cards(&cards))
    }
}

/// RB suit order for `suit_ranked_bids`: clubs < diamonds < spades < hearts.
fn suit_rank(bid: Bid) -> u8 {
    match bid.card.suit() {
        Some(Suit::Clubs) => 0,
        Some(Suit::Diamonds) => 1,
        Some(Suit::Spades) => 2,
        Some(Suit::Hearts) => 3,
        None => 4,
    }
}

/// Why a bid is refused (the rule it breaks, §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// With one deck the first declaration is final.
    OneDeckFinal,
    /// Not strictly stronger than the current declaration.
    NotStronger,
    /// The current declarer may not reinforce (`self_reinforce_same_suit=false`).
    NoReinforcement,
    /// The current declarer may not switch suit or go NT (`self_overcall_other_suit=false`).
    NoSelfOvercall,
    /// The declarer's partner may not overcall (`partner_may_overcall=false`).
    NoPartnerOvercall,
    /// More copies of a card shown across players than the decks hold.
    TooManyCopies { decks: u8, shown_by_others: u8 },
    /// The joker-only level after A has no level rank and no declaring (§8.5, RB).
    NoLevelRank,
}

impl Refusal {
    fn message(self, current: Option<(u8, Bid)>) -> String {
        let cur = current.map(|(p, b)| format!("player {p}'s {b}")).unwrap_or_default();
        match self {
            Refusal::OneDeckFinal => {
                format!("with one deck the first declaration ({cur}) is final; no overcall")
            }
            Refusal::NotStronger => format!("not stronger than {cur}; equal strength cannot overcall"),
            Refusal::NoReinforcement => "the declarer may not reinforce (self_reinforce_same_suit=false)".into(),
            Refusal::NoSelfOvercall => format!(
                "the winning declarer may only reinforce {cur} with more of the same card, not switch (self_overcall_other_suit=false)"
            ),
            Refusal::NoPartnerOvercall => {
                format!("the partner may not overcall {cur} (partner_may_overcall=false)")
            }
            Refusal::TooManyCopies { decks, shown_by_others } => format!(
                "only {decks} copies exist and other players have already shown {shown_by_others}"
            ),
            Refusal::NoLevelRank => {
                "nobody declares on the joker-only level (after_A=no_trump_level)".into()
            }
        }
    }
}

/// The declaration phase of one hand: accepts or refuses bids and tracks the winner.
///
/// Players are seats 0..4 in counter-clockwise order; the partner of `p` is `(p + 2) % 4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaring {
    opts: DeclareOptions,
    /// `None` on the joker-only level (`after_A = no_trump_level`): nobody declares there.
    level: Option<Rank>,
    winner: Option<(u8, Bid)>,
    first: Option<u8>,
    /// Most copies of each bid card (4 level suits, SJ, BJ) each player has shown.
    shown: [[u8; 6]; 4],
}

impl Declaring {
    /// A declaration phase at `level` under `opts` (which carry the number of decks).
    pub fn new(opts: DeclareOptions, level: Rank) -> Declaring {
        Declaring::at_level(opts, Some(level))
    }

    /// A declaration phase at `level`; `None` is the joker-only level after A (`after_A =
    /// no_trump_level`, §8.5), where nobody declares (RB: "there's no bidding" when the dealer
    /// plays NoTrump): every bid is refused with [`Refusal::NoLevelRank`].
    pub fn at_level(opts: DeclareOptions, level: Option<Rank>) -> Declaring {
        Declaring { opts, level, winner: None, first: None, shown: [[0; 6]; 4] }
    }

    /// The level rank of the hand, `None` on the joker-only level.
    pub fn level(&self) -> Option<Rank> {
        self.level
    }

    /// The current winning declaration `(player, bid)`, `None` before the first one.
    pub fn winner(&self) -> Option<(u8, Bid)> {
        self.winner
    }

    /// The player who declared first.
    pub fn first_declarer(&self) -> Option<u8> {
        self.first
    }

    /// The declared trump: `None` when nobody has declared, `Some(None)` for no-trump (jokers).
    pub fn trump(&self) -> Option<Option<Suit>> {
        self.winner.map(|(_, b)| b.trump())
    }

    /// Whether `player` may show `bid` now; the rule it breaks otherwise. `player` must be < 4.
    pub fn allows(&self, player: u8, bid: Bid) -> std::result::Result<(), Refusal> {
        let p = player as usize;
        let slot = bid.slot();
        let others: u8 = (0..4).filter(|&q| q != p).map(|q| self.shown[q][slot]).sum();
        if others + bid.count > self.opts.decks {
            return Err(Refusal::TooManyCopies { decks: self.opts.decks, shown_by_others: others });
        }
        if self.level.is_none() {
            return Err(Refusal::NoLevelRank);
        }
        let Some((w, current)) = self.winner else { return Ok(()) };
        if self.opts.decks == 1 {
            return Err(Refusal::OneDeckFinal);
        }
        if player == w {
            if bid.card == current.card {
                if !self.opts.self_reinforce_same_suit {
                    return Err(Refusal::NoReinforcement);
                }
            } else if !self.opts.self_overcall_other_suit {
                return Err(Refusal::NoSelfOvercall);
            }
        } else if player == (w + 2) % 4 && !self.opts.partner_may_overcall {
            return Err(Refusal::NoPartnerOvercall);
        }
        if bid.beats(current, self.opts.suit_ranked_bids) {
            Ok(())
        } else {
            Err(Refusal::NotStronger)
        }
    }

    /// Show `cards` for `player`: accepted bids become the current declaration. Errors:
    /// [`ZhipaiError::InvalidValue`] for a player outside 0..4, [`ZhipaiError::IllegalPlay`]
    /// naming the cards and the rule for a refused bid (the state is then unchanged).
    pub fn declare_cards(&mut self, player: u8, cards: &[Card]) -> Result<Bid> {
        check_player(player)?;
        let Some(level) = self.level else {
            return Err(ZhipaiError::illegal_play(
                format_cards(cards),
                Refusal::NoLevelRank.message(None),
            ));
        };
        let bid = Bid::from_cards(cards, level, self.opts.decks)?;
        self.declare(player, bid)?;
        Ok(bid)
    }

    /// Show an already parsed `bid` for `player` (see [`Declaring::declare_cards`]).
    pub fn declare(&mut self, player: u8, bid: Bid) -> Result<()> {
        check_player(player)?;
        self.allows(player, bid).map_err(|r| {
            ZhipaiError::illegal_play(
                format!("declaration {bid} by player {player}"),
                r.message(self.winner),
            )
        })?;
        let shown = &mut self.shown[player as usize][bid.slot()];
        *shown = (*shown).max(bid.count);
        self.winner = Some((player, bid));
        self.first.get_or_insert(player);
        Ok(())
    }

    /// Every bid `player` could show now from `hand` (the cards received so far), weakest first.
    /// At most 4 level suits × 3 counts + 2 jokers × 2 counts.
    pub fn legal_bids(&self, player: u8, hand: &Multiset) -> Vec<Bid> {
        let mut out = Vec::new();
        self.for_each_legal_bid(player, hand, |b| out.push(b));
        out
    }

    /// Call `f` on every bid of [`Declaring::legal_bids`] without allocating.
    pub fn for_each_legal_bid(&self, player: u8, hand: &Multiset, mut f: impl FnMut(Bid)) {
        let Some(level) = self.level else { return };
        if player >= 4 || (self.opts.decks == 1 && self.winner.is_some()) {
            return;
        }
        // Only held level cards and held joker pairs can declare (cheap reject while dealing).
        let held = hand.kinds().intersect(CardSet::rank_mask(level))
            | hand.pairs().intersect(CardSet::JOKERS);
        if held.is_empty() {
            return;
        }
        // Count first, then kind order (level S H D C, SJ, BJ): weakest first.
        for count in 1..=self.opts.decks {
            let mut cards = held.intersect(hand.at_least(count as usize));
            if count < 2 {
                cards = cards.minus(CardSet::JOKERS); // jokers declare in pairs
            }
            for card in cards {
                let bid = Bid { card, count };
                if self.allows(player, bid).is_ok() {
                    f(bid);
                }
            }
        }
    }
}

fn check_player(player: u8) -> Result<()> {
    if player >= 4 {
        return Err(ZhipaiError::invalid_value("player", player, "players are 0..=3"));
    }
    Ok(())
}

/// The result of checking a whole declaration sequence ([`check_declarations`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationOutcome {
    /// The final declaration `(player, bid)` among the accepted bids; `None` if none.
    pub winner: Option<(u8, Bid)>,
    /// The player of the first accepted bid.
    pub first: Option<u8>,
    /// The index of the first refused bid and why (the bids after it are not checked).
    pub illegal: Option<(usize, ZhipaiError)>,
}

/// Check `bids` (`(player, shown cards)` in time order) at `level`: stops at the first illegal
/// bid. Errors only for a player outside 0..4 ([`ZhipaiError::InvalidValue`]); an illegal bid is
/// reported in the outcome with its [`ZhipaiError::IllegalPlay`].
pub fn check_declarations(
    opts: DeclareOptions,
    level: Rank,
    bids: &[(u8, Vec<Card>)],
) -> Result<DeclarationOutcome> {
    let mut d = Declaring::new(opts, level);
    for (i, (player, cards)) in bids.iter().enumerate() {
        check_player(*player)?;
        if let Err(e) = d.declare_cards(*player, cards) {
            return Ok(DeclarationOutcome {
                winner: d.winner,
                first: d.first,
                illegal: Some((i, e)),
            });
        }
    }
    Ok(DeclarationOutcome { winner: d.winner, first: d.first, illegal: None })
}

/// Trump under `no_declaration = flip_kitty`: the suit of the first level card of `kitty` (in
/// kitty order); no-trump when a joker comes first or no level card is there (§2.2, GR).
pub fn flip_kitty_trump(kitty: &[Card], level: Rank) -> Option<Suit> {
    for &c in kitty {
        if c.is_joker() {
            return None;
        }
        if c.rank() == Some(level) {
            return c.suit();
        }
    }
    None
}

/// The hand-1 dealer (§2.3): the final or first declarer per `first_hand_dealer`; when nobody
/// declared, the first drawer under `no_declaration_dealer = first_drawer`, or `None` meaning
/// "draw a random player" (the caller owns the generator).
pub fn first_hand_dealer(
    opts: &DeclareOptions,
    declaring: &Declaring,
    first_drawer: u8,
) -> Option<u8> {
    match (declaring.winner, opts.first_hand_dealer) {
        (Some((p, _)), FirstHandDealer::FinalDeclarer) => Some(p),
        (Some(_), FirstHandDealer::FirstDeclarer) => declaring.first,
        (None, _) => match opts.no_declaration_dealer {
            NoDeclarationDealer::FirstDrawer => Some(first_drawer),
            NoDeclarationDealer::Random => None,
        },
    }
}

/// The dealer of the next hand (§2.3): `dealer_team_held` = the attackers stayed below the
/// take-over threshold. Counter-clockwise seats: the partner is `dealer + 2`, the right-hand
/// neighbour `dealer + 1`.
pub fn next_dealer(opts: &DeclareOptions, dealer: u8, dealer_team_held: bool) -> u8 {
    match (dealer_team_held, opts.next_dealer) {
        (true, NextDealer::SameDealerIfHold) => dealer % 4,
        (true, NextDealer::CcwWithinWinningTeam) => (dealer + 2) % 4,
        (false, _) => (dealer + 1) % 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::options::OptionValue;

    fn opts(decks: u8) -> DeclareOptions {
        DeclareOptions::defaults("tractor", decks)
    }

    fn run(o: DeclareOptions, level: Rank, bids: &[(u8, &str)]) -> DeclarationOutcome {
        let bids: Vec<(u8, Vec<Card>)> =
            bids.iter().map(|(p, c)| (*p, parse_cards(c).unwrap())).collect();
        check_declarations(o, level, &bids).unwrap()
    }

    fn illegal_at(o: DeclareOptions, level: Rank, bids: &[(u8, &str)]) -> Option<usize> {
        run(o, level, bids).illegal.map(|(i, _)| i)
    }

    fn final_of(o: DeclareOptions, level: Rank, bids: &[(u8, &str)]) -> Option<(u8, String)> {
        let out = run(o, level, bids);
        assert!(out.illegal.is_none(), "unexpected refusal: {:?}", out.illegal);
        out.winner.map(|(p, b)| (p, b.to_string()))
    }

    #[test]
    fn d1_example_of_the_digest() {
        // §9.1 D1: 2H, 2S 2S, (2D 2D illegal), (2H 2H by P1 illegal), SJ SJ, BJ BJ.
        let two = Rank::TWO;
        let legal = [(0, "2H"), (2, "2S 2S"), (1, "SJ SJ"), (3, "BJ BJ")];
        assert_eq!(final_of(opts(2), two, &legal), Some((3, "BJ BJ".into())));
        assert_eq!(illegal_at(opts(2), two, &[(0, "2H"), (2, "2S 2S"), (1, "2D 2D")]), Some(2));
        assert_eq!(illegal_at(opts(2), two, &[(0, "2H"), (2, "2S 2S"), (0, "2H 2H")]), Some(2));
        let mut d = Declaring::new(opts(2), two);
        for (p, c) in legal {
            d.declare_cards(p, &parse_cards(c).unwrap()).unwrap();
        }
        assert_eq!(d.trump(), Some(None));
        assert_eq!(first_hand_dealer(&opts(2), &d, 0), Some(3));
    }

    #[test]
    fn d2_three_deck_ladder_is_strictly_increasing() {
        let ladder = ["2C", "2H 2H", "SJ SJ", "BJ BJ", "2D 2D 2D", "SJ SJ SJ", "BJ BJ BJ"];
        let bids: Vec<Bid> = ladder
            .iter()
            .map(|c| Bid::from_cards(&parse_cards(c).unwrap(), Rank::TWO, 3).unwrap())
            .collect();
        for (i, a) in bids.iter().enumerate() {
            for (j, b) in bids.iter().enumerate() {
                assert_eq!(a.beats(*b, false), i > j, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn nobody_declares() {
        let out = run(opts(2), Rank::TWO, &[]);
        assert_eq!((out.winner, out.first, out.illegal), (None, None, None));
        let d = Declaring::new(opts(2), Rank::TWO);
        assert_eq!(d.trump(), None);
        assert_eq!(first_hand_dealer(&opts(2), &d, 1), None);
        let mut o = opts(2);
        o.no_declaration_dealer = NoDeclarationDealer::FirstDrawer;
        assert_eq!(first_hand_dealer(&o, &d, 1), Some(1));
    }

    #[test]
    fn reinforcement_and_self_switch() {
        let two = Rank::TWO;
        assert_eq!(final_of(opts(2), two, &[(0, "2H"), (0, "2H 2H")]), Some((0, "2H 2H".into())));
        assert_eq!(illegal_at(opts(2), two, &[(0, "2H"), (0, "2S 2S")]), Some(1));
        assert_eq!(illegal_at(opts(2), two, &[(0, "2H"), (0, "SJ SJ")]), Some(1));
        let mut o = opts(2);
        o.self_overcall_other_suit = true;
        assert_eq!(final_of(o, two, &[(0, "2H"), (0, "SJ SJ")]), Some((0, "SJ SJ".into())));
        let mut o = opts(2);
        o.self_reinforce_same_suit = false;
        assert_eq!(illegal_at(o, two, &[(0, "2H"), (0, "2H 2H")]), Some(1));
    }

    #[test]
    fn bad_bids_name_the_cards() {
        for (cards, why) in [
            ("SJ", "single joker"),
            ("SJ BJ", "identical"),
            ("2H 2D", "identical"),
            ("3H", "level cards"),
            ("2H 2H 2H", "only 2 copies"),
        ] {
            let err = Bid::from_cards(&parse_cards(cards).unwrap(), Rank::TWO, 2).unwrap_err();
            let msg = err.to_string();
            assert!(msg.contains(cards) && msg.contains(why), "{msg}");
        }
        assert!(Bid::from_cards(&[], Rank::TWO, 2).is_err());
    }

    #[test]
    fn one_deck_first_declaration_is_final() {
        let o = opts(1);
        assert_eq!(illegal_at(o, Rank::TWO, &[(0, "2H"), (1, "2S")]), Some(1));
        assert_eq!(illegal_at(o, Rank::TWO, &[(0, "SJ SJ")]), Some(0));
        let d = Declaring::new(o, Rank::TWO);
        let hand: Multiset = "2H 2S SJ BJ".parse().unwrap();
        assert_eq!(d.legal_bids(1, &hand).len(), 2);
    }

    #[test]
    fn partner_overcall_option() {
        let two = Rank::TWO;
        assert_eq!(final_of(opts(2), two, &[(0, "2H"), (2, "2C 2C")]), Some((2, "2C 2C".into())));
        let mut o = opts(2);
        o.partner_may_overcall = false;
        assert_eq!(illegal_at(o, two, &[(0, "2H"), (2, "2C 2C")]), Some(1));
        assert_eq!(final_of(o, two, &[(0, "2H"), (1, "2C 2C")]), Some((1, "2C 2C".into())));
    }

    #[test]
    fn suit_ranked_bids_follow_rb() {
        let two = Rank::TWO;
        let mut o = opts(2);
        o.suit_ranked_bids = true;
        assert_eq!(final_of(o, two, &[(0, "2S 2S"), (1, "2H 2H")]), Some((1, "2H 2H".into())));
        assert_eq!(illegal_at(o, two, &[(0, "2H 2H"), (1, "2S 2S")]), Some(1));
        // Singles never rank by suit (RB: count > 1).
        assert_eq!(illegal_at(o, two, &[(0, "2C"), (1, "2H")]), Some(1));
    }

    #[test]
    fn copies_across_players_are_bounded() {
        let two = Rank::TWO;
        // Player 1 shows SJ SJ; player 2 cannot also hold 3 SJ in 3 decks.
        let o = opts(3);
        assert_eq!(illegal_at(o, two, &[(1, "SJ SJ"), (2, "SJ SJ SJ")]), Some(1));
        // The same player may show more of what he already showed.
        assert_eq!(
            final_of(o, two, &[(1, "SJ SJ"), (1, "SJ SJ SJ")]),
            Some((1, "SJ SJ SJ".into()))
        );
        let err = run(o, two, &[(1, "SJ SJ"), (2, "SJ SJ SJ")]).illegal.unwrap().1;
        assert!(err.to_string().contains("SJ SJ SJ"), "{err}");
    }

    #[test]
    fn legal_bids_from_a_hand() {
        let mut d = Declaring::new(opts(2), Rank::FIVE);
        let hand: Multiset = "5H 5H 5S SJ SJ BJ 3C".parse().unwrap();
        let got: Vec<String> = d.legal_bids(0, &hand).iter().map(|b| b.to_string()).collect();
        assert_eq!(got, ["5S", "5H", "5H 5H", "SJ SJ"]);
        d.declare_cards(1, &parse_cards("5D 5D").unwrap()).unwrap();
        let got: Vec<String> = d.legal_bids(0, &hand).iter().map(|b| b.to_string()).collect();
        assert_eq!(got, ["SJ SJ"]);
        assert!(d.legal_bids(4, &hand).is_empty());
    }

    #[test]
    fn joker_only_level_has_no_declaring() {
        let mut d = Declaring::at_level(opts(2), None);
        let hand: Multiset = "2H 2H SJ SJ BJ BJ".parse().unwrap();
        assert!(d.legal_bids(0, &hand).is_empty());
        let err = d.declare_cards(0, &parse_cards("BJ BJ").unwrap()).unwrap_err();
        assert!(err.to_string().contains("joker-only level"), "{err}");
        let bid = Bid { card: Card::BIG_JOKER, count: 2 };
        assert_eq!(d.allows(0, bid), Err(Refusal::NoLevelRank));
        assert_eq!((d.level(), d.winner()), (None, None));
    }

    #[test]
    fn player_out_of_range_is_invalid_value() {
        let bids = vec![(4u8, parse_cards("2H").unwrap())];
        let err = check_declarations(opts(2), Rank::TWO, &bids).unwrap_err();
        assert!(matches!(err, ZhipaiError::InvalidValue { .. }), "{err}");
    }

    #[test]
    fn dealer_rotation() {
        let o = opts(2);
        assert_eq!(next_dealer(&o, 0, true), 2);
        assert_eq!(next_dealer(&o, 3, true), 1);
        assert_eq!(next_dealer(&o, 0, false), 1);
        assert_eq!(next_dealer(&o, 3, false), 0);
        let mut o = o;
        o.next_dealer = NextDealer::SameDealerIfHold;
        assert_eq!(next_dealer(&o, 3, true), 3);
    }

    #[test]
    fn flip_kitty() {
        let k = parse_cards("3H 7D 2S 2H").unwrap();
        assert_eq!(flip_kitty_trump(&k, Rank::TWO), Some(Suit::Spades));
        assert_eq!(flip_kitty_trump(&k, Rank::ACE), None);
        assert_eq!(flip_kitty_trump(&parse_cards("BJ 2S").unwrap(), Rank::TWO), None);
    }

    #[test]
    fn options_round_trip() {
        let mut o = opts(2);
        assert!(o.set("no_declaration", &OptionValue::Str("flip_kitty".into())).unwrap());
        assert_eq!(o.no_declaration, NoDeclaration::FlipKitty);
        assert!(!o.set("throw_compare", &OptionValue::Str("x".into())).unwrap());
        let err = o.set("next_dealer", &OptionValue::Str("left".into())).unwrap_err();
        assert!(err.to_string().contains("left"));
        assert!(o.set("chaodi", &OptionValue::Bool(true)).unwrap() && o.chaodi);
        assert!(o.set("chaodi", &OptionValue::Str("maybe".into())).is_err());
        assert!(o.infos().iter().any(|i| i.name == "no_declaration" && i.value == "flip_kitty"));
        assert!(DeclareOptions::defaults("tractor_jj", 2).random_partners_each_hand);
    }
}
