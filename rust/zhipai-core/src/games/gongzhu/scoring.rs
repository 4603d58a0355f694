//! Gongzhu scoring: raw scores from the cards each player took and the exposures
//! (gongzhu.md §A.3–A.10, §A.12), and the per-deal result (§A.11 normalisation, §A.13 teams).

use super::options::{
    AllRedMode, ExposureMode, GongzhuRules, GrandSlamMode, Normalize, TransformerAlone,
    TransformerTable,
};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;

/// 猪 the pig ♠Q (−100).
pub const PIG: Card = Card::new(Suit::Spades, Rank::QUEEN);
/// 羊 the sheep ♦J (+100).
pub const SHEEP: Card = Card::new(Suit::Diamonds, Rank::JACK);
/// 变压器 the transformer ♣10 (×2).
pub const TRANSFORMER: Card = Card::new(Suit::Clubs, Rank::TEN);
/// ♥A (−50; exposing it doubles every heart).
pub const HEART_ACE: Card = Card::new(Suit::Hearts, Rank::ACE);
/// The four exposable cards, in the index order of [`Exposure::level`].
pub const EXPOSABLE: [Card; 4] = [PIG, SHEEP, TRANSFORMER, HEART_ACE];
/// The 16 scoring cards of one deck: 13 hearts, ♠Q, ♦J, ♣10.
pub const SCORING: CardSet =
    CardSet(Suit::Hearts.mask().0 | PIG.bit() | SHEEP.bit() | TRANSFORMER.bit());

/// ♥5..♥10 (−10 each) as bits of a [`CardSet`].
const HEARTS_TEN: u64 = 0b111111 << (13 + 3);

/// The §A.4 value of the hearts among the kinds of `plane` (one copy each).
#[inline(always)]
fn heart_value(plane: u64) -> i64 {
    let h = plane >> 13;
    -10 * (plane & HEARTS_TEN).count_ones() as i64
        - 20 * ((h >> 9) & 1) as i64
        - 30 * ((h >> 10) & 1) as i64
        - 40 * ((h >> 11) & 1) as i64
        - 50 * ((h >> 12) & 1) as i64
}

/// The index of an exposable card in [`EXPOSABLE`], `None` for any other card.
pub fn exposable_index(card: Card) -> Option<usize> {
    EXPOSABLE.iter().position(|&c| c == card)
}

/// Exposure of the 4 exposable cards: `level[i]` is the exponent `e` of the factor `2^e` that
/// exposure applies to card `EXPOSABLE[i]` (§A.6, §A.12): QQ counts 1 per exposed copy (0..=2);
/// `closed_open` counts 1 for a closed and 2 for an open declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exposure {
    pub level: [u8; 4],
}

impl Exposure {
    /// Exposure from the exposed copies (QQ: each copy counts 1; `closed_open`: `open` copies
    /// count 2, `closed` copies 1), with the one-deck 3-of-4 auto-exposure applied when the
    /// rules ask for it (§A.6; both layers in two decks, see [`Exposure::auto_fourth`]). Errors
    /// name a card that is not exposable or exposed too often.
    pub fn from_cards(
        rules: &GongzhuRules,
        open: &Multiset,
        closed: &Multiset,
    ) -> Result<Exposure> {
        let mut e = Exposure::default();
        // QQ counts every exposed copy once; closed_open counts an open declaration twice.
        let open_weight = if rules.exposure_mode == ExposureMode::ClosedOpen { 2 } else { 1 };
        for (cards, weight) in [(open, open_weight), (closed, 1u8)] {
            for card in cards.iter() {
                let i = exposable_index(card).ok_or_else(|| {
                    ZhipaiError::invalid_value(
                        "exposed card",
                        card,
                        "only QS, JD, 10C and AH can be exposed",
                    )
                })?;
                e.level[i] += weight;
            }
        }
        for &c in EXPOSABLE.iter() {
            let copies = open.count(c) + closed.count(c);
            if copies > rules.decks as usize {
                return Err(ZhipaiError::invalid_value(
                    "exposed cards",
                    c,
                    format!("exposed {copies} times with {} deck(s)", rules.decks),
                ));
            }
        }
        if rules.exposure_mode != ExposureMode::ClosedOpen && !closed.is_empty() {
            return Err(ZhipaiError::invalid_value(
                "closed exposures",
                closed,
                "closed declarations exist only with exposure_mode=closed_open",
            ));
        }
        if rules.exposure_mode == ExposureMode::None && e.level.iter().any(|&l| l > 0) {
            return Err(ZhipaiError::invalid_value(
                "exposed cards",
                open.to_string(),
                "exposure_mode=none has no exposure",
            ));
        }
        while let Some(i) = e.auto_fourth(rules) {
            e.level[i] += 1;
        }
        Ok(e)
    }

    /// The exposable card of which the 3-of-4 rule exposes one more copy automatically (§A.6),
    /// if any (QQ exposure with [`GongzhuRules::auto_expose_fourth`]). Apply it and ask again
    /// until `None`.
    ///
    /// One deck: exactly 3 of the 4 cards exposed → the 4th. Two decks (\[I\], the seed states the
    /// rule only "in a deck"): the copies form two layers, a card being exposed at layer `k`
    /// when `k` of its copies are; when exactly 3 cards are exposed at layer `k` (1 or 2), the
    /// 4th gets one more copy exposed. So (1,1,1,0) → (1,1,1,1), (2,2,2,1) → (2,2,2,2) and
    /// (2,2,2,0) → (2,2,2,1) → (2,2,2,2); (2,1,1,0) → (2,1,1,1).
    pub fn auto_fourth(&self, rules: &GongzhuRules) -> Option<usize> {
        if rules.exposure_mode != ExposureMode::Qq || !rules.auto_expose_fourth() {
            return None;
        }
        (1..=rules.decks).find_map(|layer| {
            let at_layer = self.level.iter().filter(|&&l| l >= layer).count();
            (at_layer == 3).then(|| self.level.iter().position(|&l| l < layer)).flatten()
        })
    }

    /// The factor `2^e` of exposable card `i`.
    pub fn factor(&self, i: usize) -> i64 {
        1 << self.level[i]
    }

    /// The number of exposures (sum of exponents): the grand-slam doubling count (§A.10).
    pub fn total(&self) -> u32 {
        self.level.iter().map(|&l| l as u32).sum()
    }
}

/// What scoring needs from the cards one player took (§A.3–A.5): counts of the special cards
/// and hearts, and the §A.4 value of the hearts before exposure doubling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Takes {
    pub hearts: u32,
    /// Sum of the §A.4 values of the hearts taken (−200 per deck in all), not yet doubled.
    pub heart_points: i64,
    pub pigs: u32,
    pub sheep: u32,
    pub transformers: u32,
}

impl Takes {
    /// The summary of `taken` (bit counts on its planes; cheap enough for every deal).
    #[inline(always)]
    pub fn of(taken: &Multiset) -> Takes {
        // At most one copy of each kind (always in one deck): the bitboard summary.
        if taken.planes()[1] == 0 {
            return Takes::of_set(taken.planes()[0]);
        }
        Takes {
            hearts: taken.count_in(Suit::Hearts.mask()) as u32,
            heart_points: taken.planes().iter().map(|&plane| heart_value(plane)).sum(),
            pigs: taken.count(PIG) as u32,
            sheep: taken.count(SHEEP) as u32,
            transformers: taken.count(TRANSFORMER) as u32,
        }
    }

    /// The summary of the one-deck cards `taken` (a bitboard of kinds).
    #[inline(always)]
    pub fn of_set(taken: u64) -> Takes {
        Takes {
            hearts: (taken & Suit::Hearts.mask().0).count_ones(),
            heart_points: heart_value(taken),
            pigs: (taken >> PIG.index() & 1) as u32,
            sheep: (taken >> SHEEP.index() & 1) as u32,
            transformers: (taken >> TRANSFORMER.index() & 1) as u32,
        }
    }

    /// All `13 · decks` hearts (全红, §A.9).
    #[inline(always)]
    pub fn all_hearts(&self, decks: u8) -> bool {
        self.hearts == 13 * decks as u32
    }

    /// Every scoring card (全收, §A.10).
    #[inline(always)]
    pub fn grand_slam(&self, decks: u8) -> bool {
        let d = decks as u32;
        self.all_hearts(decks) && self.pigs == d && self.sheep == d && self.transformers == d
    }
}

/// The raw score of one player who took `taken` (§A.4–A.10, §A.12).
#[inline]
pub fn raw_score(rules: &GongzhuRules, taken: &Multiset, exposure: &Exposure) -> i64 {
    // Nothing taken scores 0 under every rule set (no card to count, nothing to multiply);
    // early in a deal most seats have taken nothing.
    if taken.is_empty() {
        return 0;
    }
    raw_score_of(rules, &Takes::of(taken), exposure)
}

/// The raw score of one player from the summary of what they took (§A.4–A.10, §A.12).
#[inline(always)]
pub fn raw_score_of(rules: &GongzhuRules, t: &Takes, exposure: &Exposure) -> i64 {
    let decks = rules.decks as i64;
    let hf = exposure.factor(3);
    let pf = exposure.factor(0);
    let sf = exposure.factor(1);
    let h = t.transformers;
    let all_hearts = t.all_hearts(rules.decks);
    let pigs = t.pigs as i64;
    let sheep = t.sheep as i64;
    let m = transformer_multiplier(rules, h, exposure.level[2]);
    if t.grand_slam(rules.decks) {
        match rules.grand_slam_mode {
            GrandSlamMode::Fixed800Doubling => return 800 * decks * (1 << exposure.total()),
            GrandSlamMode::Formula => {
                return (200 * decks * hf + 100 * pf * pigs + 100 * sf * sheep) * m;
            }
            GrandSlamMode::None => {}
        }
    }
    let heart_sum = t.heart_points * hf;
    let heart_part = match (all_hearts, rules.all_red_mode) {
        (true, AllRedMode::Flip) => -heart_sum,
        (true, AllRedMode::Bonus) => heart_sum + 200 * decks * hf,
        _ => heart_sum,
    };
    let pig_sign = if all_hearts && rules.pig_flips_with_all_hearts { 1 } else { -1 };
    let base = heart_part + pig_sign * 100 * pf * pigs + 100 * sf * sheep;
    if h == 0 {
        return base;
    }
    let others = t.hearts > 0 || pigs > 0 || sheep > 0;
    if others {
        return base * m;
    }
    // Transformer alone (§A.5(a)): +50 (+100 exposed) in one deck; two decks per option.
    match rules.two_deck_transformer_alone {
        TransformerAlone::TwentyFiveM => 25 * m,
        TransformerAlone::FiftyEach => 50 * h as i64 * exposure.factor(2),
    }
}

/// The transformer multiplier M for a player who took `h` ♣10s with `e` exposures of ♣10
/// (§A.5, §A.12): `2^h · 2^e`, or the seed's literal table `2^(h + min(e, h))`.
#[inline(always)]
pub fn transformer_multiplier(rules: &GongzhuRules, h: u32, e: u8) -> i64 {
    if h == 0 {
        return 1;
    }
    let e = e as u32;
    match rules.two_deck_transformer_table {
        TransformerTable::Power => 1 << (h + e),
        TransformerTable::SeedLiteral => 1 << (h + e.min(h)),
    }
}

/// Raw scores of all four seats.
#[inline]
pub fn raw_scores(rules: &GongzhuRules, taken: &[Multiset; 4], exposure: &Exposure) -> [i64; 4] {
    std::array::from_fn(|i| raw_score(rules, &taken[i], exposure))
}

/// Raw scores of all four seats from their summaries.
#[inline(always)]
pub fn raw_scores_of(rules: &GongzhuRules, takes: &[Takes; 4], exposure: &Exposure) -> [i64; 4] {
    let mut raw = [0; 4];
    for (r, t) in raw.iter_mut().zip(takes) {
        *r = raw_score_of(rules, t, exposure);
    }
    raw
}

/// Divide by 3 or 2 as the normalisation option says, then apply the multiplier.
#[inline(always)]
fn scale(rules: &GongzhuRules, num: i64, den: i64) -> i64 {
    let mult = rules.multiplier();
    match rules.normalize {
        Normalize::QqTruncThenX12 => mult * (num / den),
        Normalize::FloorThenX12 => mult * num.div_euclid(den),
        Normalize::RoundThenX12 => {
            let q = (2 * num.abs() + den) / (2 * den);
            mult * q * num.signum()
        }
        Normalize::Exact => 12 * num / den,
        Normalize::None => num,
    }
}

/// The credited per-deal results (§A.11, §A.13) from raw scores.
///
/// Individual play: `f_i = (4 r_i − S)/3` scaled per `normalize` (QQ: `12 · trunc(f_i)` in one
/// deck, `× multiplier_two_deck` in two). Partnership: team raws `T1 = r0 + r2`, `T2 = r1 + r3`;
/// each player gets `(T_own − T_other)/2` scaled the same way; with `normalize = none` each
/// player is credited the team's raw total.
#[inline(always)]
pub fn final_scores(rules: &GongzhuRules, raw: &[i64; 4]) -> [i64; 4] {
    if rules.partnership {
        let t = [raw[0] + raw[2], raw[1] + raw[3]];
        return std::array::from_fn(|i| {
            let (own, other) = (t[i % 2], t[1 - i % 2]);
            if rules.normalize == Normalize::None {
                own
            } else {
                scale(rules, own - other, 2)
            }
        });
    }
    let s: i64 = raw.iter().sum();
    let mut out = *raw;
    if rules.normalize != Normalize::None {
        for (o, &r) in out.iter_mut().zip(raw) {
            *o = scale(rules, 4 * r - s, 3);
        }
    }
    out
}

/// Raw and final scores of one finished (or partial) deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealScore {
    pub raw: [i64; 4],
    pub final_: [i64; 4],
}

/// Score a deal from the cards each seat took and the exposed cards (§A.4–A.13). `taken` may
/// hold each card at most `decks` times in total; errors name the card otherwise.
pub fn score_deal(
    rules: &GongzhuRules,
    taken: &[Multiset; 4],
    open: &Multiset,
    closed: &Multiset,
) -> Result<DealScore> {
    let mut all = Multiset::EMPTY;
    for t in taken {
        for c in t.iter() {
            if c.is_joker() || all.count(c) >= rules.decks as usize {
                return Err(ZhipaiError::invalid_value(
                    "taken cards",
                    c,
                    format!("more copies than {} deck(s) without jokers hold", rules.decks),
                ));
            }
            all.add(c);
        }
    }
    let exposure = Exposure::from_cards(rules, open, closed)?;
    let raw = raw_scores(rules, taken, &exposure);
    Ok(DealScore { raw, final_: final_scores(rules, &raw) })
}
