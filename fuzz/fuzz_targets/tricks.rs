//! Lead, throw and follow checks (`zhipai_core::tricks`) against random hands of the Shengji
//! family and Hong Wu, under fuzzer-chosen options, level and trump: never a panic, and the four
//! operations on follows agree — every enumerated follow passes `check`, the enumeration has
//! `count` distinct plays, `sample` and `sample_follow` draw legal plays, and a fuzzer-chosen
//! play passes `check` exactly when it is enumerated. `check_lead` explains its refusals
//! correctly; `check_throw` returns part of the lead, the whole only when valid; lead
//! candidates are legal leads; the trick winner is a seat.
#![no_main]

use arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::ops::ControlFlow;
use zhipai_core::tricks::lead_candidates::{all_leads, for_each_lead_candidate, sample_lead};
use zhipai_core::tricks::order::NUM_EFFECTIVE_SUITS;
use zhipai_core::tricks::{
    check_lead, check_throw, sample_follow, trick_winner, trick_winner_of, FollowMoves, LeadError,
    TrickRules,
};
use zhipai_core::{Multiset, Rank};
use zhipai_fuzz::{arb_level, arb_rules, arb_trump, TRICK_PRESETS};

/// Enumerate completely up to this many follows.
const FULL: u64 = 3000;

/// `size` cards drawn from `pack` (removed from it), kinds chosen by the fuzzer.
fn draw(u: &mut Unstructured<'_>, pack: &mut Multiset, size: usize) -> Result<Multiset> {
    let mut hand = Multiset::EMPTY;
    for _ in 0..size {
        let kinds = pack.kinds();
        if kinds.is_empty() {
            break;
        }
        let k = u.choose_index(kinds.len() as usize)?;
        let c = kinds.iter().nth(k).expect("k < len");
        pack.remove(c);
        hand.add(c);
    }
    Ok(hand)
}

/// A sub-multiset of `hand`, each kind's count chosen by the fuzzer.
fn part_of(u: &mut Unstructured<'_>, hand: &Multiset) -> Result<Multiset> {
    let mut part = Multiset::EMPTY;
    for c in hand.kinds().iter() {
        for _ in 0..u.int_in_range(0..=hand.count(c))? {
            part.add(c);
        }
    }
    Ok(part)
}

/// A sub-multiset of `hand` with exactly `n` cards (fewer when the hand is smaller).
fn play_of(u: &mut Unstructured<'_>, hand: &Multiset, n: usize) -> Result<Multiset> {
    let mut left = *hand;
    draw(u, &mut left, n)
}

fn suits_of(tr: &TrickRules, m: &Multiset) -> usize {
    (0..NUM_EFFECTIVE_SUITS).filter(|&s| m.count_in(tr.order.suit_mask(s)) > 0).count()
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let Some(rules) = arb_rules(u, &TRICK_PRESETS)? else { return Ok(()) };
    let level = arb_level(u)?.unwrap_or(Rank::TWO);
    let Ok(tr) = rules.trick_rules(level, arb_trump(u)?) else { return Ok(()) };
    let mut pack = Multiset::full_decks(tr.decks as usize, true).expect("1-3 decks");
    // Hand sizes up to a real deal's (the pack less a kitty of 6-8, in four).
    let max_hand = (pack.len() - 6) / 4;
    let mut hands = [Multiset::EMPTY; 4];
    for h in hands.iter_mut() {
        let size = u.int_in_range(0..=max_hand)?;
        *h = draw(u, &mut pack, size)?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(u64::arbitrary(u)?);

    // The lead: mostly part of the leader's hand, sometimes cards from anywhere.
    let lead = if u.ratio(1, 8)? {
        part_of(u, &Multiset::full_decks(3, true).unwrap())?
    } else {
        part_of(u, &hands[0])?
    };
    let format = match check_lead(&tr, &lead, Some(&hands[0])) {
        Ok(f) => f,
        Err(e) => {
            match e {
                LeadError::Empty => assert!(lead.is_empty()),
                LeadError::NotHeld(_) => assert!(!hands[0].contains_all(&lead)),
                LeadError::MixedSuits => assert!(suits_of(&tr, &lead) > 1, "{lead}"),
                LeadError::TrumpThrow => assert!(!tr.trump_throw_allowed),
            }
            return Ok(());
        }
    };
    assert_eq!(format.cards as usize, lead.len());
    assert_eq!(format.units.iter().map(|u| u.cards()).sum::<usize>(), lead.len());
    assert_eq!(suits_of(&tr, &lead), 1);
    assert_eq!(check_lead(&tr, &lead, None), Ok(format));

    // The throw check against the three others, in playing order.
    let throw = check_throw(&tr, &format, &hands[1..]);
    assert!(
        !throw.played.is_empty() && lead.contains_all(&throw.played),
        "{lead} -> {}",
        throw.played
    );
    assert!(throw.beaten_cards <= lead.len());
    if throw.valid {
        assert_eq!(throw.played, lead);
        assert_eq!(throw.beaten_cards, 0);
    } else {
        assert!(format.is_throw(), "one unit {lead} failed its throw check");
        assert!(throw.played != lead && throw.beaten_cards > 0);
    }
    let led = throw.played;
    let led_format = check_lead(&tr, &led, Some(&hands[0])).expect("the forced part is a lead");

    // Every follower: check / enumerate / count / sample agree.
    let n = led.len();
    let mut plays = vec![led];
    for hand in &hands[1..] {
        let Ok(fm) = FollowMoves::new(&tr, &led_format, hand) else {
            assert!(hand.len() < n);
            continue;
        };
        let count = fm.count();
        assert!(count >= 1, "no legal follow of {led} from {hand}");
        let listed = fm.enumerate(if count <= FULL { FULL as usize + 1 } else { 50 });
        let mut seen = HashSet::new();
        for p in &listed {
            assert_eq!(p.len(), n);
            assert!(hand.contains_all(p));
            assert!(fm.check(p).is_ok(), "enumerated {p} of {hand} on {led} is refused");
            assert!(seen.insert(p.planes()), "{p} enumerated twice");
        }
        if count <= FULL {
            assert_eq!(listed.len() as u64, count, "{hand} following {led}");
        } else {
            assert_eq!(listed.len(), 50);
        }
        let sampled = fm.sample(&mut rng);
        assert!(fm.check(&sampled).is_ok(), "sampled {sampled} of {hand} on {led} is refused");
        let fast = sample_follow(&tr, &led_format, hand, &mut rng).expect("enough cards");
        assert!(fm.check(&fast).is_ok(), "sample_follow {fast} of {hand} on {led} is refused");
        if count <= FULL {
            assert!(seen.contains(&sampled.planes()) && seen.contains(&fast.planes()));
            let mine = play_of(u, hand, n)?;
            assert_eq!(
                fm.check(&mine).is_ok(),
                seen.contains(&mine.planes()),
                "{mine} of {hand} on {led}"
            );
        }
        plays.push(sampled);
    }
    if plays.len() == 4 {
        let w = trick_winner(&tr, &plays).expect("a trick of legal plays has a winner");
        assert!(w < 4);
        assert_eq!(trick_winner_of(&tr, &led_format, &plays), Ok(w));
    }

    // Lead candidates of the leader are legal leads.
    let hand = &hands[0];
    if let Some(all) = all_leads(&tr, hand, 500) {
        for l in &all {
            assert!(check_lead(&tr, l, Some(hand)).is_ok(), "listed lead {l} of {hand}");
        }
        if !lead.is_empty() && lead.len() <= hand.len() {
            assert!(all.contains(&lead), "legal lead {lead} of {hand} not listed");
        }
    }
    for_each_lead_candidate(&tr, hand, &mut |l| {
        assert!(check_lead(&tr, l, Some(hand)).is_ok(), "candidate {l} of {hand}");
        ControlFlow::Continue(())
    });
    if !hand.is_empty() {
        let l = sample_lead(&tr, hand, &mut rng);
        assert!(check_lead(&tr, &l, Some(hand)).is_ok(), "sampled lead {l} of {hand}");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
