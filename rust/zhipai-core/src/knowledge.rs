//! What one seat knows in the middle of a deal ([`SeatView`]: its hand, the cards out of play, the
//! kitty it buried, voids shown by play) and the exact sampler of the cards it cannot see
//! ([`HiddenDealer`], on the constrained dealer of [`crate::deal`]): the determinisation that
//! position evaluation and search players draw their worlds from.

use crate::deal::{ConstrainedDealer, Constraints, Deal, DealShape};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use rand_chacha::ChaCha8Rng;

/// What one seat knows in the middle of a deal: the input of the determinisation.
///
/// The cards still in play are the deck minus `gone`; they sit in the hands (`holding[s]` cards
/// for seat `s`) and the kitty (`kitty` cards). `known` fixes the cards the seat has seen in
/// place (its own hand, the kitty it buried, …) and holds the voids shown by play. Everything
/// else is dealt uniformly among the consistent deals by [`ConstrainedDealer`].
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    /// Full decks in the pack (1–4) and whether they include the jokers.
    pub decks: usize,
    pub jokers: bool,
    /// Cards each seat still holds (seat order; 0 is allowed, e.g. during the last trick).
    pub holding: Vec<usize>,
    /// Cards in the kitty now (0 when the game has none, or it is in the dealer's hand).
    pub kitty: usize,
    /// Cards out of play: everything already played (completed tricks and the current one).
    pub gone: Multiset,
    /// Cards known in hands or in the kitty (`fixed` / `kitty`) and voids, per seat.
    pub known: Constraints,
}

/// Samples the hidden cards of a [`SeatView`]: hands of size 0 are left out of the dealer and
/// the cards out of play are one extra, fully fixed pseudo-hand (the constrained dealer deals
/// whole packs into hands of at least one card).
#[derive(Clone, Debug)]
pub struct HiddenDealer {
    dealer: ConstrainedDealer,
    /// Seat of each of the dealer's hands, in order (the pile of played cards is not listed).
    seats: Vec<usize>,
    num_seats: usize,
}

impl SeatView {
    /// Add what the caller knows beyond the game's own record (e.g. cards shown in a
    /// declaration or a failed throw that are still in a hand, or voids it tracked): a seat's
    /// known cards become, kind by kind, the larger of the two counts (knowing "seat 1 holds
    /// 2H" twice is still one 2H); the voids are united.
    pub fn merge_known(&mut self, extra: &Constraints) {
        for (s, cards) in extra.fixed.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
            if self.known.fixed.len() <= s {
                self.known.fixed.resize(s + 1, Multiset::EMPTY);
            }
            self.known.fixed[s] = max_counts(&self.known.fixed[s], cards);
        }
        self.known.kitty = max_counts(&self.known.kitty, &extra.kitty);
        for (s, &v) in extra.voids.iter().enumerate().filter(|(_, v)| !v.is_empty()) {
            self.known = std::mem::take(&mut self.known).void(s, v);
        }
    }

    /// Build the sampler of the hidden cards.
    ///
    /// Errors: [`ZhipaiError::ImpossibleDeal`] naming the constraint when no deal is consistent
    /// with the view (cards fixed in a seat that holds none, more fixed cards than held, a card
    /// both played and held, voids that leave hands unfillable, …); [`ZhipaiError::InvalidValue`]
    /// for sizes that do not add up to the pack (naming them).
    pub fn dealer(&self) -> Result<HiddenDealer> {
        let n = self.holding.len();
        for (what, len) in [("fixed", self.known.fixed.len()), ("voids", self.known.voids.len())] {
            if len > n {
                return Err(ZhipaiError::invalid_value(
                    format!("{what} seat"),
                    len - 1,
                    format!("the deal has seats 0 to {}", n.saturating_sub(1)),
                ));
            }
        }
        let seats: Vec<usize> = (0..n).filter(|&s| self.holding[s] > 0).collect();
        let mut sizes: Vec<usize> = seats.iter().map(|&s| self.holding[s]).collect();
        let mut known = Constraints::new().in_kitty(self.known.kitty);
        for (s, fixed) in self.known.fixed.iter().enumerate() {
            if self.holding[s] == 0 && !fixed.is_empty() {
                return Err(ZhipaiError::impossible_deal(format!(
                    "seat {s} holds no cards but {fixed} are known to be in its hand"
                )));
            }
        }
        for (h, &s) in seats.iter().enumerate() {
            let fixed = self.known.fixed.get(s).copied().unwrap_or(Multiset::EMPTY);
            known = known.fix_hand(h, fixed);
            if let Some(&v) = self.known.voids.get(s) {
                known = known.void(h, v);
            }
        }
        if !self.gone.is_empty() {
            known = known.fix_hand(seats.len(), self.gone);
            sizes.push(self.gone.len());
        }
        let shape = DealShape::new(self.decks, self.jokers, &sizes, self.kitty)?;
        let dealer = ConstrainedDealer::new(&shape, &known).map_err(|e| match e {
            // The dealer numbers its hands; say which seat each one is.
            ZhipaiError::ImpossibleDeal { reason } => ZhipaiError::impossible_deal(format!(
                "{reason} ({})",
                hand_names(&seats, self.gone.len())
            )),
            other => other,
        })?;
        Ok(HiddenDealer { dealer, seats, num_seats: n })
    }
}

/// Kind by kind the larger count of `a` and `b`.
fn max_counts(a: &Multiset, b: &Multiset) -> Multiset {
    let mut out = *a;
    for c in b.kinds() {
        for _ in a.count(c)..b.count(c) {
            out.add(c);
        }
    }
    out
}

/// "hand 0 = seat 1, hand 1 = seat 3, hand 2 = the 40 cards already played" (or "hand h =
/// seat h for h < 4, …" when every seat still holds cards).
fn hand_names(seats: &[usize], gone: usize) -> String {
    let identity = seats.iter().enumerate().all(|(h, &s)| h == s);
    let mut names: Vec<String> = if identity {
        vec![format!("hand h = seat h for h < {}", seats.len())]
    } else {
        seats.iter().enumerate().map(|(h, s)| format!("hand {h} = seat {s}")).collect()
    };
    if gone > 0 {
        names.push(format!("hand {} = the {gone} cards already played", seats.len()));
    }
    names.join(", ")
}

impl HiddenDealer {
    /// One consistent deal: `hands[s]` = seat `s`'s whole holding (empty for seats that hold
    /// nothing), `kitty` = the kitty; the played cards are not in it.
    pub fn deal(&self, rng: &mut ChaCha8Rng) -> Deal {
        let d = self.dealer.deal(rng);
        let mut hands = vec![Multiset::EMPTY; self.num_seats];
        for (h, &s) in self.seats.iter().enumerate() {
            hands[s] = d.hands[h];
        }
        Deal { hands, kitty: d.kitty }
    }

    /// Whether sampling is one shuffle and a cut (no void splits the unknown cards).
    pub fn is_fast_path(&self) -> bool {
        self.dealer.is_fast_path()
    }
}
