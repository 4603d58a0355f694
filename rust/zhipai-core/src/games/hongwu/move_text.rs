//! Hong Wu move text (the words of `zhipai.Game("hong_wu")` states and their history):
//! `pass`, `bid 60` (§B.2), `trump S` (§B.3), `bury <8 cards>` (§B.3), `play <cards>`
//! (§B.7–§B.8). Read in any letter case and spacing, cards in any order; written in canonical
//! card order.

use super::auction::Bid;
use super::state::Action;
use crate::error::{Result, ZhipaiError};
use crate::game::quoted;

/// The move text of `mv`: `pass`, `bid 60`, `trump S`, `bury <cards>`, `play <cards>`.
pub fn move_text(mv: &Action) -> String {
    match mv {
        Action::Play(m) => format!("play {m}"),
        // `Action`'s own display writes the other three words (and a play without its word).
        other => other.to_string(),
    }
}

/// The move of `text` (the inverse of [`move_text`]). Errors: `InvalidValue` naming the text for
/// an unknown word or a bid that is not a number, `InvalidValue` (suit) / `InvalidCard` for a
/// bad suit or card. A parsed move may still be illegal ([`super::state::HongWuState::check`]).
pub fn parse_move_text(text: &str) -> Result<Action> {
    let t = text.trim();
    let (kind, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let rest = rest.trim();
    Ok(match kind.to_ascii_lowercase().as_str() {
        "pass" if rest.is_empty() => Action::Bid(Bid::Pass),
        "bid" => Action::Bid(Bid::Points(rest.parse().map_err(|_| {
            ZhipaiError::invalid_value("bid", rest, "expected points such as 'bid 60'")
        })?)),
        "trump" => Action::Trump(rest.parse()?),
        "bury" => Action::Bury(rest.parse()?),
        "play" => Action::Play(rest.parse()?),
        _ => {
            return Err(ZhipaiError::invalid_value(
                "move",
                quoted(text),
                "expected 'pass', 'bid <points>', 'trump <S|H|D|C>', 'bury <cards>' or 'play \
                 <cards>'",
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;

    #[test]
    fn words_in_any_case_spacing_and_card_order() {
        let cases = [
            ("pass", Action::Bid(Bid::Pass)),
            ("  BID   65 ", Action::Bid(Bid::Points(65))),
            ("Trump h", Action::Trump(Suit::Hearts)),
            ("play kc 8c KC", Action::Play("8C KC KC".parse().unwrap())),
            (
                "bury\t2S 3S 4S 5S 6S 7S 8S 9S",
                Action::Bury("9S 8S 7S 6S 5S 4S 3S 2S".parse().unwrap()),
            ),
        ];
        for (text, want) in cases {
            let got = parse_move_text(text).unwrap();
            assert_eq!(got, want, "{text}");
            assert_eq!(parse_move_text(&move_text(&got)).unwrap(), got, "round trip of {text}");
        }
        assert_eq!(move_text(&Action::Play("KC 8C KC".parse().unwrap())), "play 8C KC KC");
        assert_eq!(move_text(&Action::Bid(Bid::Points(60))), "bid 60");
        assert_eq!(move_text(&Action::Trump(Suit::Clubs)), "trump C");
    }

    #[test]
    fn errors_name_the_text() {
        let e = parse_move_text("hello\0").unwrap_err().to_string();
        assert!(e.starts_with("invalid move 'hello\\0': expected 'pass'"), "{e}");
        let e = parse_move_text("pass 60").unwrap_err().to_string();
        assert!(e.contains("invalid move 'pass 60'"), "{e}");
        let e = parse_move_text("bid sixty").unwrap_err().to_string();
        assert_eq!(e, "invalid bid sixty: expected points such as 'bid 60'");
        assert!(matches!(parse_move_text("play ZZ"), Err(ZhipaiError::InvalidCard { .. })));
        assert!(parse_move_text("trump NT").unwrap_err().to_string().contains("S H D C"));
    }
}
