//! The whole legal moves of a Hong Wu decision: listed in a deterministic order (at most
//! `limit`) and counted exactly.
//!
//! Order (that of today's `zhipai.Game("hong_wu")` states): every bid, `pass` first then low to
//! high (§B.2); the trumps S H D C (§B.3); burials, the first ones in card order (any 8 held cards,
//! §B.3); leads, every legal lead when there are at most `limit` (suit by suit, fewer cards
//! first), else the random policy's candidates (every single, pair, tractor and each plain suit's
//! whole holding when it is a throw, §B.6–§B.7); follows in [`crate::tricks::FollowMoves`] order (§B.8).

use super::state::{Action, HongWuState, Phase};
use super::KITTY_SIZE;
use crate::multiset::{sub_multisets, Multiset};
use crate::tricks::lead_candidates::all_leads;
use crate::tricks::order::{NUM_EFFECTIVE_SUITS, TRUMP};
use crate::tricks::TrickRules;

/// At most `limit` legal moves of the seat to act, in the order of the module docs (`[]` once
/// over).
pub fn legal_moves(s: &HongWuState, limit: usize) -> Vec<Action> {
    let Some(seat) = s.to_act() else { return Vec::new() };
    let mut out: Vec<Action> = match s.phase() {
        Phase::Auction => s.auction().legal_bids().into_iter().map(Action::Bid).collect(),
        Phase::Trump => crate::cards::Suit::ALL.into_iter().map(Action::Trump).collect(),
        Phase::Kitty => {
            let mut ok = |m: &Multiset| s.check(&Action::Bury(*m)).is_ok();
            let scan = limit.saturating_mul(50);
            sub_multisets(&s.hand(seat), KITTY_SIZE, limit, scan, &mut ok)
                .into_iter()
                .map(Action::Bury)
                .collect()
        }
        Phase::Play => plays(s, seat, limit).into_iter().map(Action::Play).collect(),
        Phase::Over => Vec::new(),
    };
    out.truncate(limit);
    out
}

/// The listed leads or follows of `seat` (see the module docs).
fn plays(s: &HongWuState, seat: usize, limit: usize) -> Vec<Multiset> {
    if let Some(m) = s.follow_moves() {
        return m.enumerate(limit);
    }
    let tr = s.trick_rules().expect("trump chosen in play");
    all_leads(tr, &s.hand(seat), limit).unwrap_or_else(|| s.lead_candidates())
}

/// The number of legal moves of the seat to act (0 once over), saturating at `u64::MAX`.
pub fn count_legal_moves(s: &HongWuState) -> u64 {
    let Some(seat) = s.to_act() else { return 0 };
    match s.phase() {
        Phase::Auction => s.auction().legal_bids().len() as u64,
        Phase::Trump => 4,
        Phase::Kitty => count_sub_multisets(&s.hand(seat), KITTY_SIZE),
        Phase::Play => match s.follow_moves() {
            Some(m) => m.count(),
            None => count_leads(s.trick_rules().expect("trump chosen in play"), &s.hand(seat)),
        },
        Phase::Over => 0,
    }
}

/// The number of distinct `k`-card sub-multisets of `hand` (the burials when `k = 8`): the
/// coefficient of xᵏ in ∏ (1 + x + … + x^copies) over the held kinds, saturating.
pub fn count_sub_multisets(hand: &Multiset, k: usize) -> u64 {
    let mut ways = vec![0u64; k + 1];
    ways[0] = 1;
    for c in hand.kinds() {
        let copies = hand.count(c);
        // Descending j: `ways[j - t]` is still the count without this kind.
        for j in (1..=k).rev() {
            let add = (1..=copies.min(j)).fold(0u64, |n, t| n.saturating_add(ways[j - t]));
            ways[j] = ways[j].saturating_add(add);
        }
    }
    ways[k]
}

/// The number of legal leads of `hand` (hongwu.md §B.6–§B.7): every non-empty sub-multiset of
/// one plain suit (any of them is a lead, a throw included), and in trumps only the single
/// units, since trumps cannot be thrown (主牌不能甩).
pub fn count_leads(tr: &TrickRules, hand: &Multiset) -> u64 {
    let mut n = 0u64;
    for suit in 0..NUM_EFFECTIVE_SUITS {
        let held = hand.restrict(tr.order.suit_mask(suit));
        n = n.saturating_add(if suit == TRUMP && !tr.trump_throw_allowed {
            count_single_units(tr, &held)
        } else {
            let subsets =
                held.kinds().iter().fold(1u64, |p, c| p.saturating_mul(held.count(c) as u64 + 1));
            subsets - 1
        });
    }
    n
}

/// The single units of `trumps` (cards of the trump suit): each held kind as a single, each
/// pair, and each tractor — two or more pairs at consecutive linked strength indices, one kind per
/// index (where several kinds share an index, such as the 副2s, each choice is its own tractor).
fn count_single_units(tr: &TrickRules, trumps: &Multiset) -> u64 {
    let pairs = trumps.pairs();
    let mut n = (trumps.kinds().len() + pairs.len()) as u64;
    let levels = tr.order.len(TRUMP);
    // Pair choices at each strength index.
    let choices: Vec<u64> =
        (0..levels).map(|i| tr.order.kinds_at(TRUMP, i).intersect(pairs).len() as u64).collect();
    for low in 0..levels {
        let mut product = choices[low];
        let mut top = low;
        while product > 0 && top + 1 < levels && tr.order.linked(TRUMP, top) {
            top += 1;
            product = product.saturating_mul(choices[top]);
            n = n.saturating_add(product);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::games::hongwu::HongWuRules;
    use crate::options::OptionValue;
    use crate::tricks::check_lead;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    #[test]
    fn sub_multisets_are_counted_as_listed() {
        for hand in ["AS AS KS QS QS JS", "BJ BJ SJ 5H 5H 4C 4C 4D", "2S 3S 4S 5S 6S 7S 8S 9S 10S"]
        {
            let h = ms(hand);
            for k in 0..=h.len() {
                let listed = sub_multisets(&h, k, usize::MAX, usize::MAX, &mut |_| true).len();
                let want = if k == 0 { 1 } else { listed };
                assert_eq!(count_sub_multisets(&h, k), want as u64, "{hand} k={k}");
            }
        }
    }

    /// Brute force: every non-empty sub-multiset of the hand that `check_lead` accepts.
    fn leads_by_definition(tr: &TrickRules, hand: &Multiset) -> u64 {
        (1..=hand.len())
            .map(|k| {
                let mut ok = |m: &Multiset| check_lead(tr, m, Some(hand)).is_ok();
                sub_multisets(hand, k, usize::MAX, usize::MAX, &mut ok).len() as u64
            })
            .sum()
    }

    #[test]
    fn trump_units_and_plain_subsets_are_the_legal_leads() {
        // Trump ♠: 副2 pairs share one index (three tractor choices below 主2), ♠3 ♣3 are the
        // 参谋 pairs, jokers and ♥5 on top; plain diamonds with a pair.
        let hands = [
            "5H 5H BJ BJ SJ SJ 3S 3S 3C 3C 2S 2S 2H 2H 2D 2D 2C AS AS KS",
            "2H 2H 2C 2C AS AS QS QS JS 9D 9D 8D 4H",
            "BJ SJ SJ 3S 2D 2D 2C 10S 10S 9S 9S 8S",
        ];
        for other_threes in ["plain_lowest", "trump_below_fu_canmou"] {
            for above in ["full_chain", "jokers_only"] {
                let mut r = HongWuRules::default();
                let str = |v: &str| OptionValue::Str(v.to_string());
                r.options.set("other_threes", &str(other_threes)).unwrap();
                r.options.set("tractor_above_A", &str(above)).unwrap();
                for trump in Suit::ALL {
                    let tr = r.trick_rules(Some(trump)).unwrap();
                    for hand in hands {
                        let h = ms(hand);
                        let want = leads_by_definition(&tr, &h);
                        assert_eq!(count_leads(&tr, &h), want, "{hand} trump {trump} {above}");
                        if let Some(all) = all_leads(&tr, &h, 100_000) {
                            assert_eq!(all.len() as u64, want);
                        }
                    }
                }
            }
        }
    }
}
