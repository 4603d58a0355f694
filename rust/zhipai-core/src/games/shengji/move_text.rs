//! Shengji move text (shengji.md §2.2, §2.4, §4–§5): `pass`, `declare 2H 2H`, `bury <cards>`,
//! `play <cards>` — read in any letter case, spacing and card order, written in canonical
//! notation ([`Move`]'s `Display`) — and the history records of a deal with what each seat sees
//! of them.

use super::declare::Bid;
use super::moves::Move;
use super::state::Deal;
use crate::cards::parse_cards;
use crate::error::{Result, ZhipaiError};
use crate::game::HistoryEntry;
use crate::multiset::Multiset;
use crate::policy::Policy;

/// The move of `text` in `deal` (a declaration is read at the deal's level rank). Errors:
/// `InvalidValue` (the text quoted, cut when long) for text that is not a move, `InvalidCard`
/// for a bad card, `IllegalPlay` for a declaration that no bid can be (not identical cards, a
/// single joker, not a level card, or on the joker-only level).
pub fn parse_move(deal: &Deal, text: &str) -> Result<Move> {
    let t = text.trim();
    let (kind, cards) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    Ok(match kind.to_ascii_lowercase().as_str() {
        "pass" if cards.trim().is_empty() => Move::Pass,
        "declare" => {
            let level = deal.declaring().level().ok_or_else(|| {
                ZhipaiError::illegal_play(text, "nobody declares on the joker-only level")
            })?;
            Move::Declare(Bid::from_cards(&parse_cards(cards)?, level, deal.rules().decks)?)
        }
        "bury" => Move::Bury(cards.parse()?),
        "play" => Move::Play(cards.parse()?),
        _ => {
            return Err(ZhipaiError::invalid_value(
                "move",
                quoted(text),
                "expected 'pass', 'declare <cards>', 'bury <cards>' or 'play <cards>'",
            ))
        }
    })
}

/// Values longer than this are cut in error messages (first 80 characters + `…`).
const SHOWN_CHARS: usize = 80;

/// `text` quoted as Python would (`'play 2S'`, `''`), control characters escaped, cut to 80
/// characters + `…` and its length when longer: how a move error names the text.
pub fn quoted(text: &str) -> String {
    let n = text.chars().count();
    let head: String = text.chars().take(SHOWN_CHARS).collect::<String>().escape_debug().collect();
    if n > SHOWN_CHARS {
        format!("'{head}…' ({n} characters)")
    } else {
        format!("'{head}'")
    }
}

/// One move of a deal as recorded when applied (cheap to push; the text is made on demand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub seat: u8,
    /// The move as applied.
    pub mv: Move,
    /// For a play: the cards actually played (a failed throw's forced part, §4.5).
    pub played: Multiset,
    /// The built-in policy that chose the move, if one did.
    pub builtin: Option<Policy>,
}

impl Record {
    /// The history entry: a pass (while dealing or in a 炒底 offer) is secret, since a seat is
    /// asked only when it holds a legal declaration; a burial shows only `"bury"` to the
    /// others; a failed throw reads `"play 8C (failed throw KC KC JC JC 8C)"` to everyone (the
    /// table sees the attempt, §4.5).
    pub fn entry(&self) -> HistoryEntry {
        let applied = self.mv.to_string();
        let (mover_view, public_view) = match self.mv {
            Move::Pass => (applied.clone(), None),
            Move::Bury(_) => (applied.clone(), Some("bury".to_string())),
            Move::Play(m) if m != self.played => {
                let text = format!("play {} (failed throw {m})", self.played);
                (text.clone(), Some(text))
            }
            _ => (applied.clone(), Some(applied.clone())),
        };
        HistoryEntry {
            seat: self.seat as usize,
            applied,
            mover_view,
            public_view,
            builtin: self.builtin,
            deal: 0,
        }
    }
}
