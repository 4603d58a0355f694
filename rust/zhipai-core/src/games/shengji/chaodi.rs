//! 炒底 / 反底: overcalling after the kitty is buried (shengji.md §2.2 option `chaodi`, default
//! off; sources SJ+ `enable_chaodi`, ASK "炒地皮", TH "莊傢扣完底牌後仍然可以反底但不反莊 …
//! 反底不反莊").
//!
//! The sequence implemented (the digest names the option without the steps; this follows SJ+'s
//! `Game.py`, the only source read that spells them out):
//! 1. After a burial, a **round of offers** starts with the player to the burier's right and
//!    goes counter-clockwise over the three other seats, skipping the seat that holds the
//!    current winning declaration (SJ+ stops when the turn comes back to the last declarer; one
//!    cannot overcall oneself).
//! 2. An offered player may pass or show a declaration that is legal on the **same ladder** as
//!    during the deal ([`Declaring::allows`]: strictly stronger, `partner_may_overcall`,
//!    `suit_ranked_bids`, copies across players). In the deal state a player without such a
//!    bid passes automatically, as while dealing.
//! 3. An overcall makes its suit (or no-trump) the trump at once; the overcaller takes the whole
//!    kitty into hand and buries the same number of cards (the burial restrictions apply), and
//!    a new round of offers starts from the overcaller's right (step 1).
//! 4. A round in which every offered player passes ends the exchange. "反底不反庄" (TH): the
//!    dealer and the teams never change; the dealer leads trick 1; the kitty is whatever the
//!    last burier buried, and it is scored for the attackers as usual (§7.2) whoever buried it.
//!
//! No 炒底 round happens when nobody declared during the deal (SJ+ enables it only after a
//! declaration), with one deck (the first declaration is final, §2.2) and on the joker-only level
//! (nobody declares there): in those cases no bid is ever legal.

use super::declare::{Bid, DeclareOptions, Declaring};
use crate::cards::{Card, Rank, Suit};
use crate::error::{Result, ZhipaiError};

/// The offers of one 炒底 round after `burier` buried (module docs, step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChaodiRound {
    burier: u8,
    /// Seats after the burier already considered (0..=3).
    offered: u8,
}

impl ChaodiRound {
    /// The round that follows a burial by seat `burier` (0..4).
    pub fn after_burial(burier: u8) -> ChaodiRound {
        ChaodiRound { burier: burier % 4, offered: 0 }
    }

    /// The seat that buried last.
    pub fn burier(&self) -> u8 {
        self.burier
    }

    /// The next seat offered a chance: counter-clockwise from the burier's right, skipping
    /// `declarer` (the seat of the current winning declaration); `None` once all three other
    /// seats were considered (the round is over).
    pub fn next_seat(&mut self, declarer: Option<u8>) -> Option<u8> {
        while self.offered < 3 {
            self.offered += 1;
            let seat = (self.burier + self.offered) % 4;
            if Some(seat) != declarer {
                return Some(seat);
            }
        }
        None
    }
}

/// Whether a 炒底 round follows a burial: `chaodi` is on and somebody declared (module docs).
pub fn chaodi_follows(opts: &DeclareOptions, declaring: &Declaring) -> bool {
    opts.chaodi && declaring.winner().is_some()
}

/// The result of [`check_chaodi`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaodiOutcome {
    /// The final declaration `(player, bid)`.
    pub winner: Option<(u8, Bid)>,
    /// The trump: `Some(suit)`, `None` = no-trump.
    pub trump: Option<Suit>,
    /// The seat that buried last (and so holds the kitty's secret).
    pub kitty_holder: u8,
    /// Every offered seat passed in the last round: the exchange is over.
    pub done: bool,
    /// Overcalls accepted.
    pub overcalls: usize,
    /// The index of the first illegal action and why (actions after it are not read).
    pub illegal: Option<(usize, ZhipaiError)>,
}

/// Check a 炒底 exchange at `level`: `declaration` is the final declaration of the deal
/// (`(player, cards)`; `None` = nobody declared, then no round happens), `dealer` the seat that
/// buried first, and `actions` the offers answered in time order: `(player, None)` = pass,
/// `(player, Some(cards))` = an overcall (the overcaller then buries, implicitly). Every offered
/// seat answers explicitly here (in the deal state a seat without a legal bid passes by itself).
///
/// Illegal: an action by a seat that is not the one offered now (or after the exchange ended),
/// or a bid refused by the ladder (§2.2). Errors: `InvalidValue` for a seat outside 0..4;
/// `IllegalPlay` when `declaration` itself is not a legal first declaration.
pub fn check_chaodi(
    opts: DeclareOptions,
    level: Rank,
    declaration: Option<(u8, Vec<Card>)>,
    dealer: u8,
    actions: &[(u8, Option<Vec<Card>>)],
) -> Result<ChaodiOutcome> {
    if dealer >= 4 {
        return Err(ZhipaiError::invalid_value("dealer", dealer, "players are 0..=3"));
    }
    let mut d = Declaring::new(opts, level);
    if let Some((p, cards)) = &declaration {
        d.declare_cards(*p, cards)?;
    }
    let mut out = ChaodiOutcome {
        winner: d.winner(),
        trump: None,
        kitty_holder: dealer,
        done: true,
        overcalls: 0,
        illegal: None,
    };
    let mut round = ChaodiRound::after_burial(dealer);
    let active = chaodi_follows(&opts, &d);
    let mut offered = if active { round.next_seat(d.winner().map(|(p, _)| p)) } else { None };
    for (i, (player, cards)) in actions.iter().enumerate() {
        if *player >= 4 {
            return Err(ZhipaiError::invalid_value("player", player, "players are 0..=3"));
        }
        let refusal = match offered {
            None => Some("the 炒底 exchange is over (or never started)".to_string()),
            Some(seat) if seat != *player => Some(format!("seat {seat} is offered now")),
            _ => None,
        };
        if let Some(why) = refusal {
            out.illegal = Some((
                i,
                ZhipaiError::illegal_play(format!("炒底 action of player {player}"), why),
            ));
            break;
        }
        if let Some(cards) = cards {
            if let Err(e) = d.declare_cards(*player, cards) {
                out.illegal = Some((i, e));
                break;
            }
            out.overcalls += 1;
            out.kitty_holder = *player;
            round = ChaodiRound::after_burial(*player);
        }
        offered = round.next_seat(d.winner().map(|(p, _)| p));
    }
    out.winner = d.winner();
    out.trump = d.winner().and_then(|(_, b)| b.trump());
    out.done = offered.is_none();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn opts() -> DeclareOptions {
        let mut o = DeclareOptions::defaults("tractor", 2);
        o.chaodi = true;
        o
    }

    fn act(p: u8, cards: &str) -> (u8, Option<Vec<Card>>) {
        (p, (cards != "pass").then(|| parse_cards(cards).unwrap()))
    }

    fn run(o: DeclareOptions, decl: (u8, &str), dealer: u8, acts: &[(u8, &str)]) -> ChaodiOutcome {
        let acts: Vec<_> = acts.iter().map(|(p, c)| act(*p, c)).collect();
        check_chaodi(o, Rank::TWO, Some((decl.0, parse_cards(decl.1).unwrap())), dealer, &acts)
            .unwrap()
    }

    #[test]
    fn offers_go_round_from_the_buriers_right_skipping_the_declarer() {
        let mut r = ChaodiRound::after_burial(0);
        let seats: Vec<u8> = std::iter::from_fn(|| r.next_seat(Some(0))).collect();
        assert_eq!(seats, [1, 2, 3]);
        // A later hand: dealer 0 buries, seat 2 holds the declaration → 1 and 3 are offered.
        let mut r = ChaodiRound::after_burial(0);
        let seats: Vec<u8> = std::iter::from_fn(|| r.next_seat(Some(2))).collect();
        assert_eq!(seats, [1, 3]);
    }

    #[test]
    fn an_overcall_takes_the_kitty_and_restarts_the_round() {
        // P0 declared 2H and buried; P1 passes; P2 overcalls 2S 2S and buries; P3, P0 pass;
        // P1 overcalls SJ SJ (NT) and buries; P2, P3, P0 pass → NT, kitty with P1.
        let out = run(
            opts(),
            (0, "2H"),
            0,
            &[
                (1, "pass"),
                (2, "2S 2S"),
                (3, "pass"),
                (0, "pass"),
                (1, "SJ SJ"),
                (2, "pass"),
                (3, "pass"),
                (0, "pass"),
            ],
        );
        assert!(out.illegal.is_none(), "{:?}", out.illegal);
        assert_eq!((out.trump, out.kitty_holder, out.done, out.overcalls), (None, 1, true, 2));
        assert_eq!(out.winner.map(|(p, b)| (p, b.to_string())), Some((1, "SJ SJ".into())));
    }

    #[test]
    fn same_ladder_and_turn_order_are_enforced() {
        // A pair of another suit only equals a pair: refused (§2.2 equal strength).
        let out = run(opts(), (0, "2H 2H"), 0, &[(1, "2S 2S")]);
        assert_eq!(out.illegal.as_ref().map(|(i, _)| *i), Some(0));
        // Out of turn: P2 acts while P1 is offered.
        let out = run(opts(), (0, "2H"), 0, &[(2, "2S 2S")]);
        let (i, e) = out.illegal.unwrap();
        assert!(i == 0 && e.to_string().contains("seat 1"), "{e}");
        // After a full round of passes nobody may act.
        let out = run(opts(), (0, "2H"), 0, &[(1, "pass"), (2, "pass"), (3, "pass"), (1, "BJ BJ")]);
        assert_eq!(out.illegal.map(|(i, _)| i), Some(3));
        assert_eq!((out.trump, out.kitty_holder, out.done), (Some(Suit::Hearts), 0, true));
    }

    #[test]
    fn partner_option_and_off_switch() {
        let mut o = opts();
        o.partner_may_overcall = false;
        // P2 is the declarer's partner.
        let out = run(o, (0, "2H"), 0, &[(1, "pass"), (2, "2C 2C")]);
        assert_eq!(out.illegal.map(|(i, _)| i), Some(1));
        let mut o = opts();
        o.chaodi = false;
        let out = run(o, (0, "2H"), 0, &[(1, "2C 2C")]);
        assert_eq!(out.illegal.map(|(i, _)| i), Some(0));
        // Nobody declared: no round (SJ+).
        let acts = [act(1, "2C 2C")];
        let out = check_chaodi(opts(), Rank::TWO, None, 0, &acts).unwrap();
        assert_eq!(out.illegal.map(|(i, _)| i), Some(0));
    }
}
