//! Level changes (升级) for the attackers' final score, JJ 积分, mandatory levels (必打) and the
//! end of the match (shengji.md §8, §9.7, §10).
//!
//! Every level table is data: a list of bands `from → (side, levels)`, optionally continued past
//! its last band by "+1 level per `step` more points". P is the attackers' final total (tricks +
//! kitty bonus ± penalties); a negative P counts as 0. `take_over` (上台) is true exactly when the
//! attackers' side wins the band: they deal the next hand.

use crate::cards::Rank;
use crate::error::{Result, ZhipaiError};
use std::fmt;

/// The team that gains levels (or keeps the deal) after a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The dealer team (庄家方) held.
    Dealer,
    /// The attackers (闲家 / 抓分方) took over the deal.
    Attackers,
}

impl Side {
    /// `"dealer"` or `"attackers"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Dealer => "dealer",
            Side::Attackers => "attackers",
        }
    }
}

/// The result of a hand for the level ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelChange {
    pub side: Side,
    /// Levels the side gains (0 = take over without rising, 上台不升级).
    pub levels: u8,
    /// The attackers deal the next hand (上台).
    pub take_over: bool,
}

/// One band of a level table: from `from` attacker points on (until the next band).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Band {
    from: i32,
    side: Side,
    levels: u8,
}

const fn d(from: i32, levels: u8) -> Band {
    Band { from, side: Side::Dealer, levels }
}
const fn a(from: i32, levels: u8) -> Band {
    Band { from, side: Side::Attackers, levels }
}

/// A level table: bands in increasing `from`, plus "+1 level per `step` points" past the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelTable {
    /// The option value that selects it.
    pub name: &'static str,
    bands: &'static [Band],
    step: Option<i32>,
}

/// §8.1 two decks, default (S001 JJ table, CT, RB step 20 × 2 decks, PG, SJ+):
/// 0 → dealer +3 (大光) | 5–35 → +2 (小光) | 40–75 → +1 | 80–115 → take over +0 (上台不升级) |
/// 120–155 → attackers +1 | 160–195 → +2 | 200–235 → +3 | each further 40 → +1 more.
pub const STANDARD_STEP40: LevelTable = LevelTable {
    name: "standard_step40",
    bands: &[d(0, 3), d(1, 2), d(40, 1), a(80, 0), a(120, 1), a(160, 2), a(200, 3)],
    step: Some(40),
};

/// §8.1 option `two_deck_table = lianzhong` (S004 "大于等于 80 小于 120 … 两副牌时抓分方升 1 级"):
/// 0 → +3 | <40 → +2 | 40–79 → +1 | 80–119 → attackers +1 | 120–159 → +2 | +1 per 40 more.
/// No take-over-without-level band.
pub const LIANZHONG_TWO_DECKS: LevelTable = LevelTable {
    name: "lianzhong",
    bands: &[d(0, 3), d(1, 2), d(40, 1), a(80, 1), a(120, 2)],
    step: Some(40),
};

/// §8.2 three decks, step 60 (S004 "0 分记大光不足 60 分算小光， 120 分上台 180 分上台 +1 级，
/// 240 分上台 +2 级"; RB with step 60; the 60–115 → +1 band is inferred, Q6):
/// 0 → +3 | 5–55 → +2 | 60–115 → +1 | 120–175 → take over +0 | 180–235 → +1 | 240–295 → +2 |
/// each further 60 → +1 more.
pub const STEP60: LevelTable = LevelTable {
    name: "step60",
    bands: &[d(0, 3), d(1, 2), d(60, 1), a(120, 0), a(180, 1), a(240, 2)],
    step: Some(60),
};

/// §8.3 one deck, default `lianzhong` (S004 "如果得分为 0 ，一副牌时庄家方连升 2 级 … 不满 40
/// 一副牌时庄家方升 1 级 … 大于等于 40 小於 80 ，一副牌时双方不升级轮换庄家 … 抓分方 80--95 分升一级
/// 100 分升两级"): 0 → dealer +2 | 5–35 → +1 | 40–75 → the deal passes, +0 | 80–95 → attackers +1 |
/// ≥ 100 → +2 (no further steps).
pub const LIANZHONG_ONE_DECK: LevelTable = LevelTable {
    name: "lianzhong",
    bands: &[d(0, 2), d(1, 1), a(40, 0), a(80, 1), a(100, 2)],
    step: None,
};

/// §8.3 option `one_deck_table = scaled_step20` (RB, step 20): 0 → +3 | 5–15 → +2 | 20–35 → +1 |
/// 40–55 → take over | 60–75 → +1 | 80–95 → +2 | 100+ → +3 | each further 20 → +1 more.
pub const SCALED_STEP20: LevelTable = LevelTable {
    name: "scaled_step20",
    bands: &[d(0, 3), d(1, 2), d(20, 1), a(40, 0), a(60, 1), a(80, 2), a(100, 3)],
    step: Some(20),
};

impl LevelTable {
    /// The level change for `points` attacker points (negative counts as 0), before any cap.
    pub fn lookup(&self, points: i32) -> LevelChange {
        let p = points.max(0);
        let i = self.bands.iter().rposition(|b| b.from <= p).expect("every table starts at 0");
        let band = self.bands[i];
        let mut levels = band.levels as i32;
        if let (true, Some(step)) = (i + 1 == self.bands.len(), self.step) {
            levels += (p - band.from) / step;
        }
        LevelChange {
            side: band.side,
            levels: levels.min(u8::MAX as i32) as u8,
            take_over: band.side == Side::Attackers,
        }
    }

    /// The first points of every band (the edges tests and docs enumerate).
    pub fn band_starts(&self) -> impl Iterator<Item = i32> + '_ {
        self.bands.iter().map(|b| b.from)
    }
}

/// A team's level: `2`…`A`, plus the joker-only level after A (`after_A = no_trump_level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// The level after A under `after_A = no_trump_level` (RB `MaxRank = NoTrump`).
    pub const NO_TRUMP: Level = Level(13);
    pub const TWO: Level = Level(0);
    pub const ACE: Level = Level(12);

    /// The level of `rank`.
    pub const fn of(rank: Rank) -> Level {
        Level(rank.index() as u8)
    }

    /// The level rank (级牌), `None` for the joker-only level.
    pub fn rank(self) -> Option<Rank> {
        Rank::from_index(self.0)
    }

    /// Parse `2`…`10`, `T`, `J`, `Q`, `K`, `A` or `NT`. Errors name the text.
    pub fn parse(text: &str) -> Result<Level> {
        if text.trim().eq_ignore_ascii_case("NT") {
            return Ok(Level::NO_TRUMP);
        }
        Rank::parse(text.trim()).map(Level::of).ok_or_else(|| {
            ZhipaiError::invalid_value("level", text, "expected 2-10, J, Q, K, A or NT")
        })
    }

    fn next(self) -> Level {
        Level(self.0 + 1)
    }
}

impl From<Rank> for Level {
    fn from(rank: Rank) -> Level {
        Level::of(rank)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rank() {
            Some(r) => write!(f, "{r}"),
            None => f.write_str("NT"),
        }
    }
}

pub use super::options::{AfterA, JjSmallScore, OneDeckTable, ScoringOptions, TwoDeckTable};

impl ScoringOptions {
    /// The level table in force for this number of decks.
    pub fn table(&self) -> &'static LevelTable {
        match (self.decks, self.one_deck_table, self.two_deck_table) {
            (1, OneDeckTable::Lianzhong, _) => &LIANZHONG_ONE_DECK,
            (1, OneDeckTable::ScaledStep20, _) => &SCALED_STEP20,
            (3, _, _) => &STEP60,
            (_, _, TwoDeckTable::Lianzhong) => &LIANZHONG_TWO_DECKS,
            _ => &STANDARD_STEP40,
        }
    }

    /// The level change for `points` attacker points (§8.1–§8.3), `level_cap` applied.
    pub fn level_change(&self, points: i32) -> LevelChange {
        let mut c = self.table().lookup(points);
        if let Some(cap) = self.level_cap {
            c.levels = c.levels.min(cap);
        }
        c
    }

    /// JJ 防方计分 for `points` (§8.4), in units of 基数; `None` when `jj_scoring` is off.
    pub fn jj_score(&self, points: i32) -> Option<i32> {
        self.jj_scoring.then(|| jj_score(points, self.jj_small_score))
    }

    /// `level` as a team level of these rules: `NT` exists only under `after_A = no_trump_level`.
    /// Errors with [`ZhipaiError::InvalidValue`] naming the text.
    pub fn parse_level(&self, what: &str, text: &str) -> Result<Level> {
        let level = Level::parse(text).map_err(|_| {
            ZhipaiError::invalid_value(what, text, "expected a rank 2-10, J, Q, K, A")
        })?;
        if level == Level::NO_TRUMP && self.after_A != AfterA::NoTrumpLevel {
            return Err(ZhipaiError::invalid_value(
                what,
                text,
                "the NT level exists only with after_A=no_trump_level",
            ));
        }
        Ok(level)
    }

    /// Whether `level` is a mandatory level (A always; the no-trump level too).
    pub fn is_gate(&self, level: Level) -> bool {
        level.0 > 12 || self.mandatory_levels & (1 << level.0) != 0
    }

    /// Apply a hand's result to both teams' levels (§8.5): `level` is the hand's level (the
    /// dealer team's), `attacker_level` the attackers' own; `last_trick_single_jack` = the
    /// attackers won the last trick with a single J (only read under `jack_back_to_two`).
    pub fn level_advance(
        &self,
        level: Level,
        attacker_level: Level,
        points: i32,
        last_trick_single_jack: bool,
    ) -> Advance {
        let change = self.level_change(points);
        let mut out = Advance { change, dealer_level: level, attacker_level, match_won: false };
        match change.side {
            Side::Dealer => {
                let (to, won) = self.dealer_climb(level, change.levels);
                out.dealer_level = to;
                out.match_won = won;
            }
            Side::Attackers => {
                // Rule 3: attackers taking over while standing on a gate stay on it.
                if !self.is_gate(attacker_level) {
                    out.attacker_level = self.climb(attacker_level, change.levels);
                }
            }
        }
        let jack = Level::of(Rank::JACK);
        if self.jack_back_to_two && level == jack && last_trick_single_jack {
            out.dealer_level = Level::TWO;
            out.match_won = false;
        }
        out
    }

    /// One player's level after a hand, for matches where partners change between hands
    /// (`random_partners_each_hand`; with fixed partners both partners always share the team
    /// level and this equals [`ScoringOptions::level_advance`]). `hand_level` is the hand's level
    /// (the dealer's own), `own` the player's. Returns the new level and whether the match is won.
    ///
    /// * a dealer-team player whose level is the hand's level: exactly the dealer team of
    ///   [`ScoringOptions::level_advance`] (leaves a gate by holding at it, `after_A`, 勾J);
    /// * a dealer-team player at another level (the dealer's partner of this hand): rises by the
    ///   band's levels from their own level like a team that did not play its level — staying on
    ///   a gate they stand on (§8.5 rules 1 and 3), never winning the match;
    /// * an attacker: the attackers of [`ScoringOptions::level_advance`] from their own level.
    pub fn player_advance(
        &self,
        hand_level: Level,
        own: Level,
        on_dealer_team: bool,
        points: i32,
        last_trick_single_jack: bool,
    ) -> (Level, bool) {
        if !on_dealer_team {
            return (self.level_advance(hand_level, own, points, false).attacker_level, false);
        }
        if own == hand_level {
            let a = self.level_advance(hand_level, own, points, last_trick_single_jack);
            return (a.dealer_level, a.match_won);
        }
        let change = self.level_change(points);
        match change.side {
            Side::Dealer if !self.is_gate(own) => (self.climb(own, change.levels), false),
            _ => (own, false),
        }
    }

    /// Rise from `from` by `steps`, stopping on the first gate landed on (§8.5 rule 1).
    fn climb(&self, from: Level, steps: u8) -> Level {
        let mut at = from;
        for _ in 0..steps {
            at = if at == Level::ACE { Level::TWO } else { at.next() };
            if self.is_gate(at) {
                break;
            }
        }
        at
    }

    /// The dealer team held at `from` and gains `steps` (§8.5 rule 2 and `after_A`).
    fn dealer_climb(&self, from: Level, steps: u8) -> (Level, bool) {
        match (from, self.after_A) {
            (Level::NO_TRUMP, _) | (Level::ACE, AfterA::MatchEnds) => (from, true),
            (Level::ACE, AfterA::NoTrumpLevel) => (Level::NO_TRUMP, false),
            // Winning as dealer leaves the gate the team stands on; the climb wraps past A.
            _ => (self.climb(from, steps), false),
        }
    }
}

/// The outcome of a hand for both teams' levels ([`ScoringOptions::level_advance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    pub change: LevelChange,
    /// The dealer team's level after the hand.
    pub dealer_level: Level,
    /// The attackers' level after the hand.
    pub attacker_level: Level,
    /// The dealer team held at the last level (A, or NT under `no_trump_level`).
    pub match_won: bool,
}

impl Advance {
    /// The new level of the side that gained (`change.side`).
    pub fn new_level(&self) -> Level {
        match self.change.side {
            Side::Dealer => self.dealer_level,
            Side::Attackers => self.attacker_level,
        }
    }
}

/// JJ 防方计分 (S001, §8.4) for `points`, in units of 基数.
///
/// | P | 计分 |
/// |---|---|
/// | 0 | −60 |
/// | 5–35 | −40 − 小分 |
/// | 40–75 | −20 − 小分 |
/// | ≥ 80 | 20·(⌊(P−80)/40⌋ + 1) + (P mod 40)/5 (seed: 120 → 40, 115 → 27) |
///
/// 小分 in the dealer-win bands: `monotone` (band top − P)/5, `literal` (P mod 40)/5.
pub fn jj_score(points: i32, small: JjSmallScore) -> i32 {
    /// (band start, band top for the monotone 小分, 计分 before 小分) of the dealer-win bands.
    const DEALER_BANDS: [(i32, i32, i32); 2] = [(1, 35, -40), (40, 75, -20)];
    let p = points.max(0);
    if p == 0 {
        return -60;
    }
    if p >= 80 {
        return 20 * ((p - 80) / 40 + 1) + (p % 40) / 5;
    }
    let &(_, top, base) =
        DEALER_BANDS.iter().rev().find(|(from, _, _)| *from <= p).expect("p ≥ 1 has a band");
    let small = match small {
        JjSmallScore::Monotone => (top - p) / 5,
        JjSmallScore::Literal => (p % 40) / 5,
    };
    base - small
}

#[cfg(test)]
mod tests {
    use super::super::options::{RankSet, ACE_GATE};
    use super::*;
    use crate::options::{Domain, OptionValue};
    use proptest::prelude::*;

    fn change(side: Side, levels: u8) -> LevelChange {
        LevelChange { side, levels, take_over: side == Side::Attackers }
    }
    use Side::{Attackers as A, Dealer as D};

    /// (points, side, levels) rows written from the digest tables, every band edge.
    fn check(table: &LevelTable, rows: &[(i32, Side, u8)]) {
        for &(p, side, levels) in rows {
            assert_eq!(table.lookup(p), change(side, levels), "{} at {p}", table.name);
        }
    }

    #[test]
    fn standard_step40_every_edge() {
        check(
            &STANDARD_STEP40,
            &[
                (0, D, 3),
                (5, D, 2),
                (35, D, 2),
                (40, D, 1),
                (75, D, 1),
                (80, A, 0),
                (115, A, 0),
                (120, A, 1),
                (155, A, 1),
                (160, A, 2),
                (195, A, 2),
                (200, A, 3),
                (235, A, 3),
                (240, A, 4),
                (275, A, 4),
                (280, A, 5),
                (-30, D, 3),
            ],
        );
    }

    #[test]
    fn lianzhong_two_decks_every_edge() {
        check(
            &LIANZHONG_TWO_DECKS,
            &[
                (0, D, 3),
                (5, D, 2),
                (35, D, 2),
                (40, D, 1),
                (75, D, 1),
                (80, A, 1),
                (115, A, 1),
                (120, A, 2),
                (155, A, 2),
                (160, A, 3),
                (200, A, 4),
            ],
        );
    }

    #[test]
    fn step60_every_edge() {
        check(
            &STEP60,
            &[
                (0, D, 3),
                (5, D, 2),
                (55, D, 2),
                (60, D, 1),
                (115, D, 1),
                (120, A, 0),
                (175, A, 0),
                (180, A, 1),
                (235, A, 1),
                (240, A, 2),
                (295, A, 2),
                (300, A, 3),
                (360, A, 4),
            ],
        );
    }

    #[test]
    fn one_deck_tables_every_edge() {
        check(
            &LIANZHONG_ONE_DECK,
            &[
                (0, D, 2),
                (5, D, 1),
                (35, D, 1),
                (40, A, 0),
                (75, A, 0),
                (80, A, 1),
                (95, A, 1),
                (100, A, 2),
                (180, A, 2),
            ],
        );
        check(
            &SCALED_STEP20,
            &[
                (0, D, 3),
                (5, D, 2),
                (15, D, 2),
                (20, D, 1),
                (35, D, 1),
                (40, A, 0),
                (55, A, 0),
                (60, A, 1),
                (75, A, 1),
                (80, A, 2),
                (95, A, 2),
                (100, A, 3),
                (120, A, 4),
            ],
        );
    }

    fn rules(preset: &str, decks: u8) -> ScoringOptions {
        ScoringOptions::defaults(preset, decks)
    }

    #[test]
    fn digest_section_9_7() {
        let std = rules("tractor", 2);
        // L1: 75 → dealer +1; 75 + 2·20 = 115 → take over +0. L2: 35 + 4·20 = 115.
        assert_eq!(std.level_change(75), change(D, 1));
        assert_eq!(std.level_change(115), change(A, 0));
        // L3: 165 → +2 (default), +3 under lianzhong.
        assert_eq!(std.level_change(165), change(A, 2));
        assert_eq!(rules("eighty_points", 2).level_change(165), change(A, 3));
        // L4: JJ.
        for (p, s) in [(0, -60), (85, 21), (120, 40), (115, 27), (200, 80)] {
            assert_eq!(jj_score(p, JjSmallScore::Monotone), s, "P={p}");
        }
        assert_eq!(std.level_change(200), change(A, 3));
        // L5: 3 decks.
        let three = rules("eighty_points", 3);
        for (p, c) in
            [(55, change(D, 2)), (60, change(D, 1)), (120, change(A, 0)), (185, change(A, 1))]
        {
            assert_eq!(three.level_change(p), c, "P={p}");
        }
        assert_eq!(three.level_change(245), change(A, 2));
        // L6: 1 deck.
        let one = rules("tractor", 1);
        for (p, c) in
            [(30, change(D, 1)), (40, change(A, 0)), (85, change(A, 1)), (100, change(A, 2))]
        {
            assert_eq!(one.level_change(p), c, "P={p}");
        }
    }

    fn lv(s: &str) -> Level {
        Level::parse(s).unwrap()
    }

    fn gates(text: &str) -> ScoringOptions {
        let mut o = rules("tractor", 2);
        o.set("mandatory_levels", &OptionValue::Str(text.into())).unwrap();
        o
    }

    #[test]
    fn l7_mandatory_levels() {
        let o = gates("{5,10,K,A}");
        // A dealer team at 3 holds with P=0: +3 stops at 5.
        let r = o.level_advance(lv("3"), lv("2"), 0, false);
        assert_eq!((r.change.side, r.new_level(), r.match_won), (D, lv("5"), false));
        // Attackers at 4 score 125 (+1): land on 5.
        let r = o.level_advance(lv("7"), lv("4"), 125, false);
        assert_eq!((r.change.side, r.new_level(), r.change.take_over), (A, lv("5"), true));
        // Attackers at 5 score 130: blocked at 5, become dealer.
        let r = o.level_advance(lv("7"), lv("5"), 130, false);
        assert_eq!((r.new_level(), r.change.take_over), (lv("5"), true));
        // Dealer at 5 holds with 30 (+2) → 7.
        assert_eq!(o.level_advance(lv("5"), lv("9"), 30, false).new_level(), lv("7"));
        // At K, +3 stops at A; holding at A wins the match.
        assert_eq!(o.level_advance(lv("K"), lv("3"), 0, false).new_level(), lv("A"));
        let r = o.level_advance(lv("A"), lv("8"), 40, false);
        assert!(r.match_won);
        // Attackers who take over never win the match.
        assert!(!o.level_advance(lv("A"), lv("8"), 200, false).match_won);
    }

    #[test]
    fn default_gate_is_only_a() {
        let o = rules("tractor", 2);
        assert_eq!(o.level_advance(lv("Q"), lv("6"), 0, false).new_level(), lv("A"));
        assert_eq!(o.level_advance(lv("10"), lv("4"), 0, false).new_level(), lv("K"));
        let r = o.level_advance(lv("9"), lv("K"), 200, false);
        assert_eq!((r.new_level(), r.match_won), (lv("A"), false));
        // Attackers standing on A take over and stay on A.
        assert_eq!(o.level_advance(lv("9"), lv("A"), 200, false).new_level(), lv("A"));
    }

    #[test]
    fn after_a_variants() {
        let mut o = rules("tractor", 2);
        o.set("after_A", &OptionValue::Str("no_trump_level".into())).unwrap();
        let r = o.level_advance(lv("A"), lv("5"), 0, false);
        assert_eq!((r.new_level(), r.match_won), (Level::NO_TRUMP, false));
        assert!(o.level_advance(Level::NO_TRUMP, lv("5"), 70, false).match_won);
        o.set("after_A", &OptionValue::Str("cycle_to_2".into())).unwrap();
        let r = o.level_advance(lv("A"), lv("5"), 0, false);
        assert_eq!((r.new_level(), r.match_won), (lv("4"), false));
    }

    #[test]
    fn player_advance_with_changing_partners() {
        let o = rules("tractor", 2);
        // Same level as the hand: the dealer team of level_advance (A held → match won).
        assert_eq!(o.player_advance(lv("A"), lv("A"), true, 0, false), (lv("A"), true));
        assert_eq!(o.player_advance(lv("5"), lv("5"), true, 50, false), (lv("6"), false));
        // A partner at another level rises from their own, never past A, never wins.
        assert_eq!(o.player_advance(lv("5"), lv("9"), true, 0, false), (lv("Q"), false));
        assert_eq!(o.player_advance(lv("5"), lv("K"), true, 0, false), (lv("A"), false));
        // …and stays on a gate it stands on (A) even when the team holds.
        assert_eq!(o.player_advance(lv("5"), lv("A"), true, 0, false), (lv("A"), false));
        // Dealer team loses the deal: the partner does not move.
        assert_eq!(o.player_advance(lv("5"), lv("9"), true, 130, false), (lv("9"), false));
        // Attackers rise from their own levels.
        assert_eq!(o.player_advance(lv("5"), lv("3"), false, 165, false), (lv("5"), false));
        assert_eq!(o.player_advance(lv("5"), lv("3"), false, 60, false), (lv("3"), false));
        // With a gate at 10, the partner stops there.
        let mut g = o;
        g.set("mandatory_levels", &OptionValue::Str("{5,10,K,A}".into())).unwrap();
        assert_eq!(g.player_advance(lv("4"), lv("8"), true, 0, false), (lv("10"), false));
    }

    #[test]
    fn jack_back_to_two() {
        let mut o = rules("tractor", 2);
        let r = o.level_advance(lv("J"), lv("6"), 120, true);
        assert_eq!(r.dealer_level, lv("J"));
        o.set("jack_back_to_two", &OptionValue::Str("single_J".into())).unwrap();
        let r = o.level_advance(lv("J"), lv("6"), 120, true);
        assert_eq!((r.dealer_level, r.attacker_level), (lv("2"), lv("7")));
        assert_eq!(o.level_advance(lv("J"), lv("6"), 120, false).dealer_level, lv("J"));
    }

    #[test]
    fn jj_small_score_readings() {
        for (p, mono, lit) in [(5, -46, -41), (35, -40, -47), (40, -27, -20), (75, -20, -27)] {
            assert_eq!(jj_score(p, JjSmallScore::Monotone), mono, "P={p}");
            assert_eq!(jj_score(p, JjSmallScore::Literal), lit, "P={p}");
        }
        for (p, s) in [(80, 20), (155, 47), (160, 60), (195, 67), (240, 100), (275, 107)] {
            assert_eq!(jj_score(p, JjSmallScore::Literal), s, "P={p}");
        }
    }

    #[test]
    fn option_errors_name_the_value() {
        let mut o = rules("tractor", 2);
        let err = o.set("mandatory_levels", &OptionValue::Str("{5,X}".into())).unwrap_err();
        assert!(err.to_string().contains("\"X\""), "{err}");
        assert!(o.set("level_cap", &OptionValue::Int(0)).is_err());
        assert!(o.set("base", &OptionValue::Int(0)).is_err());
        let mut three = rules("tractor", 3);
        assert!(three.set("jj_scoring", &OptionValue::Bool(true)).unwrap());
        let err = three.check().unwrap_err().to_string();
        assert!(err.starts_with("invalid option jj_scoring=true: "), "{err}");
        assert!(rules("tractor", 2).check().is_ok());
        assert!(o.set("three_deck_table", &OptionValue::Str("step40".into())).is_err());
        o.set("mandatory_levels", &OptionValue::Str("5 10 K".into())).unwrap();
        assert_eq!(RankSet.text(&o.mandatory_levels), "{5,10,K,A}");
        assert!(o.set("level_cap", &OptionValue::Str("none".into())).unwrap());
        assert_eq!(o.level_cap, None);
    }

    proptest! {
        #[test]
        fn attacker_gain_is_monotone(decks in 1u8..=3, lz in any::<bool>(), p in 0i32..700) {
            let mut o = rules(if lz { "eighty_points" } else { "tractor" }, decks);
            if decks == 1 && !lz {
                o.one_deck_table = OneDeckTable::ScaledStep20;
            }
            // Signed gain for the attackers: dealer +n = −n, take over +m = m + 1 (or m).
            let gain = |c: LevelChange| match c.side {
                Side::Dealer => -(c.levels as i32),
                Side::Attackers => 1 + c.levels as i32,
            };
            let (a, b) = (o.level_change(p), o.level_change(p + 5));
            prop_assert!(gain(b) >= gain(a), "P={} {:?} then {:?}", p, a, b);
            prop_assert_eq!(a.take_over, a.side == Side::Attackers);
        }

        #[test]
        fn jj_score_monotone_by_default(k in 0i32..120, r in 0i32..5) {
            // Strictly rising over real scores (multiples of 5), never falling in between.
            let s = |p| jj_score(p, JjSmallScore::Monotone);
            prop_assert!(s(5 * k + 5) > s(5 * k));
            prop_assert!(s(5 * k + r) >= s(5 * k));
        }

        #[test]
        fn rises_never_pass_a_gate(from in 0u8..12, steps in 0u8..8, mask in 0u16..(1 << 12)) {
            let mut o = rules("tractor", 2);
            o.mandatory_levels = mask | ACE_GATE;
            let to = o.climb(Level(from), steps);
            prop_assert!(to.0 >= from && to.0 - from <= steps);
            for g in (from + 1)..to.0 {
                prop_assert!(!o.is_gate(Level(g)), "passed gate {}", g);
            }
        }
    }
}
