//! Hand-worked odds (spec 4). Each case says how it was worked.

use serde_json::json;

use super::catalogue::Catalogue;
use super::odds::{answer, binomial, command_odds, fire_odds, leader_odds, melee_odds};
use super::odds::{CommandRequest, FireRequest, LeaderRequest, MeleeRequest};
use super::types::Colour;

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("catalogue: {e}"),
    }
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} against {b}");
}

fn fire(v: serde_json::Value) -> super::odds::FireOdds {
    let req: FireRequest = match serde_json::from_value(v) {
        Ok(r) => r,
        Err(e) => panic!("request: {e}"),
    };
    match fire_odds(&cat(), &req) {
        Ok(o) => o,
        Err(e) => panic!("odds: {e}"),
    }
}

fn melee(v: serde_json::Value) -> super::odds::MeleeOdds {
    let req: MeleeRequest = match serde_json::from_value(v) {
        Ok(r) => r,
        Err(e) => panic!("request: {e}"),
    };
    match melee_odds(&cat(), &req) {
        Ok(o) => o,
        Err(e) => panic!("odds: {e}"),
    }
}

#[test]
fn the_books_first_fire_example_builds_twelve_green_against_eight_yellow() {
    // Mike's green line of 12 fires on Eric's yellow infantry, 8 left: 12 green dice (4+)
    // against 8 yellow (5+). The book's roll, 6 successes against 3, takes 3 figures.
    let o = fire(json!({
        "attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"},
        "defender": {"type": "infantry", "figures": 8, "colour": "yellow"},
        "range_inches": 10
    }));
    assert_eq!((o.attack.dice, o.attack.colour), (12, Colour::Green));
    assert_eq!((o.defence.dice, o.defence.colour), (8, Colour::Yellow));
    // P(exactly that roll): C(12,6)/2^12 × C(8,3)(1/3)^3(2/3)^5 = 924/4096 × 1792/6561.
    let a = binomial(12, 0.5);
    let d = binomial(8, 1.0 / 3.0);
    close(a[6] * d[3], 924.0 / 4096.0 * 1792.0 / 6561.0);
    close(o.casualties.iter().sum::<f64>(), 1.0);
    close(o.casualties_at_least[0], 1.0);
    close(o.p_no_effect + o.p_downgrade, 1.0);
    assert!(o.casualties[3] > 0.0 && o.expected_casualties > 1.0);
}

#[test]
fn the_books_second_fire_example_is_eight_yellow_against_six_red() {
    // Eric's yellow battery, 4 gunners, fires at 27": 2 dice a gunner = 8 yellow. Mike's red
    // infantry, 6 privates, defends with 6 red; no bonus for infantry under fire.
    let o = fire(json!({
        "attacker": {"type": "foot_artillery", "firing_figures": 4, "colour": "yellow"},
        "defender": {"type": "infantry", "figures": 6, "colour": "red"},
        "range_inches": 27
    }));
    assert_eq!((o.attack.dice, o.attack.colour), (8, Colour::Yellow));
    assert_eq!((o.defence.dice, o.defence.colour), (6, Colour::Red));
    // A red target hit takes a disorder marker, never a downgrade.
    close(o.p_downgrade, 0.0);
    close(o.p_disorder, 1.0 - o.p_no_effect);
}

#[test]
fn one_green_die_against_one_red_die() {
    // Casualty only when the attacker succeeds (1/2) and the defender fails (5/6): 5/12.
    let o = fire(json!({
        "attacker": {"type": "skirmishers", "firing_figures": 1, "colour": "green"},
        "defender": {"type": "infantry", "figures": 1, "colour": "red", "break_point": 0},
        "range_inches": 20
    }));
    close(o.casualties[1], 5.0 / 12.0);
    close(o.p_collapse, 5.0 / 12.0);
    // Artillery fires... no: an infantry target's officer and ensign roll needs 4 losses.
    close(o.p_leader_check, 0.0);
}

#[test]
fn guns_close_in_and_defenders_bonus_dice() {
    let gun = |g: &str, r: u32| {
        fire(json!({
            "attacker": {"type": "foot_artillery", "firing_figures": 4, "gun": g},
            "defender": {"type": "cavalry", "figures": 6, "colour": "green", "cover": "light"},
            "range_inches": r
        }))
    };
    // Medium within 12": 3 a gunner = 12; heavy 12 + 4 = 16 (K-20); light stays 2 = 8.
    assert_eq!(gun("medium", 12).attack.dice, 12);
    assert_eq!(gun("heavy", 6).attack.dice, 16);
    assert_eq!(gun("light", 6).attack.dice, 8);
    assert_eq!(gun("medium", 30).attack.dice, 8);
    // Cavalry: 6 + 2 under fire + 2 light cover = 10; against a heavy gun light cover is 0.
    assert_eq!(gun("medium", 30).defence.dice, 10);
    assert_eq!(gun("heavy", 30).defence.dice, 8);
    // K-6: an elite yellow target defends green; a militia red one stays red.
    let q = |c: &str, qual: &str| {
        fire(json!({
            "attacker": {"type": "infantry", "firing_figures": 8},
            "defender": {"type": "infantry", "figures": 12, "colour": c, "quality": qual},
            "range_inches": 8
        }))
        .defence
        .colour
    };
    assert_eq!(q("yellow", "elite"), Colour::Green);
    assert_eq!(q("red", "militia"), Colour::Red);
    assert_eq!(q("green", "militia"), Colour::Yellow);
    // Rockets roll yellow at best (K-21) and any hit disorders.
    let r = fire(json!({
        "attacker": {"type": "foot_artillery", "firing_figures": 4, "gun": "rockets", "colour": "green"},
        "defender": {"type": "infantry", "figures": 12, "colour": "green", "disordered": true},
        "range_inches": 40
    }));
    assert_eq!(r.attack.colour, Colour::Yellow);
    close(r.p_disorder, 1.0 - r.p_no_effect);
    close(r.p_rocket_rout, r.p_disorder);
}

#[test]
fn fire_that_the_rules_forbid_is_refused_by_field() {
    let c = cat();
    let bad = |v: serde_json::Value| answer(&c, "fire", &v).err().map(|e| (e.field, e.code));
    assert_eq!(
        bad(json!({"attacker": {"type": "cavalry", "firing_figures": 6},
                   "defender": {"type": "infantry", "figures": 12}, "range_inches": 5})),
        Some(("attacker.type".into(), "not_allowed"))
    );
    assert_eq!(
        bad(
            json!({"attacker": {"type": "infantry", "firing_figures": 6},
                   "defender": {"type": "infantry", "figures": 12}, "range_inches": 13})
        ),
        Some(("range_inches".into(), "out_of_range"))
    );
    assert_eq!(
        bad(
            json!({"attacker": {"type": "foot_artillery", "firing_figures": 4, "gun": "heavy", "moved": true},
                   "defender": {"type": "infantry", "figures": 12}, "range_inches": 30})
        ),
        Some(("attacker.moved".into(), "not_allowed"))
    );
    for junk in [
        json!(null),
        json!([]),
        json!({}),
        json!({"attacker": 3}),
        json!("fire"),
    ] {
        assert!(answer(&c, "fire", &junk).is_err());
    }
    assert!(answer(&c, "volley", &json!({})).is_err());
}

#[test]
fn one_trooper_against_one_private_worked_by_hand() {
    // 1 trooper × 2 green dice: 0, 1, 2 successes with 1/4, 1/2, 1/4. 1 yellow private: a
    // success 1/3. Both break at 0, so any loss collapses the unit (K-17):
    //   both collapse  = P(A≥1) P(D=1) = 3/4 × 1/3 = 1/4
    //   attacker wins  = P(A≥1) P(D=0) = 3/4 × 2/3 = 1/2
    //   defender wins  = P(A=0) P(D=1) = 1/4 × 1/3 = 1/12
    //   tie            = P(A=0) P(D=0) = 1/4 × 2/3 = 1/6
    let o = melee(json!({
        "attacker": {"type": "cavalry", "figures": 1, "break_point": 0},
        "defender": {"type": "infantry", "figures": 1, "colour": "yellow", "break_point": 0}
    }));
    close(o.both_collapse, 0.25);
    close(o.attacker_wins, 0.5);
    close(o.defender_wins, 1.0 / 12.0);
    close(o.tie, 1.0 / 6.0);
}

#[test]
fn the_books_cavalry_charge_and_square() {
    // Five troopers against seven yellow privates: 10 green dice against 7 yellow.
    let o = melee(json!({
        "attacker": {"type": "cavalry", "figures": 5},
        "defender": {"type": "infantry", "figures": 7, "colour": "yellow"}
    }));
    assert_eq!(
        (o.formed.attack.dice, o.formed.attack.colour),
        (10, Colour::Green)
    );
    assert_eq!(
        (o.formed.defence.dice, o.formed.defence.colour),
        (7, Colour::Yellow)
    );
    close(
        o.attacker_wins + o.defender_wins + o.tie + o.both_collapse,
        1.0,
    );
    // Matt's green infantry, general rated 2: square on any 4+ of 2 dice = 1 - 1/4 = 3/4.
    // In square the five troopers roll 10 red dice.
    let s = melee(json!({
        "attacker": {"type": "cavalry", "figures": 5},
        "defender": {"type": "infantry", "figures": 12, "colour": "green", "general_rating": 2}
    }));
    close(s.p_square.unwrap_or(0.0), 0.75);
    let sq = s.square.as_ref().map(|c| (c.attack.dice, c.attack.colour));
    assert_eq!(sq, Some((10, Colour::Red)));
    let f = &s.formed;
    close(
        s.attacker_wins,
        0.25 * f.attacker_wins + 0.75 * s.square.as_ref().map_or(0.0, |c| c.attacker_wins),
    );
}

#[test]
fn skirmishers_and_indians_in_melee() {
    // Skirmishers defend red whatever their colour; an elite unit of them yellow (K-6).
    let o = melee(json!({
        "attacker": {"type": "infantry", "figures": 12},
        "defender": {"type": "skirmishers", "figures": 6, "colour": "green", "quality": "elite"}
    }));
    assert_eq!(o.formed.defence.colour, Colour::Yellow);
    assert_eq!(o.formed.defence.dice, 6);
    // Indians attack at 1 die a warrior + 2 (K-29); they may not attack cavalry.
    let i = melee(json!({
        "attacker": {"type": "woodland_indians", "figures": 9},
        "defender": {"type": "infantry", "figures": 12, "colour": "green"}
    }));
    assert_eq!(i.formed.attack.dice, 11);
    let c = cat();
    let refused = answer(
        &c,
        "melee",
        &json!({"attacker": {"type": "infantry", "figures": 12},
                "defender": {"type": "cavalry", "figures": 6}}),
    );
    assert_eq!(refused.err().map(|e| e.code), Some("not_allowed"));
}

#[test]
fn command_points_and_the_advanced_rolls() {
    let c = cat();
    let o = command_odds(
        &c,
        &CommandRequest {
            rating: 2,
            unit_colour: Some("yellow".into()),
            quality: None,
        },
    );
    let Ok(o) = o else { panic!("odds") };
    // The highest of 2 dice: P(6) = 1 - (5/6)^2 = 11/36, P(1) = 1/36.
    close(o.command_points[6], 11.0 / 36.0);
    close(o.command_points[1], 1.0 / 36.0);
    close(o.command_points_at_least[1], 1.0);
    // Expected highest of two dice = 161/36.
    close(o.expected_command_points, 161.0 / 36.0);
    // Two yellow dice, any 5+: 1 - (2/3)^2 = 5/9 (activation and army collapse alike).
    close(o.advanced_activation, 5.0 / 9.0);
    close(o.army_fights_on, 5.0 / 9.0);
    // Two red dice, any 6: 1 - (5/6)^2 = 11/36.
    close(o.rally, 11.0 / 36.0);
    let elite = command_odds(
        &c,
        &CommandRequest {
            rating: 1,
            unit_colour: None,
            quality: Some("elite".into()),
        },
    );
    // An elite unit rallies on yellow: one die, 1/3.
    close(elite.map(|e| e.rally).unwrap_or(0.0), 1.0 / 3.0);
    assert!(command_odds(
        &c,
        &CommandRequest {
            rating: 4,
            unit_colour: None,
            quality: None
        }
    )
    .is_err());
}

#[test]
fn leader_losses_with_one_die_and_with_marksmen() {
    let c = cat();
    let one = leader_odds(&c, &LeaderRequest { marksmen: false });
    let Ok(one) = one else { panic!("odds") };
    close(one.ensign_lost, 1.0 / 6.0);
    close(one.officer_lost, 1.0 / 6.0);
    close(one.neither_lost, 4.0 / 6.0);
    // K-8: two dice read alone. Ensign: 1 - (5/6)^2 = 11/36; both: 5,6 or 6,5 = 2/36;
    // neither: (4/6)^2 = 16/36.
    let two = leader_odds(&c, &LeaderRequest { marksmen: true });
    let Ok(two) = two else { panic!("odds") };
    close(two.ensign_lost, 11.0 / 36.0);
    close(two.both_lost, 2.0 / 36.0);
    close(two.neither_lost, 16.0 / 36.0);
}
