//! Kitty multiplier (抠底) when the attackers win the last trick (shengji.md §7.2).

use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::tricks::combos::{decompose, Format, LeadKind};
use crate::tricks::TrickRules;

/// Option `kitty_multiplier` (shengji.md §7.2). c = cards in the largest unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KittyMultiplier {
    /// 2·c (default; RB `Times`, BZ).
    TwiceLargestUnit,
    /// 2 × the number of cards led (CT, PG).
    TwiceLeadCards,
    /// (n+1)·2, n = pairs in the largest pair-based unit, 0 if none (S001; a lone pair n = 1).
    JjPairsPlusOne,
    /// Titanic 2·3^len > triple 6 > tractor 2·2^len > pair 4 > else 2; first pattern present (S004).
    Lianzhong,
    /// 2^c (RB `Power`).
    PowerOfTwo,
    /// single 2, pair 4, 4-card tractor 16, longer tractor 64 (SJ+); a throw uses its largest unit.
    ShengjiPlus,
}

/// Option `kitty_multiplier_basis` (shengji.md §7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KittyBasis {
    /// The last trick's lead format (default; RB, BZ, CT).
    LeadFormat,
    /// The winning play's own units (S004 "具体得分根据最大一方牌情规定").
    WinningPlay,
}

/// The multiplier of the kitty's points under `rule`, read from `lead` or (with
/// [`KittyBasis::WinningPlay`], when given) `winning_play`. Errors with `InvalidValue` when the
/// cards read are empty or mix effective suits.
pub fn kitty_multiplier(
    rule: KittyMultiplier,
    basis: KittyBasis,
    tr: &TrickRules,
    lead: &Multiset,
    winning_play: Option<&Multiset>,
) -> Result<u32> {
    let (what, cards) = match (basis, winning_play) {
        (KittyBasis::WinningPlay, Some(w)) => ("winning_play", w),
        _ => ("lead", lead),
    };
    tr.check_copies(what, cards)?;
    let format = decompose(cards, &tr.order, tr.throw_decomposition).ok_or_else(|| {
        ZhipaiError::invalid_value(what, cards, "expected cards of one effective suit")
    })?;
    Ok(multiplier_of(rule, &format))
}

/// The multiplier of one format under `rule` (see [`KittyMultiplier`]).
pub fn multiplier_of(rule: KittyMultiplier, f: &Format) -> u32 {
    let big = f.largest();
    let c = big.cards() as u32;
    match rule {
        KittyMultiplier::TwiceLargestUnit => 2 * c,
        KittyMultiplier::TwiceLeadCards => 2 * f.cards as u32,
        KittyMultiplier::JjPairsPlusOne => {
            let n = f.units.iter().filter(|u| u.mult >= 2).map(|u| u.len as u32).max().unwrap_or(0);
            (n + 1) * 2
        }
        KittyMultiplier::Lianzhong => {
            let longest =
                |k: LeadKind| f.units.iter().filter(|u| u.kind() == k).map(|u| u.len as u32).max();
            if let Some(len) = longest(LeadKind::Titanic) {
                2 * 3u32.pow(len)
            } else if longest(LeadKind::Triple).is_some() {
                6
            } else if let Some(len) = longest(LeadKind::Tractor) {
                2 * 2u32.pow(len)
            } else if longest(LeadKind::Pair).is_some() {
                4
            } else {
                2
            }
        }
        KittyMultiplier::PowerOfTwo => 2u32.pow(c),
        KittyMultiplier::ShengjiPlus => match (big.mult, big.len) {
            (1, _) => 2,
            (_, 1) => 4,
            _ if c == 4 => 16,
            _ => 64,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Rank, Suit};
    use crate::tricks::order::{CardOrder, TrumpTierTractors};

    fn tr(decks: u8) -> TrickRules {
        let o = CardOrder::shengji(Rank::TWO, Some(Suit::Spades), true, TrumpTierTractors::Full);
        TrickRules::standard(o, decks)
    }

    fn mult(rule: KittyMultiplier, lead: &str, decks: u8) -> u32 {
        kitty_multiplier(rule, KittyBasis::LeadFormat, &tr(decks), &lead.parse().unwrap(), None)
            .unwrap()
    }

    #[test]
    fn digest_table_9_6() {
        use KittyMultiplier::*;
        let rows = [
            ("AH", [2, 2, 2, 2, 2]),
            ("AH AH", [4, 4, 4, 4, 4]),
            ("KH KH AH AH", [8, 6, 8, 16, 16]),
            ("QH QH KH KH AH AH", [12, 8, 16, 64, 64]),
            ("AH AH KH", [4, 4, 4, 4, 4]),
        ];
        for (lead, want) in rows {
            let got = [TwiceLargestUnit, JjPairsPlusOne, Lianzhong, PowerOfTwo, ShengjiPlus]
                .map(|r| mult(r, lead, 2));
            assert_eq!(got, want, "{lead}");
        }
        assert_eq!(mult(TwiceLeadCards, "AH AH KH", 2), 6);
        assert_eq!(mult(Lianzhong, "5H 5H 5H 6H 6H 6H", 3), 18);
        assert_eq!(mult(TwiceLargestUnit, "5H 5H 5H 6H 6H 6H", 3), 12);
        assert_eq!(mult(Lianzhong, "3H 3H 3H 7H 7H 8H 8H", 3), 6, "S004 quirk");
    }

    #[test]
    fn winning_play_basis() {
        let t = tr(2);
        let lead: Multiset = "KD KD JD JD 8D".parse().unwrap();
        let win: Multiset = "9S 9S 10S 10S 4S".parse().unwrap();
        let m = |b| kitty_multiplier(KittyMultiplier::Lianzhong, b, &t, &lead, Some(&win)).unwrap();
        assert_eq!(m(KittyBasis::WinningPlay), 8);
        assert_eq!(m(KittyBasis::LeadFormat), 4);
    }
}
