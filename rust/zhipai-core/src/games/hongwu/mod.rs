//! Hong Wu 红五 (two-deck "新型红五", shared/rules/hongwu.md, seed 002): one dealer 庄家 against
//! three 闲家, an auction 叫分 for the dealer's bid, ♥5 as the top trump.
//!
//! * [`options`] — every option of the digest's options list;
//! * [`order`] — the card order (♥5 > BJ > SJ > 正参谋 > 副参谋 > 主2 > 副2 > trump suit);
//! * [`auction`] — bidding with validation and reasons;
//! * [`settle`] — kitty, the dealer's score S, the result table and the level table;
//! * [`state`] — a whole deal as a state machine (deal, auction, trump, kitty, tricks, result);
//! * [`policy`] — the random and greedy players and the [`crate::simulator::DealSimulator`] impl;
//! * [`game`] — the deal under the game contract ([`crate::game::GameState`]): [`DealState`],
//!   with its move text ([`move_text`]), move lists and counts ([`moves`]), integer actions
//!   ([`actions`]) and history ([`history`]).
//!
//! The tricks themselves use the game-neutral machinery of [`crate::tricks`] with the rules of
//! [`HongWuRules::trick_rules`].

pub mod actions;
pub mod auction;
pub mod follow;
pub mod game;
pub mod greedy;
pub mod history;
pub mod move_text;
pub mod moves;
pub mod options;
pub mod order;
pub mod policy;
pub mod settle;
pub mod state;
pub mod stepwise;
pub mod tensor;
pub mod world;

#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod world_tests;

use crate::cards::{Card, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::options::{apply_overrides, OptionInfo, OptionValue};
use crate::tricks::order::CardOrder;
use crate::tricks::{self, FollowError, LeadError, TrickRules};
pub use game::DealState;
pub use options::HongWuOptions;
use options::{FailedThrowPlay, FollowShapeObligation, KittyRule, ThrowCheck, ThrowCompare};
pub use state::{Action, HongWuState, Phase};

/// Cards dealt to each player (hongwu.md §B.1).
pub const HAND_SIZE: usize = 25;
/// Cards in the kitty 底牌 (hongwu.md §B.1).
pub const KITTY_SIZE: usize = 8;

/// The validated options of one Hong Wu rule set (preset `hong_wu`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HongWuRules {
    pub options: HongWuOptions,
}

impl HongWuRules {
    /// Build from the preset `hong_wu` and overrides (names of hongwu.md "Configuration
    /// options"). Errors with `InvalidOption` naming an unknown preset, option or value.
    pub fn from_preset(preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        if preset != "hong_wu" {
            return Err(ZhipaiError::invalid_option("preset", preset, "not the Hong Wu preset"));
        }
        let mut options = HongWuOptions::defaults();
        apply_overrides("hong_wu", options::OPTION_NAMES, &[], overrides, |name, value| {
            options.set(name, value)
        })?;
        Ok(Self { options })
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        self.options.infos()
    }

    /// The card order of a deal with trump suit `trump` (hongwu.md §B.4, §B.6).
    pub fn order(&self, trump: Suit) -> CardOrder {
        order::hongwu_order(trump, self.options.other_threes, self.options.tractor_above_A)
    }

    /// The trick rules of a deal with trump suit `trump` (hongwu.md §B.6–§B.9): the Hong Wu
    /// order, two decks, no trump throws, failed throws per `failed_throw_play`, same-shape plays
    /// compared per `throw_compare`, and only plays of exactly the lead's unit shapes may win
    /// ("牌型一致"). Errors with `InvalidValue` for `None`: Hong Wu has no no-trump (§B.3).
    pub fn trick_rules(&self, trump: Option<Suit>) -> Result<TrickRules> {
        let trump = trump.ok_or_else(|| {
            ZhipaiError::invalid_value("trump", "NT", "Hong Wu has no no-trump (hongwu.md §B.3)")
        })?;
        let o = &self.options;
        let mut tr = TrickRules::standard(self.order(trump), 2);
        tr.throw_decomposition = tricks::Decomposition::MultiplicityFirst;
        tr.trump_throw_allowed = false; // "主牌不能甩" (§B.7)
        tr.throw_check_scope = tricks::ThrowScope::AllOthers; // no partners: all three are opponents
        tr.throw_check = match o.throw_check {
            ThrowCheck::Component => tricks::ThrowCheck::Component,
            ThrowCheck::Literal => tricks::ThrowCheck::Literal,
        };
        tr.throw_fail_forced = match o.failed_throw_play {
            FailedThrowPlay::LowestCard => tricks::ForcedPlay::SmallestCard,
            FailedThrowPlay::LowestBeatableComponent => tricks::ForcedPlay::LowestBeaten,
        };
        tr.follow_shape_obligation = match o.follow_shape_obligation {
            FollowShapeObligation::Standard => tricks::ShapeObligation::Standard,
            FollowShapeObligation::SuitOnly => tricks::ShapeObligation::SuitOnly,
        };
        // §B.8: a tractor if held, otherwise as many pairs as possible (no shorter-tractor duty).
        tr.partial_tractor_follow = false;
        tr.longer_tuples_protected = false;
        tr.follow_throw_structure = tricks::ThrowFollow::ComponentGreedy;
        tr.throw_compare = match o.throw_compare {
            ThrowCompare::MaxCard => tricks::ThrowCompare::HighestCard,
            ThrowCompare::HighestComponent => tricks::ThrowCompare::LargestComponent,
        };
        tr.shape_match = tricks::ShapeMatch::Exact;
        Ok(tr)
    }

    /// The factor applied to the kitty's points when a 闲家 wins the last trick led with `lead`
    /// (hongwu.md §B.10): 2 / 4 / 8 for a single / pair / tractor (a throw by its largest unit)
    /// with `kitty = last_trick_multiplied`, 1 with `last_trick_unmultiplied`, 0 when the kitty
    /// never goes to the 闲家 (`always_dealer`, `ignored`). Errors with `InvalidValue` for an
    /// empty or mixed lead.
    pub fn kitty_multiplier(&self, tr: &TrickRules, lead: &Multiset) -> Result<u32> {
        let format = tricks::check_lead(tr, lead, None)
            .map_err(|e| ZhipaiError::invalid_value("lead", lead, lead_error_reason(&e)))?;
        Ok(match self.options.kitty {
            KittyRule::LastTrickMultiplied => state::kitty_multiplier_of(&format) as u32,
            KittyRule::LastTrickUnmultiplied => 1,
            KittyRule::AlwaysDealer | KittyRule::Ignored => 0,
        })
    }

    /// A new auction opened by seat `first` (hongwu.md §B.2). Errors for a seat outside 0 to 3.
    pub fn auction(&self, first: usize) -> Result<auction::Auction> {
        auction::Auction::new(first, self.options.direction, self.options.first_bid_range)
    }
}

/// Decks in a Hong Wu deal (hongwu.md §B.1): at most two copies of any card.
pub const DECKS: usize = 2;

/// Parse the card list `text` (notation, e.g. `"KC KC JC"`) given as `what`. Errors with
/// `InvalidCard` for bad notation and `InvalidValue` naming the card when it appears more often
/// than the two decks hold (hongwu.md §B.1).
pub fn parse_cards(what: &str, text: &str) -> Result<Multiset> {
    let cards = crate::cards::parse_cards(text)?;
    let mut count = [0usize; 54];
    for c in &cards {
        count[c.index()] += 1;
    }
    if let Some(c) = Card::all().find(|c| count[c.index()] > DECKS) {
        return Err(ZhipaiError::invalid_value(
            what,
            text.trim(),
            format!(
                "{c} appears {} times: more copies than {DECKS} decks hold (hongwu.md §B.1)",
                count[c.index()]
            ),
        ));
    }
    Multiset::from_cards(&cards)
}

/// The reason a lead is refused, in Hong Wu's words and sections (the trick machinery's own
/// texts cite the Shengji digest, which Hong Wu's users do not read).
pub fn lead_error_reason(e: &LeadError) -> String {
    match e {
        LeadError::Empty => "a lead needs at least one card (hongwu.md §B.7)".into(),
        LeadError::NotHeld(cards) => format!("the leader does not hold {cards}"),
        LeadError::MixedSuits => "a lead must be of one suit class: one plain suit, or trumps \
                                  (hongwu.md §B.6–§B.7)"
            .into(),
        LeadError::TrumpThrow => "trumps cannot be thrown, 主牌不能甩 (hongwu.md §B.7); lead one \
                                  single, pair or tractor of trumps"
            .into(),
    }
}

/// The reason a follow is refused, in Hong Wu's words and sections (see [`lead_error_reason`]).
pub fn follow_error_reason(e: &FollowError) -> String {
    match e {
        FollowError::WrongCount { need, got } => {
            format!(
                "the lead has {need} card{}, the play {got} (hongwu.md §B.8)",
                if *need == 1 { "" } else { "s" }
            )
        }
        FollowError::NotHeld(cards) => format!("the follower does not hold {cards}"),
        FollowError::MustFollowSuit { need, got } => {
            format!("{need} cards of the led suit class must be played, not {got} (hongwu.md §B.8)")
        }
        FollowError::Structure => "the lead's pairs and tractors must be matched as far as the \
                                   hand allows (hongwu.md §B.8, follow_shape_obligation=standard)"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_and_overrides() {
        let r = crate::rules::rules("hong_wu", &[]).unwrap();
        assert_eq!(r.options().len(), options::OPTION_NAMES.len());
        let o = [("kitty".to_string(), OptionValue::Str("ignored".into()))];
        let crate::rules::Rules::HongWu(r) = crate::rules::rules("hong_wu", &o).unwrap() else {
            panic!("hong_wu builds HongWu rules")
        };
        assert_eq!(r.options.kitty, options::KittyRule::Ignored);
        let bad = [("decks".to_string(), OptionValue::Int(3))];
        let e = crate::rules::rules("hong_wu", &bad).unwrap_err().to_string();
        assert!(e.contains("decks=3") && e.contains("known options"), "{e}");
        assert!(HongWuRules::from_preset("tractor", &[]).is_err());
    }

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn tr_with(opts: &[(&str, &str)], trump: Suit) -> TrickRules {
        let o: Vec<_> =
            opts.iter().map(|(k, v)| (k.to_string(), OptionValue::Str(v.to_string()))).collect();
        HongWuRules::from_preset("hong_wu", &o).unwrap().trick_rules(Some(trump)).unwrap()
    }

    #[test]
    fn leads_of_b6_and_b7() {
        let tr = tr_with(&[], Suit::Hearts);
        for t in ["5H 5H BJ BJ", "3H 3H 3D 3D", "2H 2H 2C 2C", "2C 2C AH AH", "6H 6H 4H 4H"] {
            let f = tricks::check_lead(&tr, &ms(t), None).unwrap();
            assert_eq!(f.kind(), crate::tricks::combos::LeadKind::Tractor, "{t}");
        }
        // H13: ♠2♠2 ♣2♣2 is two 副2 pairs, a trump throw: illegal (主牌不能甩).
        assert_eq!(
            tricks::check_lead(&tr, &ms("2S 2S 2C 2C"), None).unwrap_err(),
            tricks::LeadError::TrumpThrow
        );
        let tr = tr_with(&[("tractor_above_A", "jokers_only")], Suit::Spades);
        assert!(tricks::check_lead(&tr, &ms("BJ BJ SJ SJ"), None).is_ok());
        assert!(tricks::check_lead(&tr, &ms("3S 3S 3C 3C"), None).is_err());
        assert!(HongWuRules::default().trick_rules(None).is_err(), "no no-trump");
    }

    #[test]
    fn throw_h12_and_its_options() {
        let tr = tr_with(&[], Suit::Spades);
        let f = tricks::check_lead(&tr, &ms("KC KC JC JC 8C"), None).unwrap();
        let others = [ms("3H 4H 6D"), ms("7D 9S 6C"), ms("9C 10H 4C")];
        let r = tricks::check_throw(&tr, &f, &others);
        assert!(!r.valid);
        assert_eq!(r.played, ms("8C"));
        let f = tricks::check_lead(&tr, &ms("JC JC AC"), None).unwrap();
        let others = [ms("QC QC 4H"), ms("7C 6C 5D"), ms("9C 10H 4C")];
        assert_eq!(tricks::check_throw(&tr, &f, &others).played, ms("JC"));
        let alt = tr_with(&[("failed_throw_play", "lowest_beatable_component")], Suit::Spades);
        assert_eq!(tricks::check_throw(&alt, &f, &others).played, ms("JC JC"));
    }

    #[test]
    fn winners_h11_h12_and_compare_option() {
        let tr = tr_with(&[], Suit::Spades);
        let plays = |v: &[&str]| v.iter().map(|p| ms(p)).collect::<Vec<_>>();
        assert_eq!(
            tricks::trick_winner(&tr, &plays(&["QD QD", "AD AD", "4S 4S", "BJ 6S"])).unwrap(),
            2
        );
        let h12 = plays(&["KC KC JC JC 8C", "9S 9S 4S 4S JS", "KS KS 5S 5S 6S", "4C 5C 6C 7C 4D"]);
        assert_eq!(tricks::trick_winner(&tr, &h12).unwrap(), 2);
        let p = plays(&["KC KC JC JC 8C", "4S 4S 6S 6S AS", "KS KS 10S 10S 5S", "4C 5C 6C 7C 4D"]);
        assert_eq!(tricks::trick_winner(&tr, &p).unwrap(), 1, "max_card: ♠A");
        let hc = tr_with(&[("throw_compare", "highest_component")], Suit::Spades);
        assert_eq!(tricks::trick_winner(&hc, &p).unwrap(), 2, "highest pair ♠K♠K");
        assert_eq!(tricks::trick_winner(&tr, &plays(&["BJ", "5H", "BJ", "3S"])).unwrap(), 1);
        assert_eq!(tricks::trick_winner(&tr, &plays(&["2H", "2D", "2C", "AS"])).unwrap(), 0);
    }

    #[test]
    fn follows_of_b8() {
        let tr = tr_with(&[], Suit::Spades);
        let follow = |tr: &TrickRules, lead: &str, hand: &str, play: &str| {
            let f = tricks::check_lead(tr, &ms(lead), None).unwrap();
            tricks::FollowMoves::new(tr, &f, &ms(hand)).unwrap().check(&ms(play)).is_ok()
        };
        assert!(follow(&tr, "AS", "5H 4H 7D", "5H") && !follow(&tr, "AS", "5H 4H 7D", "4H"));
        assert!(!follow(&tr, "9D", "3D 5C 8H", "5C"), "♦3 is a plain diamond");
        assert!(!follow(&tr, "QD QD", "9D 9D 3D 4C", "9D 3D"));
        let so = tr_with(&[("follow_shape_obligation", "suit_only")], Suit::Spades);
        assert!(follow(&so, "QD QD", "9D 9D 3D 4C", "9D 3D"));
        let t3 = tr_with(&[("other_threes", "trump_below_fu_canmou")], Suit::Spades);
        assert!(follow(&t3, "9D", "3D 5C 8H", "5C"), "♦3 is trump: void in diamonds");
    }

    #[test]
    fn card_lists_are_limited_to_two_copies() {
        assert_eq!(parse_cards("bury", "BJ BJ 5H").unwrap(), ms("BJ BJ 5H"));
        let e = parse_cards("bury", "BJ BJ BJ BJ BJ BJ BJ BJ").unwrap_err().to_string();
        assert!(e.contains("BJ appears 8 times") && e.contains("more copies than 2 decks"), "{e}");
        let e = parse_cards("hand", "3S 3S 3S").unwrap_err().to_string();
        assert!(e.contains("3S appears 3 times"), "{e}");
        assert!(matches!(parse_cards("bury", "XX"), Err(ZhipaiError::InvalidCard { .. })));
    }

    #[test]
    fn refusals_cite_the_hong_wu_digest() {
        let tr = tr_with(&[], Suit::Spades);
        let e = tricks::check_lead(&tr, &ms("SJ SJ 3C 3C"), None);
        // SJ SJ 3C 3C is not a tractor (♠3 sits between them): a trump throw.
        let msg = lead_error_reason(&e.unwrap_err());
        assert!(msg.contains("hongwu.md §B.7") && !msg.contains("shengji"), "{msg}");
        let mixed = lead_error_reason(&tricks::check_lead(&tr, &ms("AD AH"), None).unwrap_err());
        assert!(mixed.contains("hongwu.md §B.6") && !mixed.contains("shengji"), "{mixed}");
        let f = tricks::check_lead(&tr, &ms("QD QD"), None).unwrap();
        let moves = tricks::FollowMoves::new(&tr, &f, &ms("9D 9D 3D 4C")).unwrap();
        for play in ["9D 4C", "9D 3D", "9D"] {
            let msg = follow_error_reason(&moves.check(&ms(play)).unwrap_err());
            assert!(msg.contains("hongwu.md §B.8") && !msg.contains("shengji"), "{play}: {msg}");
        }
    }

    #[test]
    fn kitty_multipliers() {
        let r = HongWuRules::default();
        let tr = r.trick_rules(Some(Suit::Spades)).unwrap();
        for (lead, m) in
            [("QD", 2), ("QD QD", 4), ("QD QD KD KD", 8), ("JD JD QD QD KD KD", 8), ("AC KC KC", 4)]
        {
            assert_eq!(r.kitty_multiplier(&tr, &ms(lead)).unwrap(), m, "{lead}");
        }
        let mut r = HongWuRules::default();
        for (rule, m) in [
            (KittyRule::LastTrickUnmultiplied, 1),
            (KittyRule::AlwaysDealer, 0),
            (KittyRule::Ignored, 0),
        ] {
            r.options.kitty = rule;
            assert_eq!(r.kitty_multiplier(&tr, &ms("QD QD")).unwrap(), m);
        }
        assert!(r.kitty_multiplier(&tr, &ms("QD AS")).is_err());
    }
}
