//! Shared pieces of the fuzz targets: a global allocator that turns one oversized allocation into
//! a crash (libFuzzer's `-malloc_limit_mb` needs a sanitizer's allocator hooks, which a build
//! with `--sanitizer none` lacks), and the fuzzer's choice of a rule set and a deal.

use arbitrary::{Arbitrary, Result, Unstructured};
use std::alloc::{GlobalAlloc, Layout, System};
use zhipai_core::game::DealSetup;
use zhipai_core::record::Origin;
use zhipai_core::rules::{rules, PRESETS};
use zhipai_core::{OptionValue, Rank, Rules, Suit};

/// The largest single allocation a target may make (a deal record is read up to 4 MiB; nothing
/// in one deal needs more than a few MiB).
pub const MAX_ALLOC: usize = 256 << 20;

/// The system allocator, aborting (a crash libFuzzer reports and saves) on an allocation larger
/// than [`MAX_ALLOC`].
pub struct CappedAlloc;

unsafe impl GlobalAlloc for CappedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

fn check(size: usize) {
    if size > MAX_ALLOC {
        // No allocation here: write the message with a fixed buffer, then abort.
        let msg = b"zhipai-fuzz: one allocation larger than MAX_ALLOC (256 MiB)\n";
        unsafe { libc_write(2, msg.as_ptr(), msg.len()) };
        std::process::abort();
    }
}

extern "C" {
    #[link_name = "write"]
    fn libc_write(fd: i32, buf: *const u8, count: usize) -> isize;
}

#[global_allocator]
static ALLOC: CappedAlloc = CappedAlloc;

/// A rule set: a preset from `presets` plus up to three option overrides, each a listed choice
/// of the option (mostly) or a number / fuzzer text. `None` when the overrides are refused (a
/// named error: what `rules` promises).
pub fn arb_rules(u: &mut Unstructured<'_>, presets: &[&'static str]) -> Result<Option<Rules>> {
    let preset = *u.choose(presets)?;
    let base = rules(preset, &[]).expect("every preset builds");
    let infos = base.options();
    let mut overrides = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        let o = u.choose(&infos)?;
        let value = match u.int_in_range(0..=7)? {
            0 => u.int_in_range(-2i64..=300)?.to_string(),
            1 => String::arbitrary(u)?,
            _ if !o.choices.is_empty() => u.choose(&o.choices)?.to_string(),
            _ => o.value.clone(),
        };
        overrides.push((o.name.to_string(), OptionValue::Text(value)));
    }
    Ok(rules(preset, &overrides).ok())
}

/// Every preset.
pub fn all_presets() -> &'static [&'static str] {
    &PRESETS
}

/// The presets with Shengji-style tricks ([`Rules::trick_rules`]).
pub const TRICK_PRESETS: [&str; 4] = ["tractor", "tractor_jj", "eighty_points", "hong_wu"];

/// A rank, or `None` (the joker-only level where a level is asked).
pub fn arb_level(u: &mut Unstructured<'_>) -> Result<Option<Rank>> {
    let i = u.int_in_range(0u8..=13)?;
    Ok(Rank::from_index(i))
}

/// A suit, or `None` (no-trump).
pub fn arb_trump(u: &mut Unstructured<'_>) -> Result<Option<Suit>> {
    let i = u.int_in_range(0usize..=4)?;
    Ok((i < 4).then(|| Suit::from_index(i)))
}

/// Where the deal comes from: mostly a simulated deal (small seed and index, Baohuang's previous
/// places sometimes), sometimes a setup of shuffled cards with a fixed level, trump or dealer.
pub fn arb_origin(u: &mut Unstructured<'_>) -> Result<Origin> {
    let seed = u.int_in_range(0u64..=63)?;
    let index = u.int_in_range(0u64..=7)?;
    Ok(match u.int_in_range(0u8..=7)? {
        0 => {
            let mut places = [1u8, 2, 3, 4, 5];
            for i in (1..5).rev() {
                let j = u.int_in_range(0..=i)?;
                places.swap(i, j);
            }
            Origin::Simulated { seed, index, previous_places: Some(places) }
        }
        1 => Origin::Setup(DealSetup {
            hands: Vec::new(),
            kitty: None,
            level: if bool::arbitrary(u)? { Some(arb_level(u)?) } else { None },
            trump: if bool::arbitrary(u)? { Some(arb_trump(u)?) } else { None },
            dealer: if bool::arbitrary(u)? { Some(u.int_in_range(0usize..=6)?) } else { None },
            seed,
            stream: index,
            word_pos: 0,
        }),
        _ => Origin::Simulated { seed, index, previous_places: None },
    })
}

/// A state's full contents (generator included), to check that a refused move changed nothing.
pub fn snapshot(state: &dyn zhipai_core::any_state::AnyState) -> String {
    format!("{state:?}")
}
