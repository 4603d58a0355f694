//! The result row of a Shengji deal (shengji.md §7–§8): its columns and how a finished deal
//! fills them, shared by `simulate` ([`super::simulator`]) and the game contract
//! ([`super::game`]).

use super::scoring::Side;
use super::state::DealResult;
use super::ShengjiRules;
use crate::cards::Rank;
use crate::error::{Result, ZhipaiError};
use crate::game::Column;

/// Result columns of a Shengji deal (`simulate` plays hand 1 at level 2).
const COLUMNS: [Column; 15] = [
    Column { name: "dealer", doc: "dealer seat 0..3" },
    Column { name: "trump", doc: "trump suit 0..3 (S H D C), 4 = no-trump" },
    Column { name: "level", doc: "level rank index 0..12 (0 = 2)" },
    Column { name: "declarations", doc: "accepted declarations during the deal" },
    Column { name: "attacker_points", doc: "attackers' final total P (tricks + kitty + penalty)" },
    Column { name: "trick_points", doc: "attacker points won in tricks" },
    Column { name: "kitty_points", doc: "points buried in the kitty" },
    Column {
        name: "kitty_multiplier",
        doc: "kitty multiplier, 0 when the dealer team won the last trick",
    },
    Column { name: "side", doc: "0 = dealer team gains, 1 = attackers take over" },
    Column { name: "levels", doc: "levels gained by that side" },
    Column { name: "take_over", doc: "1 when the attackers deal next" },
    Column { name: "tricks", doc: "tricks played" },
    Column { name: "failed_throws", doc: "throws reduced to their forced component" },
    Column {
        name: "penalty",
        doc: "failed-throw penalties in the attackers' total (throw_fail_penalty; − when attackers threw)",
    },
    Column { name: "chaodi", doc: "炒底 overcalls after the burial (option chaodi)" },
];

/// The JJ column, present when `jj_scoring` is on.
const JJ_COLUMN: Column =
    Column { name: "jj_score", doc: "JJ 防方计分 in units of 基数 (S001, shengji.md §8.4)" };

impl ShengjiRules {
    /// The 15 columns of [`COLUMNS`], plus `jj_score` when `jj_scoring` is on.
    pub fn result_columns(&self) -> Vec<Column> {
        let mut cols = COLUMNS.to_vec();
        if self.scoring.jj_scoring {
            cols.push(JJ_COLUMN);
        }
        cols
    }

    /// [`ShengjiRules::write_row`] for a deal at level `level` (the `level` column).
    /// `None` (the joker-only level) is written as 13.
    pub(super) fn write_row_at(&self, r: &DealResult, level: Option<Rank>, row: &mut [i32]) {
        self.write_row(r, row);
        row[2] = level.map_or(13, |l| l.index() as i32);
    }

    /// `InvalidValue` unless `row` has one value per column.
    pub(super) fn check_row(&self, row: &[i32]) -> Result<()> {
        let n = COLUMNS.len() + self.scoring.jj_scoring as usize;
        if row.len() != n {
            return Err(ZhipaiError::invalid_value(
                "row length",
                row.len(),
                format!("expected {n}"),
            ));
        }
        Ok(())
    }

    /// One result row of [`COLUMNS`] (plus `jj_score`).
    pub fn write_row(&self, r: &DealResult, row: &mut [i32]) {
        let values = [
            r.dealer as i32,
            r.trump.map_or(4, |s| s.index() as i32),
            0,
            r.declarations as i32,
            r.attacker_points,
            r.trick_points,
            r.kitty_points,
            r.kitty_multiplier as i32,
            (r.change.side == Side::Attackers) as i32,
            r.change.levels as i32,
            r.change.take_over as i32,
            r.tricks as i32,
            r.failed_throws as i32,
            r.penalty,
            r.chaodi as i32,
        ];
        row[..COLUMNS.len()].copy_from_slice(&values);
        if let Some(jj) = self.scoring.jj_score(r.attacker_points) {
            row[COLUMNS.len()] = jj;
        }
    }
}
