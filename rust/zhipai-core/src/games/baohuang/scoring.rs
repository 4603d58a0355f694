//! Scores of a deal (baohuang.md §C.9, §C.10).

use super::options::BaohuangRules;
use crate::error::{Result, ZhipaiError};

/// How the emperor plays this deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Emperor with a hidden guard (暗保).
    Normal,
    /// The guard revealed himself before the first lead (明保): all scores doubled.
    OpenGuard,
    /// 抢独: the emperor grabbed the scepter and plays alone.
    Grab,
    /// 明独: 4-copy 登基, announced.
    OpenSolo,
    /// 暗独: 4-copy 登基, kept secret.
    SecretSolo,
}

impl Mode {
    /// Every mode with its name in the rule cases (`normal`, `open_guard`, `grab`, `open_solo`,
    /// `secret_solo`).
    pub const ALL: [(Mode, &'static str); 5] = [
        (Mode::Normal, "normal"),
        (Mode::OpenGuard, "open_guard"),
        (Mode::Grab, "grab"),
        (Mode::OpenSolo, "open_solo"),
        (Mode::SecretSolo, "secret_solo"),
    ];

    /// Parse a mode name. Errors with `InvalidValue` naming it.
    pub fn parse(name: &str) -> Result<Mode> {
        Mode::ALL.iter().find(|(_, n)| *n == name).map(|(m, _)| *m).ok_or_else(|| {
            ZhipaiError::invalid_value(
                "mode",
                name,
                "expected normal, open_guard, grab, open_solo or secret_solo",
            )
        })
    }

    pub fn name(self) -> &'static str {
        Mode::ALL.iter().find(|(m, _)| *m == self).map(|(_, n)| *n).unwrap_or("normal")
    }

    /// Whether there is no separate guard.
    pub const fn is_solo(self) -> bool {
        matches!(self, Mode::Grab | Mode::OpenSolo | Mode::SecretSolo)
    }

    /// Small integer code used in simulation columns: 0 normal … 4 secret_solo.
    pub fn code(self) -> i32 {
        Mode::ALL.iter().position(|(m, _)| *m == self).unwrap_or(0) as i32
    }
}

/// The amounts of one deal: the emperor's, the guard's (`None` in solo modes) and each rebel's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub emperor: i32,
    pub guard: Option<i32>,
    pub rebel: i32,
}

/// Position points of a finishing place 1..=5: 大客 +6, 二客 +3, 三客 0, 二拉 −3, 大拉 −6 (§C.9).
pub const fn place_points(place: u8) -> i32 {
    match place {
        1 => 6,
        2 => 3,
        3 => 0,
        4 => -3,
        _ => -6,
    }
}

fn check_place(what: &str, place: u8) -> Result<()> {
    if (1..=5).contains(&place) {
        Ok(())
    } else {
        Err(ZhipaiError::invalid_value(what, place, "expected a place 1 (大客) .. 5 (大拉)"))
    }
}

/// Score a deal from the emperor's and (normal modes) the guard's finishing places.
///
/// §C.9: G = points(emperor) + points(guard); emperor 2G/3, guard G/3, each rebel −G/3; 明保
/// (`OpenGuard`) doubles all. §C.10 solo: the emperor wins iff 大客; 抢独 ±40/∓10, 明独 ±32/∓8,
/// 暗独 ±24/∓6; with `solo_loss_literal_minus40` a losing solo emperor scores −40 in every type.
/// Errors with `InvalidValue` for a place outside 1..=5, a missing or extra guard place, or equal
/// emperor and guard places.
pub fn score(
    rules: &BaohuangRules,
    mode: Mode,
    emperor_place: u8,
    guard_place: Option<u8>,
) -> Result<Score> {
    check_place("emperor_place", emperor_place)?;
    if mode.is_solo() {
        if let Some(g) = guard_place {
            return Err(ZhipaiError::invalid_value(
                "guard_place",
                g,
                format!("mode {} has no guard", mode.name()),
            ));
        }
        let unit = match mode {
            Mode::Grab => 10,
            Mode::OpenSolo => 8,
            _ => 6,
        };
        let won = emperor_place == 1;
        let emperor = if won {
            4 * unit
        } else if rules.solo_loss_literal_minus40 {
            -40
        } else {
            -4 * unit
        };
        return Ok(Score { emperor, guard: None, rebel: if won { -unit } else { unit } });
    }
    let g = guard_place.ok_or_else(|| {
        ZhipaiError::invalid_value(
            "guard_place",
            "none",
            format!("mode {} needs a guard place", mode.name()),
        )
    })?;
    check_place("guard_place", g)?;
    if g == emperor_place {
        return Err(ZhipaiError::invalid_value(
            "guard_place",
            g,
            "emperor and guard cannot share a place",
        ));
    }
    let mult = if mode == Mode::OpenGuard { 2 } else { 1 };
    let group = place_points(emperor_place) + place_points(g);
    // G is a multiple of 3 (every place scores a multiple of 3), so the thirds are exact.
    Ok(Score {
        emperor: mult * 2 * group / 3,
        guard: Some(mult * group / 3),
        rebel: -mult * group / 3,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(mode: Mode, e: u8, g: Option<u8>) -> (i32, Option<i32>, i32) {
        let r = score(&BaohuangRules::default(), mode, e, g).unwrap();
        (r.emperor, r.guard, r.rebel)
    }

    #[test]
    fn digest_examples_b1_to_b10() {
        assert_eq!(s(Mode::Normal, 1, Some(2)), (6, Some(3), -3));
        assert_eq!(s(Mode::OpenGuard, 1, Some(2)), (12, Some(6), -6));
        assert_eq!(s(Mode::Normal, 1, Some(5)), (0, Some(0), 0));
        assert_eq!(s(Mode::Normal, 2, Some(3)), (2, Some(1), -1));
        assert_eq!(s(Mode::Normal, 4, Some(1)), (2, Some(1), -1));
        assert_eq!(s(Mode::Normal, 5, Some(4)), (-6, Some(-3), 3));
        assert_eq!(s(Mode::OpenGuard, 3, Some(5)), (-8, Some(-4), 4));
        assert_eq!(s(Mode::Grab, 1, None), (40, None, -10));
        assert_eq!(s(Mode::OpenSolo, 2, None), (-32, None, 8));
        assert_eq!(s(Mode::SecretSolo, 1, None), (24, None, -6));
        let literal = BaohuangRules { solo_loss_literal_minus40: true, ..Default::default() };
        assert_eq!(score(&literal, Mode::OpenSolo, 2, None).unwrap().emperor, -40);
    }

    #[test]
    fn every_normal_deal_sums_to_zero() {
        for mode in [Mode::Normal, Mode::OpenGuard] {
            for e in 1..=5 {
                for g in (1..=5).filter(|&g| g != e) {
                    let r = score(&BaohuangRules::default(), mode, e, Some(g)).unwrap();
                    assert_eq!(r.emperor + r.guard.unwrap() + 3 * r.rebel, 0);
                }
            }
        }
    }

    #[test]
    fn bad_places_are_named() {
        let r = BaohuangRules::default();
        assert!(score(&r, Mode::Normal, 6, Some(1)).unwrap_err().to_string().contains('6'));
        assert!(score(&r, Mode::Normal, 1, None).is_err());
        assert!(score(&r, Mode::Grab, 1, Some(2)).is_err());
        assert!(score(&r, Mode::Normal, 2, Some(2)).is_err());
        assert!(Mode::parse("duo").unwrap_err().to_string().contains("duo"));
    }
}
