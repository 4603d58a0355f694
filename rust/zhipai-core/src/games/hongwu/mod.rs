//! Hong Wu 红五 (two-deck "新型红五", shared/rules/hongwu.md, seed 002): one dealer 庄家 against
//! three 闲家, an auction 叫分 for the dealer's bid, ♥5 as the top trump.
//!
//! * [`options`] — every option of the digest's options list;
//! * [`order`] — the card order (♥5 > BJ > SJ > 正参谋 > 副参谋 > 主2 > 副2 > trump suit);
//! * [`auction`] — bidding with validation and reasons;
//! * [`settle`] — kitty, the dealer's score S, the result table and the level table.

pub mod auction;
pub mod options;
pub mod order;
pub mod settle;

use crate::cards::Suit;
use crate::error::{Result, ZhipaiError};
use crate::options::{OptionInfo, OptionValue};
use crate::order::CardOrder;
pub use options::HongWuOptions;

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
        let mut options = HongWuOptions::default();
        for (name, value) in overrides {
            options.set(name, value)?;
        }
        Ok(Self { options })
    }

    /// Every option with its current value.
    pub fn option_infos(&self) -> Vec<OptionInfo> {
        self.options.infos()
    }

    /// The card order of a deal with trump suit `trump` (hongwu.md §B.4, §B.6).
    pub fn order(&self, trump: Suit) -> CardOrder {
        order::hongwu_order(trump, self.options.other_threes, self.options.tractor_above_a)
    }

    /// A new auction opened by seat `first` (hongwu.md §B.2). Errors for a seat outside 0..4.
    pub fn auction(&self, first: usize) -> Result<auction::Auction> {
        auction::Auction::new(first, self.options.direction, self.options.first_bid_range)
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
}
