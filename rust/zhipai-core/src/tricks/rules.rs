//! One deal's trick rules in a game-neutral form ([`TrickRules`]) and the option enums each game
//! maps its own option names onto.

use super::combos::Decomposition;
use super::order::CardOrder;
use crate::error::{Result, ZhipaiError};
use crate::multiset::Multiset;

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

/// Which arrangement of the current winner's cards a challenger must beat under
/// `throw_compare = all_components` (shengji.md §6.6 is silent; option `all_components_holder`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HolderArrangement {
    /// The winner's first arrangement: its largest unit placed highest, the rest likewise.
    First,
    /// Every arrangement: one reading of the challenger must beat every reading of the winner's
    /// cards unit by unit, i.e. beat in each unit the best any reading of the winner puts there.
    Every,
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
/// play option the trick machinery needs. A field that is an option of a game carries that
/// option's name (`throw_decomposition`, ...), so the name leads from the option to its use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickRules {
    /// Effective suits, strength indices and adjacency of this deal.
    pub order: CardOrder,
    /// Number of decks (1–3): the most copies of one card.
    pub decks: u8,
    /// How a multi-unit lead is split into units (shengji.md §4.3 `throw_decomposition`).
    pub throw_decomposition: Decomposition,
    /// Whether a throw in the trump suit may be led (shengji.md §4.3 `trump_throw_allowed`).
    pub trump_throw_allowed: bool,
    /// Whose hands a throw is checked against (shengji.md §4.4 `throw_check_scope`).
    pub throw_check_scope: ThrowScope,
    /// When a throw component counts as beaten (hongwu.md §B.7 `throw_check`).
    pub throw_check: ThrowCheck,
    /// What a failed throw is reduced to (shengji.md §4.5 `throw_fail_forced`; Hong Wu's
    /// `failed_throw_play` maps onto it).
    pub throw_fail_forced: ForcedPlay,
    /// How strictly a follower matches the lead's structure (hongwu.md §B.8
    /// `follow_shape_obligation`; standard in the Shengji family).
    pub follow_shape_obligation: ShapeObligation,
    /// A shorter tractor must be included when no full-length one is held (shengji.md §5 F2).
    pub partial_tractor_follow: bool,
    /// Triples need not be broken to follow pairs or tractors (RB option, shengji.md §5 F2).
    pub longer_tuples_protected: bool,
    /// Under `longer_tuples_protected`: a triple played whole may count as the pair a throw asks
    /// for (as pair + single) while a real pair stays in the hand. False is RB's reading: a
    /// triple played whole counts as a pair only where the lead asks for a triple, so the real
    /// pair must be played (option `longer_tuple_stands_in`).
    pub longer_tuple_stands_in: bool,
    /// How a throw lead is followed (shengji.md §5 F2 `follow_throw_structure`).
    pub follow_throw_structure: ThrowFollow,
    /// How several eligible plays to a throw are compared (shengji.md §6.6 `throw_compare`;
    /// Hong Wu's `throw_compare` maps onto it).
    pub throw_compare: ThrowCompare,
    /// Which arrangement of the current winner `all_components` compares against.
    pub all_components_holder: HolderArrangement,
    pub shape_match: ShapeMatch,
}

impl TrickRules {
    /// Standard Shengji trick rules (the digest defaults) on `order` with `decks` decks.
    pub fn standard(order: CardOrder, decks: u8) -> TrickRules {
        TrickRules {
            order,
            decks,
            throw_decomposition: Decomposition::MultiplicityFirst,
            trump_throw_allowed: true,
            throw_check_scope: ThrowScope::AllOthers,
            throw_check: ThrowCheck::Component,
            throw_fail_forced: ForcedPlay::SmallestBeaten,
            follow_shape_obligation: ShapeObligation::Standard,
            partial_tractor_follow: true,
            longer_tuples_protected: false,
            longer_tuple_stands_in: true,
            follow_throw_structure: ThrowFollow::ComponentGreedy,
            throw_compare: ThrowCompare::LargestComponent,
            all_components_holder: HolderArrangement::First,
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
