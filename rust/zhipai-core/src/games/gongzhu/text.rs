//! The move text of a Gongzhu deal: `expose QS`, `expose closed QS` (`closed_open` mode),
//! `end exposure`, and a play as its cards (`QS`; two decks `10C 10C`), read in any letter
//! case, spacing and card order (gongzhu.md §A.6, §A.2, §A.12). Gongzhu has no `pass`: the end
//! of one's exposures is `end exposure`, and `pass` is refused with a message saying so.

use super::play::Play;
use super::scoring::exposable_index;
use super::state::Move;
use crate::cards::parse_cards;
use crate::error::{Result, ZhipaiError};

/// Values longer than this are cut in error messages (as the Python binding cuts them).
const SHOWN_CHARS: usize = 80;

/// `text` quoted as Python shows a string (`'pass'`), control characters escaped and cut to
/// 80 characters + `…` and its length when longer: error messages stay one readable line.
pub fn quoted(text: &str) -> String {
    let n = text.chars().count();
    let head: String = text.chars().take(SHOWN_CHARS).collect::<String>().escape_debug().collect();
    if n > SHOWN_CHARS {
        format!("'{head}…' ({n} characters)")
    } else {
        format!("'{head}'")
    }
}

/// The move of `text`. Errors: `InvalidValue` for empty text, for `pass`, and for a card list
/// that is not one or two cards; `InvalidCard` for a token that is not a card. A parsed move may
/// still be illegal (e.g. `expose 2S`, or cards not held): see [`super::state::State::check`].
pub fn parse_move(text: &str) -> Result<Move> {
    let words: Vec<String> = text.split_whitespace().map(str::to_ascii_lowercase).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => Err(ZhipaiError::invalid_value(
            "move",
            quoted(text),
            "empty; expected a move as listed by legal_moves()",
        )),
        ["pass"] => Err(ZhipaiError::invalid_value(
            "move",
            quoted(text),
            "Gongzhu has no pass; 'end exposure' ends your exposures",
        )),
        ["end", "exposure"] => Ok(Move::EndExposure),
        // The rest is one card; more words are named whole in the card error.
        ["expose", "closed", card @ ..] if !card.is_empty() => {
            Ok(Move::ExposeClosed(card.join(" ").parse()?))
        }
        ["expose", card @ ..] if !card.is_empty() => Ok(Move::Expose(card.join(" ").parse()?)),
        _ => Ok(Move::Play(Play::from_cards(&parse_cards(text)?)?)),
    }
}

/// The action code of `text` (the inverse of the action names, [`Move::from_action`] then
/// `to_string`): any move text [`parse_move`] reads, except an exposure of a card that cannot
/// be exposed (it has no action code).
pub fn action_of(text: &str) -> Result<usize> {
    let mv = parse_move(text)?;
    match mv {
        Move::Expose(c) | Move::ExposeClosed(c) if exposable_index(c).is_none() => {
            Err(ZhipaiError::invalid_value(
                "action",
                quoted(text),
                "only QS, JD, 10C and AH can be exposed (§A.6)",
            ))
        }
        _ => Ok(mv.action()),
    }
}
