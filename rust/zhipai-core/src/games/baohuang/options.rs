//! The options of Qingdao Baohuang (baohuang.md, "Configuration options"; defaults first).

use crate::error::Result;
use crate::options::{
    apply_overrides, game_options, Choice, Numbers, OptionInfo, OptionValue, FLAG, ON_OFF,
};

/// Which deck is used (baohuang.md §C.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    /// 4 full decks with jokers, 3s included: 216 cards (seed 003).
    Full216,
    /// pagat's Rizhao deck: 3s, 4s and 5s removed, 168 cards.
    Rizhao168,
}

/// Who receives the card beyond an even split (baohuang.md §C.1 [I]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraCardTo {
    /// The player dealt the first card (a random seat) gets one card more.
    FirstDealtSeat,
    /// The scepter BJ is dealt last, to a random player.
    ScepterLast,
}

/// Where the guard card (the 4th copy of the 登基 card) ranks in play (baohuang.md §C.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardCardRank {
    /// Its face rank, like any other card.
    Face,
    /// Above the big joker (保子 / 保镖牌 variants).
    AboveBigJoker,
}

/// Who may apply for 接风 on a finisher's 底牌 (baohuang.md §C.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JiefengApplicant {
    /// Only the finisher's next active player.
    NextPlayerOnly,
    /// Any active player, the first to apply in the first circle.
    Any,
}

/// How simultaneous grabs (抢独) are resolved (baohuang.md §C.3.5): one rule so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrabPriority {
    /// The first grabber clockwise from the scepter holder wins.
    ClockwiseFromScepterHolder,
}

const DECK: [(&str, Deck); 2] = [("216", Deck::Full216), ("168", Deck::Rizhao168)];
const EXTRA_CARD_TO: [(&str, ExtraCardTo); 2] =
    [("first_dealt_seat", ExtraCardTo::FirstDealtSeat), ("scepter_last", ExtraCardTo::ScepterLast)];
const GRAB_PRIORITY: [(&str, GrabPriority); 1] =
    [("clockwise_from_scepter_holder", GrabPriority::ClockwiseFromScepterHolder)];
const GUARD_CARD_RANK: [(&str, GuardCardRank); 2] =
    [("face", GuardCardRank::Face), ("above_big_joker", GuardCardRank::AboveBigJoker)];
const JIEFENG_APPLICANT: [(&str, JiefengApplicant); 2] =
    [("next_player_only", JiefengApplicant::NextPlayerOnly), ("any", JiefengApplicant::Any)];

game_options! {
    /// The validated options of one Baohuang rule set, in the digest's order. `Default` is the
    /// `baohuang` preset (seed 003 with the digest's defaults).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct BaohuangRules for ()
    options {
        pub deck: Deck = Deck::Full216, in Numbers::new(&DECK),
            "216 = 4 decks with 3s (seed 003); 168 = pagat Rizhao, 3/4/5 removed (§C.1)";
        pub extra_card_to: ExtraCardTo = ExtraCardTo::FirstDealtSeat,
            in Choice::new(&EXTRA_CARD_TO),
            "who gets the 44th card: the first-dealt seat, or the scepter BJ dealt last to a random seat (§C.1)";
        pub scepter_counts_for_dengji: bool = true, in FLAG,
            "the scepter BJ counts toward 3 identical BJ for 登基 (§C.3.1)";
        pub abdication_moves_card: bool = true, in FLAG,
            "让位/抢独 move the physical scepter BJ (hand sizes change by one) (§C.3.2)";
        pub grab_priority: GrabPriority = GrabPriority::ClockwiseFromScepterHolder,
            in Choice::new(&GRAB_PRIORITY),
            "several grabbers: the first clockwise from the scepter holder wins (§C.3.5)";
        pub guard_card_rank: GuardCardRank = GuardCardRank::Face,
            in Choice::new(&GUARD_CARD_RANK),
            "the guard card ranks by its face, or above BJ (保子) (§C.2)";
        /// Spelled off | on in the digest; a bool is taken too.
        pub bombs: bool = false, in ON_OFF,
            "4+ identical naturals beat any play of fewer cards (§C.5 Alt)";
        pub pass_is_final_for_round: bool = false, in FLAG,
            "a pass keeps the player out for the rest of the round (§C.6)";
        pub jiefeng_applicant: JiefengApplicant = JiefengApplicant::NextPlayerOnly,
            in Choice::new(&JIEFENG_APPLICANT), "who may apply for 接风 on a 底牌 (§C.7)";
        pub solo_loss_literal_minus40: bool = false, in FLAG,
            "a losing solo emperor scores the seed's literal -40 in every solo type (§C.10)";
        /// Every deal opens with 进贡 from the previous deal's places (`State::apply_tribute`;
        /// seat order unless given, `State::new_after`). Spelled off | on; a bool is taken too.
        pub tribute_between_deals: bool = false, in ON_OFF,
            "进贡 from the previous deal's 大拉/二拉 to 大客/二客 ([OPEN], §C.9 Alt)";
    }
}

impl Default for BaohuangRules {
    fn default() -> Self {
        BaohuangRules::defaults()
    }
}

/// Every option name, in the digest's order.
pub const OPTION_NAMES: &[&str] = BaohuangRules::OPTION_NAMES;

impl BaohuangRules {
    /// Build from a preset name (`baohuang`) and overrides. Errors with `InvalidOption` naming an
    /// unknown option or a value the option does not take.
    pub fn from_preset(_preset: &str, overrides: &[(String, OptionValue)]) -> Result<Self> {
        let mut r = BaohuangRules::defaults();
        apply_overrides("baohuang", OPTION_NAMES, &[], overrides, |name, value| {
            r.set(name, value)
        })?;
        Ok(r)
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        self.infos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(o: &[(&str, OptionValue)]) -> Result<BaohuangRules> {
        let o: Vec<_> = o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        BaohuangRules::from_preset("baohuang", &o)
    }

    /// Every listed value, given back as text, builds the same rules; every listed choice is
    /// taken and listed back as itself.
    #[test]
    fn every_listed_value_parses_back_to_the_same_rules() {
        let base = BaohuangRules::default();
        let infos = base.option_infos();
        assert_eq!(infos.iter().map(|i| i.name).collect::<Vec<_>>(), OPTION_NAMES);
        for info in &infos {
            let text = |v: &str| OptionValue::Text(v.to_string());
            assert_eq!(rules(&[(info.name, text(&info.value))]).unwrap(), base, "{}", info.name);
            for choice in &info.choices {
                let r = rules(&[(info.name, text(choice))]).unwrap();
                let back = r.option_infos().into_iter().find(|i| i.name == info.name);
                assert_eq!(back.unwrap().value, *choice, "{}", info.name);
            }
        }
    }

    #[test]
    fn on_off_options_take_their_spelling_or_a_bool() {
        let s = |v: &str| OptionValue::Str(v.into());
        assert_eq!(rules(&[("bombs", s("on"))]), rules(&[("bombs", OptionValue::Bool(true))]));
        assert!(
            rules(&[("tribute_between_deals", OptionValue::Text("ON".into()))])
                .unwrap()
                .tribute_between_deals
        );
        assert_eq!(rules(&[("deck", OptionValue::Int(168))]).unwrap().deck, Deck::Rizhao168);
        for (name, v, reason) in [
            ("bombs", s("maybe"), "expected off or on"),
            ("bombs", OptionValue::Int(1), "expected off or on"),
            ("pass_is_final_for_round", s("on"), "expected a bool"),
            ("deck", OptionValue::Int(100), "expected one of 216, 168"),
            ("deck", s("168"), "(an int, not a str)"),
        ] {
            let e = rules(&[(name, v.clone())]).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid option {name}={v}: ")), "{e}");
            assert!(e.contains(reason), "{e}");
        }
    }
}
