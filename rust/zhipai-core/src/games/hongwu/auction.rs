//! The Hong Wu auction 叫分 (hongwu.md §B.2): who becomes dealer 庄家, at what bid.
//!
//! Bids are multiples of 5 in 60…200; each bid exceeds the highest so far by 5…20; a pass is
//! final; a bid of 200 ends the auction at once; a bidder whom the other three have all passed
//! is dealer; if all four pass without a bid, the first bidder is dealer at 60.

use super::options::{Direction, FirstBidRange};
use crate::error::{Result, ZhipaiError};
use std::fmt;

/// Lowest bid (seed 002 "最低从60分开始叫").
pub const MIN_BID: u32 = 60;
/// Highest bid; it ends the auction at once (seed 002 "上限分数(200)").
pub const MAX_BID: u32 = 200;
/// Smallest raise over the current bid (seed 002 "至少高5分").
pub const MIN_RAISE: u32 = 5;
/// Largest raise over the current bid (seed 002 "至多高20分").
pub const MAX_RAISE: u32 = 20;
/// Players at the table.
pub const PLAYERS: usize = 4;

/// One auction action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bid {
    /// Give up for this deal (final).
    Pass,
    /// Bid this many points.
    Points(u32),
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Pass => f.write_str("pass"),
            Bid::Points(n) => write!(f, "{n}"),
        }
    }
}

/// The end of an auction: the dealer's seat and the bid he must make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    pub dealer: usize,
    pub bid: u32,
}

/// An auction in progress (or finished). Seats are 0 to 3; the turn passes in `direction`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    first: usize,
    direction: Direction,
    first_bid_range: FirstBidRange,
    to_act: usize,
    high: Option<Contract>,
    passed: [bool; PLAYERS],
    result: Option<Contract>,
}

impl Auction {
    /// A new auction opened by seat `first` (0 to 3). Errors with `InvalidValue` for another seat.
    pub fn new(first: usize, direction: Direction, first_bid_range: FirstBidRange) -> Result<Self> {
        if first >= PLAYERS {
            return Err(ZhipaiError::invalid_value(
                "first bidder",
                first,
                "expected a seat 0 to 3",
            ));
        }
        Ok(Auction {
            first,
            direction,
            first_bid_range,
            to_act: first,
            high: None,
            passed: [false; PLAYERS],
            result: None,
        })
    }

    /// The seat that opened the auction.
    pub fn first(&self) -> usize {
        self.first
    }

    /// The seat to act, or `None` when the auction is over.
    pub fn to_act(&self) -> Option<usize> {
        self.result.is_none().then_some(self.to_act)
    }

    /// The highest bid so far and its bidder.
    pub fn high(&self) -> Option<Contract> {
        self.high
    }

    /// Whether `seat` has passed.
    pub fn has_passed(&self, seat: usize) -> bool {
        self.passed.get(seat).copied().unwrap_or(false)
    }

    /// The contract once the auction is over.
    pub fn result(&self) -> Option<Contract> {
        self.result
    }

    /// The lowest and highest bid the seat to act may make, or `None` when the auction is over.
    pub fn bid_range(&self) -> Option<(u32, u32)> {
        if self.result.is_some() {
            return None;
        }
        Some(match self.high {
            None => {
                let top = match self.first_bid_range {
                    FirstBidRange::To80 => MIN_BID + MAX_RAISE,
                    FirstBidRange::To75 => MIN_BID - MIN_RAISE + MAX_RAISE,
                    FirstBidRange::To200 => MAX_BID,
                };
                (MIN_BID, top)
            }
            Some(h) => (h.bid + MIN_RAISE, (h.bid + MAX_RAISE).min(MAX_BID)),
        })
    }

    /// Every legal action of the seat to act: `Pass` first, then the bids low to high; empty
    /// when the auction is over.
    pub fn legal_bids(&self) -> Vec<Bid> {
        match self.bid_range() {
            None => Vec::new(),
            Some((lo, hi)) => std::iter::once(Bid::Pass)
                .chain((lo..=hi).step_by(MIN_RAISE as usize).map(Bid::Points))
                .collect(),
        }
    }

    /// Whether `seat` may make `bid` now; the error (`IllegalPlay`) gives the rule it breaks.
    pub fn check(&self, seat: usize, bid: Bid) -> Result<()> {
        let illegal = |reason: String| {
            Err(ZhipaiError::illegal_play(format!("bid {bid} by seat {seat}"), reason))
        };
        if seat >= PLAYERS {
            return Err(ZhipaiError::invalid_value("seat", seat, "expected a seat 0 to 3"));
        }
        if let Some(c) = self.result {
            return illegal(format!(
                "the auction is over (seat {} is dealer at {})",
                c.dealer, c.bid
            ));
        }
        if self.passed[seat] {
            return illegal("this seat has passed, and a pass is final (hongwu.md §B.2)".into());
        }
        if seat != self.to_act {
            return illegal(format!("it is seat {}'s turn", self.to_act));
        }
        let Bid::Points(n) = bid else { return Ok(()) };
        let (lo, hi) = self.bid_range().expect("auction not over");
        if !n.is_multiple_of(MIN_RAISE) {
            return illegal("bids are multiples of 5 (hongwu.md §B.2)".into());
        }
        if !(MIN_BID..=MAX_BID).contains(&n) {
            return illegal("bids are 60…200 (hongwu.md §B.2)".into());
        }
        if n < lo || n > hi {
            return illegal(match self.high {
                Some(h) => format!(
                    "a bid must exceed the current {} by 5…20, i.e. be {lo}…{hi} (hongwu.md §B.2)",
                    h.bid
                ),
                None => format!(
                    "the first bid must be {lo}…{hi} (first_bid_range={})",
                    self.first_bid_range.as_str()
                ),
            });
        }
        Ok(())
    }

    /// Make `bid` for `seat` (checked as in [`Auction::check`]) and advance the turn.
    pub fn act(&mut self, seat: usize, bid: Bid) -> Result<()> {
        self.check(seat, bid)?;
        match bid {
            Bid::Pass => self.passed[seat] = true,
            Bid::Points(n) => {
                self.high = Some(Contract { dealer: seat, bid: n });
                if n == MAX_BID {
                    self.result = self.high;
                    return Ok(());
                }
            }
        }
        let active = self.passed.iter().filter(|p| !**p).count();
        self.result = match self.high {
            Some(h) if active == 1 => Some(h),
            None if active == 0 => Some(Contract { dealer: self.first, bid: MIN_BID }),
            _ => None,
        };
        if self.result.is_none() {
            self.to_act = self.next_active(seat);
        }
        Ok(())
    }

    /// The next seat after `seat` in the direction of play that has not passed.
    fn next_active(&self, seat: usize) -> usize {
        let step = match self.direction {
            Direction::Anticlockwise => 1,
            Direction::Clockwise => PLAYERS - 1,
        };
        let mut s = seat;
        loop {
            s = (s + step) % PLAYERS;
            if !self.passed[s] {
                return s;
            }
        }
    }
}

/// Run a whole auction: `bids` as `(seat, bid)` in time order from opener `first`.
/// Returns the auction after the last action, or `Err((i, error))` for the first illegal
/// action `i`.
pub fn run_auction(
    first: usize,
    direction: Direction,
    first_bid_range: FirstBidRange,
    bids: &[(usize, Bid)],
) -> std::result::Result<Auction, (usize, ZhipaiError)> {
    let mut a = Auction::new(first, direction, first_bid_range).map_err(|e| (0, e))?;
    for (i, &(seat, bid)) in bids.iter().enumerate() {
        a.act(seat, bid).map_err(|e| (i, e))?;
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run(first: usize, bids: &[(usize, Option<u32>)]) -> std::result::Result<Auction, usize> {
        let bids: Vec<_> =
            bids.iter().map(|&(s, b)| (s, b.map_or(Bid::Pass, Bid::Points))).collect();
        run_auction(first, Direction::Anticlockwise, FirstBidRange::To80, &bids).map_err(|e| e.0)
    }

    #[test]
    fn example_h1() {
        let a = run(
            0,
            &[
                (0, Some(60)),
                (1, Some(75)),
                (2, Some(95)),
                (3, None),
                (0, Some(100)),
                (1, None),
                (2, None),
            ],
        )
        .unwrap();
        assert_eq!(a.result(), Some(Contract { dealer: 0, bid: 100 }));
        assert_eq!(run(0, &[(0, Some(60)), (1, Some(75)), (2, Some(100))]).unwrap_err(), 2);
    }

    #[test]
    fn nobody_bids_and_200_ends() {
        let a = run(2, &[(2, None), (3, None), (0, None), (1, None)]).unwrap();
        assert_eq!(a.result(), Some(Contract { dealer: 2, bid: 60 }));
        let a = run(
            0,
            &[
                (0, Some(80)),
                (1, Some(100)),
                (2, Some(120)),
                (3, Some(140)),
                (0, Some(160)),
                (1, Some(180)),
                (2, Some(200)),
            ],
        )
        .unwrap();
        assert_eq!(a.result(), Some(Contract { dealer: 2, bid: 200 }));
        assert_eq!(a.to_act(), None);
        assert!(a.legal_bids().is_empty());
    }

    #[test]
    fn edges_of_the_ranges() {
        // First bid 60…80 by default; 85 is too high, 55 too low, 67 not a multiple of 5.
        for (bid, ok) in [(55, false), (60, true), (67, false), (80, true), (85, false)] {
            assert_eq!(run(0, &[(0, Some(bid))]).is_ok(), ok, "{bid}");
        }
        // Raises of 5…20 over 100.
        for (bid, ok) in [(100, false), (105, true), (120, true), (125, false)] {
            assert_eq!(run(0, &[(0, Some(80)), (1, Some(100)), (2, Some(bid))]).is_ok(), ok);
        }
        // Over 185 the cap is 200, and 205 is never legal.
        let up = [
            (0, Some(80)),
            (1, Some(100)),
            (2, Some(120)),
            (3, Some(140)),
            (0, Some(160)),
            (1, Some(180)),
            (2, Some(185)),
        ];
        let a = run(0, &up).unwrap();
        assert_eq!(a.bid_range(), Some((190, 200)));
        let mut more = up.to_vec();
        more.push((3, Some(205)));
        assert_eq!(run(0, &more).unwrap_err(), 7);
    }

    #[test]
    fn first_bid_range_options() {
        for (range, hi) in
            [(FirstBidRange::To80, 80), (FirstBidRange::To75, 75), (FirstBidRange::To200, 200)]
        {
            let a = Auction::new(1, Direction::Anticlockwise, range).unwrap();
            assert_eq!(a.bid_range(), Some((60, hi)));
        }
    }

    #[test]
    fn passing_is_final_and_turns_are_kept() {
        let e = run(
            0,
            &[(0, Some(60)), (1, None), (2, Some(65)), (3, None), (0, Some(70)), (1, Some(75))],
        );
        assert_eq!(e.unwrap_err(), 5);
        assert_eq!(run(0, &[(1, Some(60))]).unwrap_err(), 0, "seat 0 opens");
        // After a pass the turn skips the passed seat.
        let a = run(0, &[(0, Some(60)), (1, None), (2, Some(65)), (3, Some(70)), (0, Some(75))])
            .unwrap();
        assert_eq!(a.to_act(), Some(2));
    }

    #[test]
    fn clockwise_turns() {
        let mut a = Auction::new(0, Direction::Clockwise, FirstBidRange::To80).unwrap();
        a.act(0, Bid::Points(60)).unwrap();
        assert_eq!(a.to_act(), Some(3));
        let e = a.act(1, Bid::Pass).unwrap_err().to_string();
        assert!(e.contains("seat 3's turn"), "{e}");
    }

    #[test]
    fn errors_name_the_bid() {
        let a = Auction::new(0, Direction::Anticlockwise, FirstBidRange::To80).unwrap();
        let e = a.check(0, Bid::Points(67)).unwrap_err().to_string();
        assert!(e.contains("bid 67 by seat 0") && e.contains("multiples of 5"), "{e}");
        assert!(a.check(4, Bid::Pass).is_err());
        assert!(Auction::new(4, Direction::Anticlockwise, FirstBidRange::To80).is_err());
    }

    proptest! {
        /// Any sequence of legal actions ends within 29 bids + 4 passes with a dealer whose bid is
        /// 60…200, and a finished auction accepts nothing more.
        #[test]
        fn random_auctions_end(first in 0usize..4, picks in proptest::collection::vec(0usize..100, 40)) {
            let mut a = Auction::new(first, Direction::Anticlockwise, FirstBidRange::To80).unwrap();
            let mut n = 0;
            for p in picks {
                let Some(seat) = a.to_act() else { break };
                let legal = a.legal_bids();
                prop_assert!(legal.len() >= 2);
                a.act(seat, legal[p % legal.len()]).unwrap();
                n += 1;
            }
            let c = a.result().expect("finished within 40 actions");
            prop_assert!(n <= 29 + 4);
            prop_assert!((MIN_BID..=MAX_BID).contains(&c.bid) && c.bid.is_multiple_of(5));
            prop_assert!(a.check(c.dealer, Bid::Pass).is_err());
        }
    }
}
