//! Trick machinery shared by the Shengji family and Hong Wu: lead legality and the throw check
//! ([`lead`]), following ([`follow`]) and the trick winner ([`winner`]).
//!
//! Everything here works on a [`TrickRules`]: one deal's [`CardOrder`] (effective suits, strength
//! indices, adjacency), the number of decks and the play options in a game-neutral form. Each game
//! maps its own option names onto these enums ([`trick_rules`] dispatches on the game), so the
//! rules themselves are written once. Rule references are to `shared/rules/shengji.md` (§4–§6)
//! and `shared/rules/hongwu.md` (§B.6–§B.9).
//!
//! Hands, leads and plays are [`Multiset`]s; nothing in the hot paths allocates (fixed arrays,
//! bit masks over strength indices).
//!
//! Typical use by a deal state machine:
//!
//! 1. once per deal: `let tr = trick_rules(&rules, level, trump)?;`
//! 2. lead: [`check_lead`] (structure, with the reason) → a [`crate::combos::Format`]; for a
//!    throw, [`check_throw`] against the other hands gives the cards actually led
//!    ([`ThrowResult::played`]); re-decompose those for the trick's format. Policies can list
//!    single-unit leads with [`lead_candidates`].
//! 3. follows: [`FollowMoves::new`] then `check` / `enumerate` / `count` / `sample`.
//! 4. [`trick_winner`] on the plays (lead first); [`kitty_multiplier`] after the last trick.
//!
//! Hong Wu (hongwu.md §B.6–§B.9) maps onto these enums: its own [`CardOrder`] (built with
//! `CardOrder::empty`, `place`, `set_link`); `trump_throw_allowed = false`;
//! `throw_check` `component | literal` → [`ThrowCheck`]; `failed_throw_play` `lowest_card` →
//! [`ForcedPlay::SmallestCard`], `lowest_beatable_component` → [`ForcedPlay::LowestBeaten`];
//! `throw_compare` `max_card` → [`ThrowCompare::HighestCard`], `highest_component` →
//! [`ThrowCompare::LargestComponent`]; `follow_shape_obligation` → [`ShapeObligation`];
//! "a play of a different shape loses" → [`ShapeMatch::Exact`]; "a tractor of equal length,
//! otherwise as many pairs as possible" → `partial_tractor_follow = false`.

pub mod follow;
pub mod lead;
pub mod lead_candidates;
pub mod sample;
pub mod winner;

use crate::cards::{Rank, Suit};
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;
use crate::order::CardOrder;
use crate::rules::Rules;

pub use follow::{check_follow, sample_follow, structure_score, FollowError, FollowMoves};
pub use lead::{
    check_lead, check_lead_into, check_throw, for_each_unit_lead, LeadError, ThrowResult,
};
pub use winner::{trick_winner, trick_winner_of};

/// How a multi-unit lead is split into units (shengji.md §4.3 `throw_decomposition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decomposition {
    /// Triples (and Titanics) first, then pairs and tractors (layered), then singles (S004).
    MultiplicityFirst,
    /// Repeatedly take the longest component, tractors preferred on ties (RB).
    LongestComponent,
}

/// Whose hands a throw is checked against (shengji.md §4.4 `throw_check_scope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThrowScope {
    /// All three other players, the partner included (default).
    AllOthers,
    /// Only the two opponents: with 4 players in playing order the partner is `others[1]`.
    OpponentsOnly,
}

/// When a throw component counts as beaten (hongwu.md §B.7 `throw_check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThrowCheck {
    /// Another hand holds a higher combination of the same shape (shengji.md §4.4).
    Component,
    /// Another hand holds any single card higher than the component's lowest card (Hong Wu
    /// literal reading: "比甩牌中某个牌更大的牌").
    Literal,
}

/// What a failed throw is reduced to (shengji.md §4.5 `throw_fail_forced`; hongwu.md §B.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForcedPlay {
    /// The beaten component with the fewest cards; ties → lowest index (CT, RB).
    SmallestBeaten,
    /// The beaten component with the most cards; ties → lowest index (S004).
    LargestBeaten,
    /// The smallest component of the whole throw, beaten or not (S001).
    SmallestComponentOfThrow,
    /// The single lowest card of the throw (S002; Hong Wu `lowest_card`).
    SmallestCard,
    /// One card: the lowest card of the lowest-ranked beaten component (BZ).
    SmallestCardOfSmallestBeaten,
    /// The lowest-ranked beaten component, any size (Hong Wu `lowest_beatable_component`).
    LowestBeaten,
}

/// How strictly a follower must match the lead's structure (hongwu.md §B.8
/// `follow_shape_obligation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeObligation {
    /// Pairs, tractors, triples and Titanics must be matched as far as possible (shengji.md §5 F2).
    Standard,
    /// Only the suit must be followed (F1).
    SuitOnly,
}

/// How a throw lead is followed (shengji.md §5 F2 `follow_throw_structure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThrowFollow {
    /// Match each component as far as possible, largest first, then the pair count (default).
    ComponentGreedy,
    /// Only the number of pairs counts (CT).
    PairCountOnly,
}

/// How several eligible plays to a throw are compared (shengji.md §6.6 `throw_compare`;
/// hongwu.md §B.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThrowCompare {
    /// Compare the unit matching the lead's largest unit, best arrangement of each play (BZ, SJ+).
    LargestComponent,
    /// Every unit must beat the corresponding unit of the current winner (RB default).
    AllComponents,
    /// Compare the single highest card (CT, S002, Hong Wu `max_card`).
    HighestCard,
}

/// Which plays are eligible to win (shengji.md §5 F3, §6.2; hongwu.md §B.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeMatch {
    /// The play's structure covers the lead format: units may be split, never merged (Shengji).
    Cover,
    /// The play's own decomposition has exactly the lead's unit shapes (Hong Wu "牌型一致").
    Exact,
}

/// One deal's trick rules in a game-neutral form: the card order, the number of decks and every
/// play option the trick machinery needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickRules {
    /// Effective suits, strength indices and adjacency of this deal.
    pub order: CardOrder,
    /// Number of decks (1–3): the most copies of one card.
    pub decks: u8,
    pub decomposition: Decomposition,
    /// Whether a throw in the trump suit may be led (shengji.md §4.3 `trump_throw_allowed`).
    pub trump_throw_allowed: bool,
    pub throw_scope: ThrowScope,
    pub throw_check: ThrowCheck,
    pub forced_play: ForcedPlay,
    pub shape_obligation: ShapeObligation,
    /// A shorter tractor must be included when no full-length one is held (shengji.md §5 F2).
    pub partial_tractor_follow: bool,
    /// Triples need not be broken to follow pairs or tractors (RB option, shengji.md §5 F2).
    pub longer_tuples_protected: bool,
    pub throw_follow: ThrowFollow,
    pub throw_compare: ThrowCompare,
    pub shape_match: ShapeMatch,
}

impl TrickRules {
    /// Standard Shengji trick rules (the digest defaults) on `order` with `decks` decks.
    pub fn standard(order: CardOrder, decks: u8) -> TrickRules {
        TrickRules {
            order,
            decks,
            decomposition: Decomposition::MultiplicityFirst,
            trump_throw_allowed: true,
            throw_scope: ThrowScope::AllOthers,
            throw_check: ThrowCheck::Component,
            forced_play: ForcedPlay::SmallestBeaten,
            shape_obligation: ShapeObligation::Standard,
            partial_tractor_follow: true,
            longer_tuples_protected: false,
            throw_follow: ThrowFollow::ComponentGreedy,
            throw_compare: ThrowCompare::LargestComponent,
            shape_match: ShapeMatch::Cover,
        }
    }

    /// Check that every card of `cards` appears at most `decks` times. Errors with
    /// `InvalidValue` naming `what` and the cards.
    pub fn check_copies(&self, what: &str, cards: &Multiset) -> Result<()> {
        let too_many = cards.at_least(self.decks as usize + 1);
        if !too_many.is_empty() {
            return Err(ZhipaiError::invalid_value(
                what,
                cards,
                format!(
                    "{too_many} appears more than {} times with {} decks",
                    self.decks, self.decks
                ),
            ));
        }
        Ok(())
    }
}

/// The trick rules of `rules` for one deal with level rank `level` and trump suit `trump`
/// (`None` = no-trump). Errors with `InvalidOption` for a game without trick play (Gongzhu and
/// Baohuang are other games) and, for now, Hong Wu (its helper maps its options here).
pub fn trick_rules(rules: &Rules, level: Rank, trump: Option<Suit>) -> Result<TrickRules> {
    match rules {
        Rules::Shengji(r) => Ok(r.play.trick_rules(r.decks, level, trump)),
        Rules::HongWu(r) => r.trick_rules(trump),
        other => Err(ZhipaiError::invalid_option(
            "preset",
            other.preset(),
            "this game has no Shengji-style tricks",
        )),
    }
}

/// The kitty multiplier of `rules` when the attackers win the last trick with lead `lead`
/// (the last trick's lead format) and `winning_play` (the play that won it, for bases that read
/// it). Dispatches on the game; see [`crate::games::shengji::kitty`].
pub fn kitty_multiplier(
    rules: &Rules,
    tr: &TrickRules,
    lead: &Multiset,
    winning_play: Option<&Multiset>,
) -> Result<u32> {
    match rules {
        Rules::Shengji(r) => crate::games::shengji::kitty::kitty_multiplier(
            r.play.kitty_multiplier,
            r.play.kitty_multiplier_basis,
            tr,
            lead,
            winning_play,
        ),
        Rules::HongWu(r) => r.kitty_multiplier(tr, lead),
        other => Err(ZhipaiError::invalid_option(
            "preset",
            other.preset(),
            "this game has no kitty multiplier",
        )),
    }
}
