//! Trick machinery shared by the Shengji family and Hong Wu: lead legality and the throw check
//! ([`lead`]), following ([`follow`]) and the trick winner ([`winner`]).
//!
//! Everything here works on a [`TrickRules`]: one deal's [`CardOrder`] (effective suits, strength
//! indices, adjacency), the number of decks and the play options in a game-neutral form. Each game
//! maps its own option names onto these enums, so the rules themselves are written once; nothing
//! here knows a game. Rule references are to `shared/rules/shengji.md` (§4–§6)
//! and `shared/rules/hongwu.md` (§B.6–§B.9).
//!
//! Hands, leads and plays are [`Multiset`]s; nothing in the hot paths allocates (fixed arrays,
//! bit masks over strength indices).
//!
//! Typical use by a deal state machine:
//!
//! 1. once per deal: the game builds a [`TrickRules`] from its options (Shengji:
//!    `PlayOptions::trick_rules_at`; Hong Wu: `HongWuRules::trick_rules`);
//! 2. lead: [`check_lead`] (structure, with the reason) → a [`crate::tricks::combos::Format`]; for a
//!    throw, [`check_throw`] against the other hands gives the cards actually led
//!    ([`ThrowResult::played`]); re-decompose those for the trick's format. Policies can list
//!    single-unit leads with [`lead_candidates`].
//! 3. follows: [`FollowMoves::new`] then `check` / `enumerate` / `count` / `sample`.
//! 4. [`trick_winner`] on the plays (lead first); the game's kitty multiplier after the last trick.
//!
//! Hong Wu (hongwu.md §B.6–§B.9) maps onto these enums: its own [`CardOrder`] (built with
//! `CardOrder::empty`, `place`, `set_link`); `trump_throw_allowed = false`;
//! `throw_check` `component | literal` → [`ThrowCheck`]; `failed_throw_play` `lowest_card` →
//! [`ForcedPlay::SmallestCard`], `lowest_beatable_component` → [`ForcedPlay::LowestBeaten`];
//! `throw_compare` `max_card` → [`ThrowCompare::HighestCard`], `highest_component` →
//! [`ThrowCompare::LargestComponent`]; `follow_shape_obligation` → [`ShapeObligation`];
//! "a play of a different shape loses" → [`ShapeMatch::Exact`]; "a tractor of equal length,
//! otherwise as many pairs as possible" → `partial_tractor_follow = false`.

pub mod building;
pub mod combos;
pub mod follow;
pub mod lead;
pub mod lead_candidates;
pub mod order;
pub mod rules;
pub mod winner;

pub use combos::Decomposition;
pub use follow::{check_follow, sample_follow, structure_score, FollowError, FollowMoves};
pub use lead::{
    check_lead, check_lead_into, check_throw, for_each_unit_lead, LeadError, ThrowResult,
};
pub use rules::{
    ForcedPlay, HolderArrangement, ShapeMatch, ShapeObligation, ThrowCheck, ThrowCompare,
    ThrowFollow, ThrowScope, TrickRules,
};
pub use winner::{trick_winner, trick_winner_of};
