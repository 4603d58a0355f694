//! Shuffling and dealing: plain deals, and deals under constraints (fixed cards, cards known to
//! be in the kitty, voids): the known cards placed, the rest dealt exactly uniformly.
//!
//! # Model
//!
//! A deck is 1–4 full decks, with or without the two jokers. Copies of one kind are physically
//! distinct cards, so "uniform" means every assignment of the physical cards to hands and kitty is
//! equally likely — the distribution of a fair shuffle. A [`DealShape`] gives the deck and the
//! sizes: N hands (sizes may differ, e.g. Baohuang 43/43/43/43/44) and a kitty (底牌, may be 0).
//!
//! Randomness always comes from the caller's generator. Deal `i` of a batch seeded with `s` uses
//! [`crate::deal::deal_rng`]`(s, i)`, the one source of per-deal generators, so a deal is
//! reproducible from `(s, i)` alone.
//!
//! # Constraints
//!
//! [`Constraints`] say what is known (what a player sees, or what play has revealed):
//! * `fixed[h]`: these (physical) cards are in hand `h`; the hand may hold further copies of the
//!   same kinds unless it is void in them;
//! * `kitty`: these cards are in the kitty;
//! * `voids[h]`: hand `h` holds no card whose kind is in this [`CardSet`] mask — game code passes
//!   an effective-suit mask (e.g. all trumps) when a player failed to follow.
//!
//! [`ConstrainedDealer`] is built once per constraint set and then draws any number of deals:
//! the fixed (and kitty) cards are placed, and the remaining cards are dealt uniformly among the
//! deals consistent with the rest (open places, voids). That is the posterior of a fair shuffle
//! given that *these physical cards* were seen in those places — a seat's own hand, cards exposed
//! by play — which is what Monte Carlo evaluation conditions on. It is not conditioning on "the
//! hand holds at least these kinds": with 2 decks, `fixed[0] = AS` and 25-card hands, hand 0 gets
//! the second AS with probability 24/107 (its 24 open places among the 107 unplaced cards'
//! places), not the ≈0.126 of the deals in which hand 0 holds at least one AS. It is exact — no
//! rejection sampling:
//!
//! 1. The fixed cards are placed; every hand and the kitty keeps some *open places*.
//! 2. The remaining *free* cards are grouped by the set of places allowed to take them (a kind is
//!    barred from a hand void in it). Places with the same allowed groups are merged into one
//!    *type*: within a type, the split of its cards among members is a plain uniform split.
//! 3. A dynamic programme over the constrained groups counts the completions: the state is how
//!    many constrained cards each type has taken; a group's cards are spread over its allowed
//!    types one type at a time with binomial weights (which of the group's remaining cards), and
//!    the group allowed everywhere is counted in closed form (a multinomial) at the end. Tables are
//!    rescaled so that 216-card decks neither overflow nor underflow.
//! 4. A deal samples the counts type by type from the tables, then shuffles within groups (and
//!    within merged types) to pick which physical cards go where.
//!
//! With no voids there is one group and one type: a deal is one shuffle and a cut (the fast path).
//!
//! Cost: the tables have one dimension per type (size ≤ its open places + 1) and one table per
//! (constrained group, allowed type) step. One player's view with a few voids is small (2 decks,
//! two voids: ~3 ms to build, microseconds per deal; see BENCHMARKS.md). Many distinct void
//! patterns over large unknown hands (e.g. all four hands of a 2-deck deal void in different
//! suits, nothing fixed) exceed [`MAX_TABLE_ENTRIES`] and are refused with
//! [`ZhipaiError::InvalidValue`] rather than approximated.

use crate::cards::{Card, CardSet, NUM_KINDS};
use crate::error::{Result, ZhipaiError};
use crate::multiset::{Multiset, MAX_COPIES};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The generator of deal `index` in a run seeded with `seed`: ChaCha8 keyed by `seed`, on stream
/// `index` (independent streams, reproducible from `(seed, index)` alone).
pub fn deal_rng(seed: u64, index: u64) -> ChaCha8Rng {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}
use std::sync::OnceLock;

/// Most hands a deal may have.
pub const MAX_HANDS: usize = 16;

/// Most cards in a deck (4 decks with jokers).
pub const MAX_DECK: usize = MAX_COPIES * NUM_KINDS;

/// Places a card can go: the hands and the kitty.
const MAX_PLACES: usize = MAX_HANDS + 1;

/// Largest dynamic-programme table (states × steps, `f64` entries) a constraint set may need.
/// Realistic constraint sets (a few voids seen by one player) stay far below; only many distinct
/// void patterns over large unknown hands reach it.
pub const MAX_TABLE_ENTRIES: usize = 1 << 23;

/// The deck and the sizes of a deal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DealShape {
    decks: usize,
    jokers: bool,
    hand_sizes: Vec<usize>,
    kitty: usize,
}

impl DealShape {
    /// `decks` full decks (with both jokers each when `jokers`) dealt into hands of `hand_sizes`
    /// and a kitty of `kitty` cards.
    ///
    /// Errors ([`ZhipaiError::InvalidValue`]): `decks` outside 1..=4, no hands or more than
    /// [`MAX_HANDS`], a hand of size 0, or sizes that do not add up to the deck size (the message
    /// gives the numbers).
    pub fn new(decks: usize, jokers: bool, hand_sizes: &[usize], kitty: usize) -> Result<Self> {
        if !(1..=MAX_COPIES).contains(&decks) {
            return Err(ZhipaiError::invalid_value("decks", decks, "expected 1 to 4 decks"));
        }
        if hand_sizes.is_empty() || hand_sizes.len() > MAX_HANDS {
            return Err(ZhipaiError::invalid_value(
                "number of hands",
                hand_sizes.len(),
                format!("expected 1 to {MAX_HANDS} hands"),
            ));
        }
        if let Some(h) = hand_sizes.iter().position(|&s| s == 0) {
            return Err(ZhipaiError::invalid_value(
                "hand size",
                0,
                format!("hand {h} must hold at least one card"),
            ));
        }
        let shape = DealShape { decks, jokers, hand_sizes: hand_sizes.to_vec(), kitty };
        let dealt: usize = hand_sizes.iter().sum::<usize>() + kitty;
        if dealt != shape.deck_size() {
            return Err(ZhipaiError::invalid_value(
                "deal sizes",
                format!("{} = {dealt} cards", shape.describe_sizes()),
                format!(
                    "hands and kitty must add up to the deck size {} ({decks} deck{} {} jokers)",
                    shape.deck_size(),
                    if decks == 1 { "" } else { "s" },
                    if jokers { "with" } else { "without" }
                ),
            ));
        }
        Ok(shape)
    }

    /// `hands` hands of `hand_size` cards each plus a kitty of `kitty` (see [`DealShape::new`]).
    pub fn equal(
        decks: usize,
        jokers: bool,
        hands: usize,
        hand_size: usize,
        kitty: usize,
    ) -> Result<Self> {
        if hands == 0 || hands > MAX_HANDS {
            return Err(ZhipaiError::invalid_value(
                "number of hands",
                hands,
                format!("expected 1 to {MAX_HANDS} hands"),
            ));
        }
        DealShape::new(decks, jokers, &vec![hand_size; hands], kitty)
    }

    pub fn decks(&self) -> usize {
        self.decks
    }

    pub fn jokers(&self) -> bool {
        self.jokers
    }

    pub fn hand_sizes(&self) -> &[usize] {
        &self.hand_sizes
    }

    pub fn num_hands(&self) -> usize {
        self.hand_sizes.len()
    }

    pub fn kitty(&self) -> usize {
        self.kitty
    }

    /// Number of cards in the deck: `decks × 54` (or `× 52` without jokers).
    pub fn deck_size(&self) -> usize {
        self.decks * if self.jokers { NUM_KINDS } else { 52 }
    }

    /// The whole deck as a multiset.
    pub fn deck(&self) -> Multiset {
        let kinds = if self.jokers { CardSet::ALL } else { CardSet::SUITED };
        let mut m = Multiset::EMPTY;
        for _ in 0..self.decks {
            for c in kinds {
                m.add(c);
            }
        }
        m
    }

    /// "4 hands of 25 + kitty 8" or "hands 43+43+43+43+44 + kitty 0".
    fn describe_sizes(&self) -> String {
        let first = self.hand_sizes[0];
        let hands = if self.hand_sizes.iter().all(|&s| s == first) {
            let n = self.hand_sizes.len();
            format!("{n} hand{} of {first}", if n == 1 { "" } else { "s" })
        } else {
            let sizes: Vec<String> = self.hand_sizes.iter().map(|s| s.to_string()).collect();
            format!("hands {}", sizes.join("+"))
        };
        format!("{hands} + kitty {}", self.kitty)
    }

    /// Size of place `p` (hands `0..N`, then the kitty at `N`).
    fn place_size(&self, p: usize) -> usize {
        self.hand_sizes.get(p).copied().unwrap_or(self.kitty)
    }
}

/// One deal: the hands (in seat order) and the kitty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Deal {
    pub hands: Vec<Multiset>,
    pub kitty: Multiset,
}

impl Deal {
    /// All cards of the deal (the deck).
    pub fn all_cards(&self) -> Multiset {
        let mut m = self.kitty;
        for h in &self.hands {
            for c in h.iter() {
                m.add(c);
            }
        }
        m
    }

    /// Write the count matrix: row `h` = counts of hand `h` per kind (54 columns, kind index
    /// order), last row = the kitty. `out.len()` must be `(hands + 1) * 54`.
    pub fn write_counts(&self, out: &mut [u8]) {
        debug_assert_eq!(out.len(), (self.hands.len() + 1) * NUM_KINDS);
        for (row, m) in out.chunks_exact_mut(NUM_KINDS).zip(self.hands.iter().chain([&self.kitty]))
        {
            row.copy_from_slice(&m.counts());
        }
    }

    /// Place `p` (hands `0..N`, then the kitty).
    fn place(&self, p: usize) -> &Multiset {
        self.hands.get(p).unwrap_or(&self.kitty)
    }

    /// Place `p`, mutably.
    fn place_mut(&mut self, p: usize) -> &mut Multiset {
        if p < self.hands.len() {
            &mut self.hands[p]
        } else {
            &mut self.kitty
        }
    }
}

/// Shuffle `cards` in place (Fisher–Yates with the caller's generator).
pub fn shuffle<R: Rng + ?Sized>(cards: &mut [Card], rng: &mut R) {
    cards.shuffle(rng);
}

/// The deck of `shape` in random order (e.g. for games that deal one card at a time and let
/// players declare during the deal).
pub fn shuffled_deck<R: Rng + ?Sized>(shape: &DealShape, rng: &mut R) -> Vec<Card> {
    let mut cards = shape.deck().to_vec();
    cards.shuffle(rng);
    cards
}

/// A uniformly random deal of `shape` (no constraints): one shuffle and a cut.
pub fn deal<R: Rng + ?Sized>(shape: &DealShape, rng: &mut R) -> Deal {
    let mut buf = [Card::BIG_JOKER; MAX_DECK];
    let deck = shape.deck();
    let n = deck.len();
    for (slot, c) in buf.iter_mut().zip(deck.iter()) {
        *slot = c;
    }
    let cards = &mut buf[..n];
    cards.shuffle(rng);
    let mut out = Deal { hands: vec![Multiset::EMPTY; shape.num_hands()], kitty: Multiset::EMPTY };
    let mut pos = 0;
    for p in 0..=shape.num_hands() {
        let size = shape.place_size(p);
        let place = out.place_mut(p);
        for &c in &cards[pos..pos + size] {
            place.add(c);
        }
        pos += size;
    }
    out
}

/// What is known about a deal (see the module docs). Vectors shorter than the number of hands
/// leave the remaining hands unconstrained.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// `fixed[h]`: cards known to be in hand `h`.
    pub fixed: Vec<Multiset>,
    /// Cards known to be in the kitty.
    pub kitty: Multiset,
    /// `voids[h]`: kinds hand `h` holds none of.
    pub voids: Vec<CardSet>,
}

impl Constraints {
    /// No constraints.
    pub fn new() -> Self {
        Constraints::default()
    }

    /// Set the cards known to be in hand `hand` (replacing earlier ones): these physical cards
    /// are placed there; the hand's other places are dealt like any open place, so they may
    /// receive further copies of the same kinds (module docs).
    pub fn fix_hand(mut self, hand: usize, cards: Multiset) -> Self {
        if self.fixed.len() <= hand {
            self.fixed.resize(hand + 1, Multiset::EMPTY);
        }
        self.fixed[hand] = cards;
        self
    }

    /// Set the cards known to be in the kitty.
    pub fn in_kitty(mut self, cards: Multiset) -> Self {
        self.kitty = cards;
        self
    }

    /// Add a void: hand `hand` holds no card whose kind is in `mask`.
    pub fn void(mut self, hand: usize, mask: CardSet) -> Self {
        if self.voids.len() <= hand {
            self.voids.resize(hand + 1, CardSet::EMPTY);
        }
        self.voids[hand] = self.voids[hand] | mask;
        self
    }

    fn fixed_in(&self, hand: usize) -> Multiset {
        self.fixed.get(hand).copied().unwrap_or(Multiset::EMPTY)
    }

    fn void_of(&self, hand: usize) -> CardSet {
        self.voids.get(hand).copied().unwrap_or(CardSet::EMPTY)
    }
}

/// Free cards allowed into the same places; `types` is the bitmask of allowed types.
#[derive(Clone, Debug)]
struct Group {
    start: usize,
    len: usize,
    types: u32,
}

/// Places (hands / kitty) allowed the same groups. `members[i]` takes `open[i]` free cards.
#[derive(Clone, Debug)]
struct PlaceType {
    members: Vec<usize>,
    open: Vec<usize>,
    /// Total open places of the members.
    cap: usize,
    /// First slot of this type's segment in the per-deal buffer.
    seg_start: usize,
}

/// One step of the dynamic programme: send some of one constrained group's cards to type `ty`.
#[derive(Clone, Debug)]
struct Step {
    ty: usize,
    /// Last step of its group: takes all remaining cards of the group.
    last: bool,
    /// Constrained cards in this step's group and the groups before it.
    upto: usize,
}

/// The counting tables of the constrained groups (absent on the fast path).
#[derive(Clone, Debug)]
struct Plan {
    /// Per type: number of values of "constrained cards taken so far" (`0..dims[t]`).
    dims: Vec<usize>,
    strides: Vec<usize>,
    steps: Vec<Step>,
    /// `tables[s]`: relative number of completions from each state before step `s`;
    /// `tables[steps.len()]` counts the unconstrained group's placements.
    tables: Vec<Vec<f64>>,
}

/// Places the known cards of a [`Constraints`] and deals the rest uniformly among the consistent
/// deals (module docs). Build once,
/// then call [`ConstrainedDealer::deal`] or [`ConstrainedDealer::deal_into`] many times.
#[derive(Clone, Debug)]
pub struct ConstrainedDealer {
    shape: DealShape,
    /// The fixed cards in their places.
    base: Deal,
    /// Free cards, group by group (the unconstrained group last).
    free: Vec<Card>,
    groups: Vec<Group>,
    /// Number of groups handled by the tables (all but a final unconstrained group).
    constrained: usize,
    types: Vec<PlaceType>,
    plan: Option<Plan>,
}

impl ConstrainedDealer {
    /// Check `constraints` against `shape` and precompute the sampler.
    ///
    /// Errors:
    /// * [`ZhipaiError::InvalidValue`]: constraints for a hand the deal does not have; or a
    ///   constraint set whose counting table would exceed [`MAX_TABLE_ENTRIES`].
    /// * [`ZhipaiError::ImpossibleDeal`], naming the constraint: more fixed cards than a hand (or
    ///   the kitty) holds; a card fixed more often than the deck has copies; a card fixed in a hand
    ///   void in it; free cards no place may take; voids that leave some places unfillable.
    pub fn new(shape: &DealShape, constraints: &Constraints) -> Result<Self> {
        let n = shape.num_hands();
        for (what, len) in [("fixed", constraints.fixed.len()), ("voids", constraints.voids.len())]
        {
            if len > n {
                return Err(ZhipaiError::invalid_value(
                    format!("{what} hand"),
                    len - 1,
                    format!("the deal has {n} hands (0 to {})", n - 1),
                ));
            }
        }
        let base = place_fixed(shape, constraints)?;
        let open: Vec<usize> = (0..=n).map(|p| shape.place_size(p) - base.place(p).len()).collect();
        let mut free_set = shape.deck();
        free_set.remove_all(&base.all_cards())?; // cannot fail: place_fixed checked the copies

        // Allowed places of each free kind (only places with open room count).
        let void_of = |p: usize| if p < n { constraints.void_of(p) } else { CardSet::EMPTY };
        let mut by_mask: Vec<(u32, Vec<Card>)> = Vec::new();
        for c in free_set.kinds() {
            let allowed = (0..=n)
                .filter(|&p| open[p] > 0 && !void_of(p).contains(c))
                .fold(0u32, |m, p| m | 1 << p);
            if allowed == 0 {
                return Err(ZhipaiError::impossible_deal(format!(
                    "{} free cop{} of {c} ha{} no place: every hand with open places is void in it \
                     and the kitty is full",
                    free_set.count(c),
                    if free_set.count(c) == 1 { "y" } else { "ies" },
                    if free_set.count(c) == 1 { "s" } else { "ve" },
                )));
            }
            let copies = std::iter::repeat_n(c, free_set.count(c));
            match by_mask.iter_mut().find(|(m, _)| *m == allowed) {
                Some((_, cards)) => cards.extend(copies),
                None => by_mask.push((allowed, copies.collect())),
            }
        }
        let active = (0..=n).filter(|&p| open[p] > 0).fold(0u32, |m, p| m | 1 << p);
        // The group allowed everywhere goes last: it is counted in closed form.
        by_mask.sort_by_key(|(m, _)| *m == active);

        // Places allowed the same groups form one type.
        let mut types: Vec<(u64, PlaceType)> = Vec::new();
        for p in (0..=n).filter(|&p| open[p] > 0) {
            let pattern = by_mask
                .iter()
                .enumerate()
                .filter(|(_, (m, _))| m & (1 << p) != 0)
                .fold(0u64, |acc, (g, _)| acc | 1 << g);
            match types.iter_mut().find(|(pat, _)| *pat == pattern) {
                Some((_, t)) => {
                    t.members.push(p);
                    t.open.push(open[p]);
                    t.cap += open[p];
                }
                None => types.push((
                    pattern,
                    PlaceType { members: vec![p], open: vec![open[p]], cap: open[p], seg_start: 0 },
                )),
            }
        }
        let mut seg = 0;
        for (_, t) in types.iter_mut() {
            t.seg_start = seg;
            seg += t.cap;
        }

        let mut free = Vec::new();
        let mut groups = Vec::new();
        for (g, (_, cards)) in by_mask.iter().enumerate() {
            let allowed = types
                .iter()
                .enumerate()
                .filter(|(_, (pat, _))| pat & (1 << g) != 0)
                .fold(0u32, |acc, (t, _)| acc | 1 << t);
            groups.push(Group { start: free.len(), len: cards.len(), types: allowed });
            free.extend_from_slice(cards);
        }
        let types: Vec<PlaceType> = types.into_iter().map(|(_, t)| t).collect();
        check_room(&groups, &types, n)?;

        let all_types = (1u32 << types.len()) - 1;
        let constrained =
            groups.iter().take_while(|g| g.types != all_types).count().min(groups.len());
        let plan = if constrained == 0 { None } else { Some(build_plan(&groups[..], &types)?) };
        Ok(ConstrainedDealer { shape: shape.clone(), base, free, groups, constrained, types, plan })
    }

    /// The shape this dealer deals.
    pub fn shape(&self) -> &DealShape {
        &self.shape
    }

    /// Number of cards not fixed by the constraints.
    pub fn free_cards(&self) -> usize {
        self.free.len()
    }

    /// Whether dealing is one shuffle and a cut (no void splits the free cards).
    pub fn is_fast_path(&self) -> bool {
        self.plan.is_none()
    }

    /// Draw one deal.
    pub fn deal<R: Rng + ?Sized>(&self, rng: &mut R) -> Deal {
        let mut out = Deal::default();
        self.deal_into(rng, &mut out);
        out
    }

    /// Draw one deal into `out` (reusing its storage: no allocation after the first call).
    pub fn deal_into<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut Deal) {
        out.hands.clear();
        out.hands.extend_from_slice(&self.base.hands);
        out.kitty = self.base.kitty;

        // Cards destined for each type, type by type (segments of `placed`).
        let mut placed = [Card::BIG_JOKER; MAX_DECK];
        let mut scratch = [Card::BIG_JOKER; MAX_DECK];
        let mut taken = [0usize; MAX_PLACES];
        let mut sources = [0u8; MAX_PLACES];

        let mut state = 0usize;
        let mut step = 0usize;
        for (g, group) in self.groups.iter().enumerate() {
            let cards = &mut scratch[..group.len];
            cards.copy_from_slice(&self.free[group.start..group.start + group.len]);
            cards.shuffle(rng);
            let mut pos = 0;
            for t in 0..self.types.len() {
                if group.types & (1 << t) == 0 {
                    continue;
                }
                let x = if g < self.constrained {
                    let plan = self.plan.as_ref().expect("constrained groups have a plan");
                    let x = plan.sample(step, &taken, state, rng);
                    state += x * plan.strides[t];
                    step += 1;
                    x
                } else {
                    // The unconstrained group fills what is left of every type.
                    self.types[t].cap - taken[t]
                };
                let start = self.types[t].seg_start + taken[t];
                placed[start..start + x].copy_from_slice(&cards[pos..pos + x]);
                pos += x;
                taken[t] += x;
                sources[t] += (x > 0) as u8;
            }
            debug_assert_eq!(pos, group.len);
        }

        for (t, ty) in self.types.iter().enumerate() {
            let seg = &mut placed[ty.seg_start..ty.seg_start + ty.cap];
            // Cards from one shuffled group are already in random order; cards from several
            // groups must be mixed before the members split them.
            if ty.members.len() > 1 && sources[t] > 1 {
                seg.shuffle(rng);
            }
            let mut pos = 0;
            for (&p, &k) in ty.members.iter().zip(&ty.open) {
                let place = out.place_mut(p);
                for &c in &seg[pos..pos + k] {
                    place.add(c);
                }
                pos += k;
            }
        }
    }
}

/// The fixed cards in their places, after checking them against sizes, copies and voids.
fn place_fixed(shape: &DealShape, constraints: &Constraints) -> Result<Deal> {
    let n = shape.num_hands();
    let mut base = Deal { hands: vec![Multiset::EMPTY; n], kitty: constraints.kitty };
    for h in 0..n {
        base.hands[h] = constraints.fixed_in(h);
        let (k, size) = (base.hands[h].len(), shape.hand_sizes[h]);
        if k > size {
            return Err(ZhipaiError::impossible_deal(format!(
                "hand {h} has {k} fixed cards but holds only {size}"
            )));
        }
        let clash = base.hands[h].kinds() & constraints.void_of(h);
        if let Some(c) = clash.first() {
            return Err(ZhipaiError::impossible_deal(format!(
                "hand {h} is void in {c} but {c} is fixed in it"
            )));
        }
    }
    if base.kitty.len() > shape.kitty {
        return Err(ZhipaiError::impossible_deal(format!(
            "{} cards are known to be in the kitty but it holds only {}",
            base.kitty.len(),
            shape.kitty
        )));
    }
    let deck = shape.deck();
    for c in Card::all() {
        let mut total = 0;
        let mut wheres = Vec::new();
        for p in 0..=n {
            let k = base.place(p).count(c);
            if k > 0 {
                total += k;
                let name = if p < n { format!("hand {p}") } else { "kitty".to_string() };
                wheres.push(format!("{name} ×{k}"));
            }
        }
        if total > deck.count(c) {
            let has = match deck.count(c) {
                0 => format!("the deck has no {c}"),
                1 => "the deck has 1 copy".to_string(),
                k => format!("the deck has {k} copies"),
            };
            return Err(ZhipaiError::impossible_deal(format!(
                "{c} is fixed {total} times ({}) but {has}",
                wheres.join(", ")
            )));
        }
    }
    Ok(base)
}

/// Names of the places of the types in `mask`: "hand 1, hand 3 and the kitty" (place `n` is the
/// kitty).
fn place_names(types: &[PlaceType], mask: u32, n: usize) -> String {
    let mut places: Vec<usize> = types
        .iter()
        .enumerate()
        .filter(|(t, _)| mask & (1 << t) != 0)
        .flat_map(|(_, ty)| ty.members.iter().copied())
        .collect();
    places.sort_unstable();
    let mut out = String::new();
    for (i, &p) in places.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == places.len() { " and " } else { ", " });
        }
        if p == n {
            out.push_str("the kitty");
        } else {
            let _ = write!(out, "hand {p}");
        }
    }
    out
}

/// Hall's condition for the free cards: for every set `U` of types, the cards allowed only into
/// `U` fit into `U`'s open places (with equal totals this is exactly "some deal exists").
fn check_room(groups: &[Group], types: &[PlaceType], n: usize) -> Result<()> {
    let all = (1u32 << types.len()) - 1;
    let cap = |mask: u32| -> usize {
        types.iter().enumerate().filter(|(t, _)| mask & (1 << t) != 0).map(|(_, t)| t.cap).sum()
    };
    let only_into = |mask: u32| -> usize {
        groups.iter().filter(|g| g.types & !mask == 0).map(|g| g.len).sum()
    };
    let total: usize = groups.iter().map(|g| g.len).sum();
    // Prefer the clearest message: one type that cannot be filled.
    let mut worst: Option<u32> = None;
    for u in 1..all {
        if only_into(u) > cap(u) {
            let rest = all & !u;
            if rest.count_ones() == 1 {
                worst = Some(u);
                break;
            }
            worst.get_or_insert(u);
        }
    }
    let Some(u) = worst else { return Ok(()) };
    let rest = all & !u;
    let into_rest = total - only_into(u);
    Err(ZhipaiError::impossible_deal(format!(
        "voids leave {} with {} open places but only {into_rest} free cards they are not void in \
         (the other {} free cards fit only in {}, with {} open places)",
        place_names(types, rest, n),
        cap(rest),
        only_into(u),
        place_names(types, u, n),
        cap(u)
    )))
}

impl Plan {
    /// Draw how many cards step `s` sends to its type, given the types' `taken` counts and the
    /// table index `state` of those counts.
    fn sample<R: Rng + ?Sized>(
        &self,
        s: usize,
        taken: &[usize],
        state: usize,
        rng: &mut R,
    ) -> usize {
        let step = &self.steps[s];
        let t = step.ty;
        let sum: usize = taken[..self.dims.len()].iter().sum();
        let rem = step.upto - sum;
        if step.last {
            return rem;
        }
        let next = &self.tables[s + 1];
        let stride = self.strides[t];
        let hi = rem.min(self.dims[t] - 1 - taken[t]);
        let weight = |x: usize| binomial(rem, x) * next[state + x * stride];
        let total: f64 = (0..=hi).map(weight).sum();
        let target = rng.random::<f64>() * total;
        let mut acc = 0.0;
        let mut last_possible = 0;
        for x in 0..=hi {
            let w = weight(x);
            if w > 0.0 {
                acc += w;
                last_possible = x;
                if acc > target {
                    return x;
                }
            }
        }
        last_possible // rounding left `target` at the very top
    }
}

/// Build the counting tables for the constrained groups (all groups but a final one allowed
/// everywhere). State = constrained cards taken so far by each type, as a mixed-radix index.
fn build_plan(groups: &[Group], types: &[PlaceType]) -> Result<Plan> {
    let all_types = (1u32 << types.len()) - 1;
    let constrained: Vec<&Group> = groups.iter().take_while(|g| g.types != all_types).collect();
    let n_free: usize = groups[constrained.len()..].iter().map(|g| g.len).sum();

    // A type can take at most its room, and at most the constrained cards allowed into it.
    let dims: Vec<usize> = (0..types.len())
        .map(|t| {
            let allowed: usize =
                constrained.iter().filter(|g| g.types & (1 << t) != 0).map(|g| g.len).sum();
            allowed.min(types[t].cap) + 1
        })
        .collect();
    let mut strides = vec![1usize; types.len()];
    for t in 1..types.len() {
        strides[t] = strides[t - 1] * dims[t - 1];
    }
    let states: usize = dims.iter().product();

    let mut steps = Vec::new();
    let mut upto = 0;
    for group in &constrained {
        upto += group.len;
        let allowed: Vec<usize> =
            (0..types.len()).filter(|t| group.types & (1 << t) != 0).collect();
        for (i, &t) in allowed.iter().enumerate() {
            steps.push(Step { ty: t, last: i + 1 == allowed.len(), upto });
        }
    }
    let entries = states.saturating_mul(steps.len() + 1);
    if entries > MAX_TABLE_ENTRIES {
        return Err(ZhipaiError::invalid_value(
            "deal constraints",
            format!("{} void patterns over {} free cards", constrained.len(), upto + n_free),
            format!(
                "exact dealing would need {entries} table entries (limit {MAX_TABLE_ENTRIES}); \
                 merge voids or fix more cards"
            ),
        ));
    }

    // Per state: the digits (cards taken per type) and their sum.
    let digit = |idx: usize, t: usize| (idx / strides[t]) % dims[t];
    let sums: Vec<usize> =
        (0..states).map(|i| (0..types.len()).map(|t| digit(i, t)).sum()).collect();

    // End table: ways to place the unconstrained group given what each type still has open.
    let lf = ln_factorials();
    let mut end = vec![0.0f64; states];
    let mut logs = vec![f64::NEG_INFINITY; states];
    for (i, log) in logs.iter_mut().enumerate() {
        if sums[i] != upto {
            continue;
        }
        let mut l = lf[n_free];
        for (t, ty) in types.iter().enumerate() {
            l -= lf[ty.cap - digit(i, t)];
        }
        *log = l;
    }
    let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max.is_finite() {
        for (e, l) in end.iter_mut().zip(&logs) {
            *e = (l - max).exp();
        }
    }

    let mut tables = vec![end];
    for step in steps.iter().rev() {
        let next = tables.last().expect("end table");
        let (t, stride) = (step.ty, strides[step.ty]);
        let mut cur = vec![0.0f64; states];
        for (i, value) in cur.iter_mut().enumerate() {
            let Some(rem) = step.upto.checked_sub(sums[i]) else { continue };
            let room = dims[t] - 1 - digit(i, t);
            *value = if step.last {
                if rem <= room {
                    next[i + rem * stride]
                } else {
                    0.0
                }
            } else {
                (0..=rem.min(room)).map(|x| binomial(rem, x) * next[i + x * stride]).sum()
            };
        }
        // Rescale: only ratios within one table are used.
        let max = cur.iter().copied().fold(0.0, f64::max);
        if max > 0.0 {
            cur.iter_mut().for_each(|v| *v /= max);
        }
        tables.push(cur);
    }
    tables.reverse();
    debug_assert!(tables[0][0] > 0.0, "check_room guarantees a completion");
    Ok(Plan { dims, strides, steps, tables })
}

/// `ln(k!)` for k in 0..=MAX_DECK.
fn ln_factorials() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0.0f64; MAX_DECK + 1];
        for k in 1..=MAX_DECK {
            t[k] = t[k - 1] + (k as f64).ln();
        }
        t
    })
}

/// `C(n, k)` as `f64` (exact up to 2^53, at most ~1e64 for n ≤ 216).
fn binomial(n: usize, k: usize) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let w = MAX_DECK + 1;
        let mut t = vec![0.0f64; w * w];
        for n in 0..w {
            t[n * w] = 1.0;
            for k in 1..=n {
                t[n * w + k] =
                    t[(n - 1) * w + k - 1] + if k < n { t[(n - 1) * w + k] } else { 0.0 };
            }
        }
        t
    });
    t[n * (MAX_DECK + 1) + k]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::deal::deal_rng;
    use proptest::prelude::*;
    use rand::Rng;
    use std::collections::HashMap;

    fn ms(s: &str) -> Multiset {
        s.parse().unwrap()
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn err_text(r: Result<impl std::fmt::Debug>) -> String {
        r.unwrap_err().to_string()
    }

    /// Every constraint holds and the deal is exactly the deck.
    fn assert_consistent(shape: &DealShape, c: &Constraints, d: &Deal) {
        assert_eq!(d.all_cards(), shape.deck(), "cards conserved");
        assert_eq!(d.hands.len(), shape.num_hands());
        for (h, hand) in d.hands.iter().enumerate() {
            assert_eq!(hand.len(), shape.hand_sizes()[h], "size of hand {h}");
            assert!(hand.contains_all(&c.fixed_in(h)), "hand {h} holds its fixed cards");
            assert!((hand.kinds() & c.void_of(h)).is_empty(), "hand {h} respects its void");
        }
        assert_eq!(d.kitty.len(), shape.kitty());
        assert!(d.kitty.contains_all(&c.kitty), "kitty holds its known cards");
    }

    #[test]
    fn shape_errors_name_the_numbers() {
        assert!(err_text(DealShape::equal(0, true, 4, 25, 8)).contains("decks 0"));
        assert!(err_text(DealShape::equal(5, true, 4, 25, 8)).contains("decks 5"));
        assert!(err_text(DealShape::equal(2, true, 0, 25, 8)).contains("hands 0"));
        assert!(err_text(DealShape::equal(2, true, 1000, 25, 8)).contains("hands 1000"));
        assert!(err_text(DealShape::new(2, true, &[54, 0, 54], 0)).contains("hand 1"));
        let e = err_text(DealShape::equal(2, true, 4, 25, 6));
        assert!(e.contains("4 hands of 25 + kitty 6 = 106") && e.contains("108"), "{e}");
        let e = err_text(DealShape::new(4, true, &[43, 43, 43, 43, 43], 0));
        assert!(e.contains("5 hands of 43 + kitty 0 = 215") && e.contains("216"), "{e}");
        let e = err_text(DealShape::new(4, true, &[43, 43, 43, 43, 45], 0));
        assert!(e.contains("hands 43+43+43+43+45 + kitty 0 = 217"), "{e}");
        assert!(DealShape::new(4, true, &[43, 43, 43, 43, 44], 0).is_ok());
        assert!(DealShape::equal(1, false, 4, 13, 0).is_ok());
    }

    #[test]
    fn deal_i_is_reproducible_from_seed_and_index() {
        let shape = DealShape::equal(2, true, 4, 25, 8).unwrap();
        let a = deal(&shape, &mut deal_rng(7, 3));
        assert_eq!(a, deal(&shape, &mut deal_rng(7, 3)));
        assert_ne!(a, deal(&shape, &mut deal_rng(7, 4)));
        assert_ne!(a, deal(&shape, &mut deal_rng(8, 3)));
        let dealer = ConstrainedDealer::new(&shape, &Constraints::new()).unwrap();
        assert!(dealer.is_fast_path());
        assert_eq!(dealer.deal(&mut deal_rng(7, 3)), dealer.deal(&mut deal_rng(7, 3)));
    }

    #[test]
    fn impossible_constraints_say_which() {
        let shape = DealShape::equal(1, true, 3, 17, 3).unwrap();
        let too_many = ms("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H 5H 6H");
        let e = err_text(ConstrainedDealer::new(&shape, &Constraints::new().fix_hand(1, too_many)));
        assert!(e.contains("hand 1 has 18 fixed cards but holds only 17"), "{e}");

        let twice = Constraints::new().fix_hand(0, ms("AS")).fix_hand(2, ms("AS"));
        let e = err_text(ConstrainedDealer::new(&shape, &twice));
        assert!(e.contains("AS is fixed 2 times (hand 0 ×1, hand 2 ×1)"), "{e}");
        assert!(e.contains("1 copy"), "{e}");

        let kitty = Constraints::new().in_kitty(ms("2C 3C 4C 5C"));
        let e = err_text(ConstrainedDealer::new(&shape, &kitty));
        assert!(e.contains("4 cards") && e.contains("holds only 3"), "{e}");

        let no_jokers = DealShape::equal(1, false, 4, 13, 0).unwrap();
        let e =
            err_text(ConstrainedDealer::new(&no_jokers, &Constraints::new().fix_hand(0, ms("SJ"))));
        assert!(e.contains("no SJ"), "{e}");

        let clash = Constraints::new().fix_hand(2, ms("5H")).void(2, Suit::Hearts.mask());
        let e = err_text(ConstrainedDealer::new(&shape, &clash));
        assert!(e.contains("hand 2 is void in 5H"), "{e}");

        // Everyone void in spades and the kitty too small for 13 spades.
        let all_void = (0..3).fold(Constraints::new(), |c, h| c.void(h, Suit::Spades.mask()));
        let e = err_text(ConstrainedDealer::new(&shape, &all_void));
        assert!(e.contains("the kitty") && e.contains("open places"), "{e}");

        // Hand 0 void in 3 suits and jokers: only 13 clubs left for 17 places.
        let mask =
            Suit::Spades.mask() | Suit::Hearts.mask() | Suit::Diamonds.mask() | CardSet::JOKERS;
        let e = err_text(ConstrainedDealer::new(&shape, &Constraints::new().void(0, mask)));
        assert!(e.contains("hand 0 with 17 open places but only 13 free cards"), "{e}");

        // A card no place may take: kitty full, every hand with room void in it.
        let small = DealShape::equal(1, true, 2, 26, 2).unwrap();
        let c = Constraints::new()
            .in_kitty(ms("2C 3C"))
            .void(0, CardSet::JOKERS)
            .void(1, CardSet::JOKERS);
        let e = err_text(ConstrainedDealer::new(&small, &c));
        assert!(e.contains("SJ") && e.contains("no place"), "{e}");

        let e =
            err_text(ConstrainedDealer::new(&shape, &Constraints::new().void(3, CardSet::JOKERS)));
        assert!(e.contains("voids hand 3") && e.contains("3 hands"), "{e}");
    }

    #[test]
    fn fully_fixed_deal_is_returned_as_is() {
        let shape = DealShape::equal(1, true, 2, 26, 2).unwrap();
        let d = deal(&shape, &mut deal_rng(1, 0));
        let c =
            Constraints::new().fix_hand(0, d.hands[0]).fix_hand(1, d.hands[1]).in_kitty(d.kitty);
        let dealer = ConstrainedDealer::new(&shape, &c).unwrap();
        assert_eq!(dealer.free_cards(), 0);
        assert_eq!(dealer.deal(&mut deal_rng(2, 0)), d);
    }

    #[test]
    fn four_deck_deal_with_voids_has_no_overflow() {
        // Baohuang-sized, 216 cards seen from seat 0 (its 43 cards fixed), two voids.
        let shape = DealShape::new(4, true, &[43, 43, 43, 43, 44], 0).unwrap();
        let viewer = deal(&shape, &mut deal_rng(3, 0)).hands[0];
        let c = Constraints::new()
            .fix_hand(0, viewer)
            .void(1, Suit::Spades.mask())
            .void(2, Suit::Hearts.mask() | CardSet::JOKERS);
        let dealer = ConstrainedDealer::new(&shape, &c).unwrap();
        assert!(!dealer.is_fast_path());
        let mut rng = deal_rng(3, 1);
        for _ in 0..20 {
            assert_consistent(&shape, &c, &dealer.deal(&mut rng));
        }
        // Many distinct voids over large unknown hands exceed the table limit: a clear error.
        let c = c.void(3, Suit::Clubs.mask()).void(4, Suit::Diamonds.mask());
        let e = err_text(ConstrainedDealer::new(&shape, &c));
        assert!(e.contains("table entries"), "{e}");
    }

    /// Constraints leaving exactly `free` cards open: the rest of the deck is fixed, filling the
    /// places in order so that place `p` keeps `open[p]` places.
    fn restricted(shape: &DealShape, free: &[Card], open: &[usize]) -> Constraints {
        let mut rest = shape.deck();
        rest.remove_all(&Multiset::from_cards(free).unwrap()).unwrap();
        let mut rest = rest.to_vec().into_iter();
        let n = shape.num_hands();
        let mut c = Constraints::new();
        for (p, &open_p) in open.iter().enumerate() {
            let fixed: Vec<Card> = rest.by_ref().take(shape.place_size(p) - open_p).collect();
            let fixed = Multiset::from_cards(&fixed).unwrap();
            c = if p < n { c.fix_hand(p, fixed) } else { c.in_kitty(fixed) };
        }
        assert_eq!(rest.next(), None);
        c
    }

    /// Exact probability of each deal: enumerate every assignment of the (labelled) free cards.
    fn exact_distribution(
        shape: &DealShape,
        c: &Constraints,
        free: &[Card],
        open: &[usize],
    ) -> HashMap<Deal, f64> {
        let places = open.len();
        let base = place_fixed(shape, c).unwrap();
        let mut counts: HashMap<Deal, f64> = HashMap::new();
        let mut total = 0.0;
        for code in 0..places.pow(free.len() as u32) {
            let mut code_left = code;
            let mut d = base.clone();
            let mut used = vec![0; places];
            let mut ok = true;
            for &card in free {
                let p = code_left % places;
                code_left /= places;
                used[p] += 1;
                ok &= p == shape.num_hands() || !c.void_of(p).contains(card);
                d.place_mut(p).add(card);
            }
            if ok && used == open {
                *counts.entry(d).or_default() += 1.0;
                total += 1.0;
            }
        }
        counts.values_mut().for_each(|v| *v /= total);
        counts
    }

    /// Pearson chi-square of `samples` draws against `exact`; panics if a draw is impossible.
    fn chi_square(exact: &HashMap<Deal, f64>, draws: impl Iterator<Item = Deal>) -> (f64, usize) {
        let mut seen: HashMap<Deal, f64> = HashMap::new();
        let mut n = 0.0;
        for d in draws {
            assert!(exact.contains_key(&d), "drew an inconsistent deal {d:?}");
            *seen.entry(d).or_default() += 1.0;
            n += 1.0;
        }
        let stat = exact
            .iter()
            .map(|(d, p)| {
                let e = p * n;
                let o = seen.get(d).copied().unwrap_or(0.0);
                (o - e) * (o - e) / e
            })
            .sum();
        (stat, exact.len() - 1)
    }

    /// Upper 0.05% point of chi-square with `df` degrees of freedom (Wilson–Hilferty).
    fn chi_square_limit(df: usize) -> f64 {
        let (k, z) = (df as f64, 3.29);
        k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
    }

    /// 8 free cards over 3 hands and the kitty, with two voids; exact enumeration vs 40,000 draws.
    #[test]
    fn constrained_deals_are_uniform_one_deck() {
        let shape = DealShape::equal(1, true, 3, 17, 3).unwrap();
        let free: Vec<Card> = "2S 3S 4S 5H 6H 7D SJ BJ".split(' ').map(card).collect();
        let open = [3, 2, 2, 1];
        let c =
            restricted(&shape, &free, &open).void(1, Suit::Spades.mask()).void(2, CardSet::JOKERS);
        let exact = exact_distribution(&shape, &c, &free, &open);
        let dealer = ConstrainedDealer::new(&shape, &c).unwrap();
        assert!(!dealer.is_fast_path());
        let mut rng = deal_rng(11, 0);
        let (stat, df) = chi_square(&exact, (0..40_000).map(|_| dealer.deal(&mut rng)));
        assert!(df > 50, "a non-trivial case ({df} + 1 deals)");
        assert!(stat < chi_square_limit(df), "chi-square {stat:.1} with {df} df");
    }

    /// Two decks: repeated kinds are distinct physical cards, so deals where a hand holds a pair
    /// are weighted by the number of ways; a void splits the repeated kinds.
    #[test]
    fn constrained_deals_are_uniform_with_copies() {
        let shape = DealShape::equal(2, true, 4, 25, 8).unwrap();
        let free: Vec<Card> = "AS AS KH KH 5C 5C 5D SJ".split(' ').map(card).collect();
        let open = [2, 2, 3, 0, 1];
        let c = restricted(&shape, &free, &open)
            .void(0, Suit::Hearts.mask())
            .void(1, Suit::Clubs.mask() | Suit::Diamonds.mask());
        let exact = exact_distribution(&shape, &c, &free, &open);
        let dealer = ConstrainedDealer::new(&shape, &c).unwrap();
        let mut rng = deal_rng(12, 0);
        let (stat, df) = chi_square(&exact, (0..30_000).map(|_| dealer.deal(&mut rng)));
        assert!(df > 20, "a non-trivial case ({df} + 1 deals)");
        assert!(stat < chi_square_limit(df), "chi-square {stat:.1} with {df} df");
    }

    /// The test above can fail: a plausible but wrong sampler (each card to a uniformly random
    /// allowed place with room, restarting on a dead end) is rejected by the same statistic.
    #[test]
    fn chi_square_detects_a_greedy_sampler() {
        let shape = DealShape::equal(1, true, 3, 17, 3).unwrap();
        let free: Vec<Card> = "2S 3S 4S 5H 6H 7D SJ BJ".split(' ').map(card).collect();
        let open = [3, 2, 2, 1];
        let c =
            restricted(&shape, &free, &open).void(1, Suit::Spades.mask()).void(2, CardSet::JOKERS);
        let exact = exact_distribution(&shape, &c, &free, &open);
        let base = place_fixed(&shape, &c).unwrap();
        let mut rng = deal_rng(13, 0);
        let greedy = std::iter::repeat_with(|| loop {
            let mut d = base.clone();
            let mut room = open;
            let mut dead = false;
            for &card in &free {
                let ok: Vec<usize> = (0..4)
                    .filter(|&p| room[p] > 0 && (p == 3 || !c.void_of(p).contains(card)))
                    .collect();
                if ok.is_empty() {
                    dead = true;
                    break;
                }
                let p = ok[rng.random_range(0..ok.len())];
                room[p] -= 1;
                d.place_mut(p).add(card);
            }
            if !dead {
                break d;
            }
        });
        let (stat, df) = chi_square(&exact, greedy.take(40_000));
        assert!(stat > chi_square_limit(df), "greedy passed: chi-square {stat:.1}, {df} df");
    }

    /// Independent check that some deal satisfies `c`: the free cards of each kind flow to the
    /// places with room that are not void in it (augmenting paths on kinds → places).
    #[allow(clippy::needless_range_loop)] // indices name hands and kinds in several arrays
    fn feasible(shape: &DealShape, c: &Constraints) -> bool {
        let n = shape.num_hands();
        let mut used = c.kitty;
        let mut room = vec![0i64; n + 1];
        for h in 0..n {
            let f = c.fixed_in(h);
            if f.len() > shape.hand_sizes()[h] || !(f.kinds() & c.void_of(h)).is_empty() {
                return false;
            }
            room[h] = (shape.hand_sizes()[h] - f.len()) as i64;
            if used.add_all(&f).is_err() {
                return false;
            }
        }
        if c.kitty.len() > shape.kitty() || !shape.deck().contains_all(&used) {
            return false;
        }
        room[n] = (shape.kitty() - c.kitty.len()) as i64;
        let mut free = shape.deck();
        free.remove_all(&used).unwrap();
        let kinds: Vec<Card> = free.kinds().iter().collect();
        let ok = |k: usize, p: usize| p == n || !c.void_of(p).contains(kinds[k]);
        // flow[k][p]: cards of kind k sent to place p.
        let mut flow = vec![vec![0i64; n + 1]; kinds.len()];
        let mut supply: Vec<i64> = kinds.iter().map(|&k| free.count(k) as i64).collect();
        loop {
            // BFS from kinds with supply left to a place with room, through kind→place edges
            // (allowed) and place→kind edges (existing flow, can be rerouted).
            let mut prev_kind = vec![usize::MAX; n + 1];
            let mut prev_place = vec![usize::MAX; kinds.len()];
            let mut queue: Vec<usize> = (0..kinds.len()).filter(|&k| supply[k] > 0).collect();
            let mut seen = vec![false; kinds.len()];
            queue.iter().for_each(|&k| seen[k] = true);
            let mut end = None;
            let mut qi = 0;
            while qi < queue.len() && end.is_none() {
                let k = queue[qi];
                qi += 1;
                for p in 0..=n {
                    if ok(k, p) && prev_kind[p] == usize::MAX {
                        prev_kind[p] = k;
                        if room[p] > 0 {
                            end = Some(p);
                            break;
                        }
                        for k2 in 0..kinds.len() {
                            if flow[k2][p] > 0 && !seen[k2] {
                                seen[k2] = true;
                                prev_place[k2] = p;
                                queue.push(k2);
                            }
                        }
                    }
                }
            }
            let Some(mut p) = end else { break };
            room[p] -= 1;
            loop {
                let k = prev_kind[p];
                flow[k][p] += 1;
                if prev_place[k] == usize::MAX {
                    supply[k] -= 1;
                    break;
                }
                p = prev_place[k];
                flow[k][p] -= 1;
            }
        }
        supply.iter().all(|&s| s == 0)
    }

    fn shape_strategy() -> impl Strategy<Value = DealShape> {
        (1usize..=4, any::<bool>(), 1usize..=6, 0usize..=8).prop_map(|(decks, jokers, n, kitty)| {
            let size = decks * if jokers { 54 } else { 52 };
            let rest = size - kitty;
            let sizes: Vec<usize> = (0..n).map(|h| rest / n + usize::from(h < rest % n)).collect();
            DealShape::new(decks, jokers, &sizes, kitty).unwrap()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn plain_deals_conserve_every_card(shape in shape_strategy(), seed in any::<u64>()) {
            let d = deal(&shape, &mut deal_rng(seed, 0));
            assert_consistent(&shape, &Constraints::new(), &d);
        }

        /// Random fixed cards, known kitty cards and whole-suit voids: the dealer accepts them
        /// exactly when an independent max-flow check finds a consistent deal, and every draw
        /// satisfies every constraint.
        #[test]
        fn constrained_deals_respect_every_constraint(
            shape in shape_strategy(),
            seed in any::<u64>(),
            fix_bits in proptest::collection::vec(any::<u64>(), 7),
            void_suits in proptest::collection::vec(0u8..12, 6),
        ) {
            let truth = deal(&shape, &mut deal_rng(seed, 0));
            let pick = |m: &Multiset, bits: u64| {
                let cards: Vec<Card> =
                    m.iter().enumerate().filter(|(i, _)| bits >> (i % 64) & 1 == 1).map(|(_, c)| c).collect();
                Multiset::from_cards(&cards).unwrap()
            };
            let mut c = Constraints::new();
            for (h, hand) in truth.hands.iter().enumerate() {
                // Fix about half the hand; sometimes a void in a suit (4 = the jokers), minus
                // the kinds fixed in the hand.
                let fixed = pick(hand, fix_bits[h]);
                c = c.fix_hand(h, fixed);
                let mask = match void_suits[h] {
                    v @ 0..4 => Suit::from_index(v as usize).mask(),
                    4 => CardSet::JOKERS,
                    _ => CardSet::EMPTY,
                };
                c = c.void(h, mask.minus(fixed.kinds()));
            }
            c = c.in_kitty(pick(&truth.kitty, fix_bits[6]));
            match ConstrainedDealer::new(&shape, &c) {
                Ok(dealer) => {
                    prop_assert!(feasible(&shape, &c), "accepted infeasible {c:?}");
                    let mut rng = deal_rng(seed, 1);
                    let mut out = Deal::default();
                    for _ in 0..8 {
                        dealer.deal_into(&mut rng, &mut out);
                        assert_consistent(&shape, &c, &out);
                    }
                }
                Err(ZhipaiError::ImpossibleDeal { reason }) => {
                    prop_assert!(!feasible(&shape, &c), "rejected feasible {c:?}: {reason}");
                }
                Err(e) => prop_assert!(e.to_string().contains("table entries"), "{e}"),
            }
        }
    }
}
