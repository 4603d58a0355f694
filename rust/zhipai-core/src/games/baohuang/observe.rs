//! What one seat sees of a Baohuang deal: the game trait's observation (baohuang.md §C.3: the
//! guard and the secret 暗保 / 暗独 choices stay hidden).

use super::moves::Shape;
use super::scoring::Mode;
use super::state::{Phase, State, PLAYERS};
use crate::game::Observation;
use crate::multiset::Multiset;

/// What the other seats' observation names as the phase while the guard chooses 明保/暗保 or a
/// 4-copy emperor 明独/暗独: the choice is secret, and so is who makes it (§C.3.1, §C.3.6). Not a
/// [`Phase`] of the deal: only a view of it.
pub const HIDDEN_CHOICE: &str = "hidden_choice";

/// What seat `me` sees (the keys are listed at `DealState::observation`).
pub fn observe(s: &State, redeals: u32, me: u8) -> Observation {
    let mut o = Observation::default();
    // The guard's 明保/暗保 and a 4-copy emperor's 明独/暗独 are chosen in secret: to the
    // other seats the deal is in "hidden_choice" with nobody named to act.
    let secret = matches!(s.phase(), Phase::GuardChoice | Phase::SoloChoice)
        && s.current_player() != Some(me);
    o.set("game", "baohuang");
    o.set("seat", me);
    o.set("phase", if secret { HIDDEN_CHOICE } else { s.phase().shared().name() });
    o.set("current_player", if secret { None } else { s.current_player() });
    o.set("hand", *s.hand(me));
    o.set("hand_sizes", (0..PLAYERS as u8).map(|p| s.hand(p).len()).collect::<Vec<_>>());
    o.set("scepter", s.scepter().0);
    o.set("emperor", s.emperor());
    o.set("dengji_card", s.dengji_card().map(|c| Multiset::from_cards(&[c]).expect("one card")));
    // The guard knows himself; the others once he is revealed (明保, or the 登基 card played).
    o.set("guard", s.guard().filter(|&g| g == me || s.guard_revealed()));
    // 暗独 looks like 暗保 to everyone but the emperor.
    let mode = match s.mode() {
        Mode::SecretSolo if s.emperor() != Some(me) => Mode::Normal,
        m => m,
    };
    o.set("mode", mode.name());
    o.set("play_to_beat", s.play_to_beat().map(|p: Shape| p.to_string()));
    o.set("finishing_order", s.finishing_order().to_vec());
    o.set("abdications", s.abdications());
    o.set("redeals", redeals);
    // The previous deal's places are public; the cards exchanged are not shown.
    o.set("tribute", s.tribute().map(|p| p.to_vec()));
    o
}
