//! Hand-worked cases from the specification, and the L-8 re-roll recursion against a brute
//! force over every face of every die.

use serde_json::json;

use super::dist::test_successes;
use super::*;
use crate::rules::systems::lod::catalogue::Catalogue;
use crate::rules::systems::lod::types::HitState;

fn cat() -> Catalogue {
    Catalogue::builtin().unwrap()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} is not {b}");
}

fn shoot(v: serde_json::Value) -> Result<ShootingOdds, OddsError> {
    shooting_odds(&cat(), &read_request::<ShootingRequest>(&v).unwrap())
}

fn test(v: serde_json::Value) -> TestOdds {
    test_odds(&cat(), &read_request::<TestRequest>(&v).unwrap()).unwrap()
}

#[test]
fn riflemen_at_long_range_into_cover_roll_two_dice_hitting_on_three() {
    // Case LOD-S2: 1.5 − ½ long − ½ skirmisher target − 1 cover = −½ → ½ × 3 = 1½ → 2 dice.
    let o = shoot(json!({
        "shooter": {"list": "continental", "entry": "riflemen", "bases": 3, "hits": 0},
        "target": {"list": "continental", "entry": "minutemen", "bases": 3, "hits": 0, "in_cover": true},
        "range_inches": 20.5
    }))
    .unwrap();
    assert_eq!(o.range_inches, 20);
    assert_eq!(o.dice, 2);
    assert_eq!(o.to_hit, "3+");
    close(o.p_hit, 2.0 / 3.0);
    close(o.p_under_fire_marker, 8.0 / 9.0);
    // Each hit is unsaved with chance 2/3.
    close(o.unsaved_hits[0], 25.0 / 81.0);
    close(o.unsaved_hits[1], 40.0 / 81.0);
    close(o.unsaved_hits[2], 16.0 / 81.0);
    // Minutemen (militia, 4 dice STEADY): fail on 0 or 1 success = 32/81 of the time.
    close(o.outcome.no_test, 25.0 / 81.0);
    close(o.outcome.passed, 56.0 / 81.0 * 49.0 / 81.0);
    close(o.outcome.disordered, 56.0 / 81.0 * 32.0 / 81.0);
    close(o.outcome.broken_by_hits, 0.0);
    assert!(o.rulings.contains(&"L-19") && o.rulings.contains(&"L-21"));
}

#[test]
fn a_six_pounder_at_canister_range_turns_each_hit_into_two_d3() {
    // 2 + ½ short = 2½ → 3 dice hitting on 4+; each hit 2D3 (mean 4) before saves (L-20).
    let o = shoot(json!({
        "shooter": {"list": "british", "entry": "artillery_6pdr", "bases": 1},
        "target": {"list": "continental", "entry": "continental_regiment", "bases": 4},
        "range_inches": 10
    }))
    .unwrap();
    assert_eq!(o.dice, 3);
    assert_eq!(o.each_hit_becomes.as_deref(), Some("2D3 (canister)"));
    close(o.expected_hits_before_saves, 6.0);
    close(o.expected_unsaved_hits, 4.0);
    close(o.p_under_fire_marker, 7.0 / 8.0);
    close(o.hits_before_saves.iter().sum::<f64>(), 1.0);
    // 18 hits at most: 3 × 6; 24 reach AUTO BROKEN, so never BROKEN by hits.
    assert_eq!(o.hits_before_saves.len(), 19);
    // At 11" it is D3 per hit.
    let o = shoot(json!({
        "shooter": {"list": "british", "entry": "artillery_6pdr", "bases": 1},
        "target": {"list": "continental", "entry": "continental_regiment", "bases": 4},
        "range_inches": 11
    }))
    .unwrap();
    assert_eq!(o.each_hit_becomes.as_deref(), Some("D3"));
    close(o.expected_hits_before_saves, 3.0);
}

#[test]
fn a_fortified_target_saves_on_four_and_counts_as_cover() {
    let o = shoot(json!({
        "shooter": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4},
        "target": {"list": "continental", "entry": "militia_regiment", "bases": 4, "fortified": true},
        "range_inches": 10
    }))
    .unwrap();
    // 2.5 − 1 cover = 1.5 × 4 = 6 dice.
    assert_eq!(o.dice, 6);
    assert_eq!(o.save_on, 4);
    close(o.p_save, 0.5);
    assert!(o.rulings.contains(&"L-23"));
}

#[test]
fn shots_beyond_long_range_are_refused_with_the_reason() {
    let e = shoot(json!({
        "shooter": {"list": "continental", "entry": "militia_regiment", "bases": 4},
        "target": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4},
        "range_inches": 29
    }))
    .unwrap_err();
    assert_eq!(e.field, "range_inches");
    assert_eq!(e.code, "out_of_range");
    assert!(e.message.contains("28\""), "{}", e.message);
}

#[test]
fn bad_input_names_its_field() {
    let v = json!({
        "shooter": {"list": "continental", "entry": "militia_regiment", "bases": 4},
        "target": {"list": "british", "entry": "regular_infantry_regiment"},
        "range_inches": 10
    });
    let e = read_request::<ShootingRequest>(&v).unwrap_err();
    assert_eq!(e.field, "target.bases");
    let v = json!({
        "shooter": {"list": "continental", "entry": "militia_regiment", "bases": "four"},
        "target": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4},
        "range_inches": 10
    });
    assert_eq!(
        read_request::<ShootingRequest>(&v).unwrap_err().field,
        "shooter.bases"
    );
    let e = shoot(json!({
        "shooter": {"list": "continental", "entry": "grenadier_infantry", "bases": 4},
        "target": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4},
        "range_inches": 10
    }))
    .unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.code),
        ("shooter.entry", "unknown_entry")
    );
    let e = shoot(json!({
        "shooter": {"list": "continental", "entry": "militia_regiment", "bases": 6},
        "target": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4, "hits": 24},
        "range_inches": 10
    }))
    .unwrap_err();
    assert_eq!(e.field, "shooter.bases");
}

#[test]
fn a_regular_four_dice_morale_test_needing_two_worked_by_hand() {
    // Faces: 1–3 nothing, 4–5 one, 6 two. Fail = all nothing (1/16) or exactly one 4–5 and
    // three nothings (4 × 1/3 × 1/8 = 1/6): pass 37/48.
    let base = json!({"kind": "morale", "trigger": "broken_friend", "list": "continental",
        "entry": "continental_regiment", "bases": 4, "hits": 0});
    let o = test(base.clone());
    assert_eq!(o.roll.as_ref().unwrap().dice, 4);
    close(o.p_pass, 37.0 / 48.0);
    // One re-roll (in command): from 0 a re-rolled die must show 6 (1/6); from 1 it needs 4+.
    let mut one = base.clone();
    one["in_command"] = json!(true);
    close(
        test(one).p_pass,
        37.0 / 48.0 + 1.0 / 16.0 / 6.0 + 1.0 / 6.0 / 2.0,
    );
    // Two re-rolls: from 0, 1/2·1/6 + 1/3·1/2 + 1/6 = 5/12; from 1, 1/2 + 1/4 = 3/4.
    let mut two = base;
    two["in_command"] = json!(true);
    two["supported"] = json!(true);
    let o = test(two);
    close(o.p_pass, 177.0 / 192.0);
    assert_eq!(o.roll.as_ref().unwrap().rerolls, 2);
    // STEADY: failure DISORDERED, pass no effect.
    assert_eq!(o.results[0].result, "no_effect");
    assert_eq!(o.results[1].result, "disordered");
}

#[test]
fn natives_are_never_supported_and_reliable_helps_orders_only() {
    let o = test(
        json!({"kind": "morale", "trigger": "shooting", "list": "british",
        "entry": "allied_indians", "bases": 3, "hits": 0, "supported": true}),
    );
    assert_eq!(o.roll.unwrap().rerolls, 0);
    let o = test(
        json!({"kind": "morale", "trigger": "shooting", "list": "british",
        "entry": "queens_rangers", "bases": 3, "hits": 0, "fortified": true}),
    );
    assert_eq!(o.roll.unwrap().rerolls, 0);
    let o = test(json!({"kind": "order", "order": "rally", "list": "british",
        "entry": "queens_rangers", "bases": 3, "hits": 0}));
    assert_eq!(o.roll.unwrap().rerolls, 1);
}

#[test]
fn stubborn_and_hold_the_line_each_retake_a_failed_morale_test() {
    let plain = test(
        json!({"kind": "morale", "trigger": "lost_melee", "list": "british",
        "entry": "grenadier_infantry", "bases": 4, "hits": 9}),
    );
    let p = plain.roll.unwrap().p_pass_one_take;
    let guard = test(
        json!({"kind": "morale", "trigger": "lost_melee", "list": "british",
        "entry": "guard_infantry", "bases": 4, "hits": 9, "hold_the_line": true}),
    );
    // Both Elite quality, same dice: the Guard re-takes twice (STUBBORN, Hold The Line!).
    close(guard.p_pass, 1.0 - (1.0 - p).powi(3));
    assert!(guard.rulings.contains(&"L-9"));
    // WORN, lost a melee: failure ROUTE.
    assert_eq!(guard.state, HitState::Worn);
    assert_eq!(guard.results[1].result, "route");
}

#[test]
fn charge_grades_by_hand_and_press_the_charge() {
    // Continental Regiment STEADY: 4 + 1 DRILLED = 5 regular dice, no re-rolls.
    let base = json!({"kind": "order", "order": "charge", "list": "continental",
        "entry": "continental_regiment", "bases": 4, "hits": 0});
    let o = test(base.clone());
    let g = o.grades.unwrap();
    close(g[0].probability, 1.0 / 32.0);
    close(g[1].probability, 5.0 / 48.0);
    close(g[2].probability, 55.0 / 288.0);
    close(
        g[3].probability,
        1.0 - 1.0 / 32.0 - 5.0 / 48.0 - 55.0 / 288.0,
    );
    let mut press = base;
    press["press_the_charge"] = json!(true);
    let g = test(press).grades.unwrap();
    close(g[3].probability, 31.0 / 32.0);
    close(g[1].probability, 0.0);
}

#[test]
fn orders_a_state_needs_no_test_for_are_automatic_and_shaken_units_cannot_charge() {
    let o = test(
        json!({"kind": "order", "order": "advance", "list": "continental",
        "entry": "continental_regiment", "bases": 4, "hits": 0}),
    );
    assert!(o.automatic);
    close(o.p_pass, 1.0);
    let e = test_odds(
        &cat(),
        &read_request(
            &json!({"kind": "order", "order": "charge", "list": "continental",
            "entry": "continental_regiment", "bases": 4, "hits": 16}),
        )
        .unwrap(),
    )
    .unwrap_err();
    assert_eq!(e.field, "order");
}

#[test]
fn reinforce_rallies_on_one_success_and_a_routing_unit_rolls_by_its_hit_state() {
    // SHAKEN routing Continental Regiment: 2 + 1 DRILLED dice (L-5), need 1 with Reinforce!.
    let o = test(
        json!({"kind": "order", "order": "rally", "list": "continental",
        "entry": "continental_regiment", "bases": 4, "hits": 16, "routing": true, "reinforce": true}),
    );
    assert_eq!(o.roll.as_ref().unwrap().dice, 3);
    close(o.p_pass, 7.0 / 8.0);
    // Success recovers D3+2 hits (L-40); failure adds D3 (L-39).
    let hits = o.hits_after.unwrap();
    close(hits[11], 7.0 / 8.0 / 3.0);
    close(hits[19], 1.0 / 8.0 / 3.0);
    assert!(o.rulings.contains(&"L-40") && o.rulings.contains(&"L-5"));
}

#[test]
fn a_small_melee_worked_by_hand() {
    // Minutemen (militia, 5+) and Riflemen (regular, 4+), one direct base each: ⌈1½⌉ = 2 dice;
    // unsaved per die 1/3 × 5/6 = 5/18 and 1/2 × 5/6 = 5/12; equal bases, no size bonus.
    let req: MeleeRequest = read_request(&json!({
        "a": {"list": "continental", "entry": "minutemen", "bases": 3, "direct_bases": 1},
        "b": {"list": "continental", "entry": "riflemen", "bases": 3, "direct_bases": 1}
    }))
    .unwrap();
    let o = melee_odds(&cat(), &req).unwrap();
    assert_eq!((o.a.dice, o.b.dice), (2, 2));
    close(o.p_a_wins, 9345.0 / 46656.0);
    close(o.p_draw, 18006.0 / 46656.0);
    close(o.p_b_wins, 19305.0 / 46656.0);
    // Losers test STEADY, need 3: militia pass 1/3, regular 25/48; failure RETIRE.
    close(o.a.as_loser.holds, 19305.0 / 46656.0 / 3.0);
    close(o.a.as_loser.retire, 19305.0 / 46656.0 * 2.0 / 3.0);
    close(o.b.as_loser.holds, 9345.0 / 46656.0 * 25.0 / 48.0);
    // Skirmishers neither pursue nor break through.
    close(
        o.a.pursues + o.b.pursues + o.a.breaks_through + o.b.breaks_through,
        0.0,
    );
    close(o.score_difference.iter().sum::<f64>(), 1.0);
}

#[test]
fn the_size_bonus_is_judged_after_this_rounds_hits() {
    // 5-base regiment one hit short of SHAKEN against a 3-base one (L-29): its +2 holds only
    // when it takes no hit.
    let req: MeleeRequest = read_request(&json!({
        "a": {"list": "continental", "entry": "militia_regiment", "bases": 5, "hits": 19, "direct_bases": 1},
        "b": {"list": "continental", "entry": "militia_regiment", "bases": 3, "direct_bases": 1}
    }))
    .unwrap();
    let o = melee_odds(&cat(), &req).unwrap();
    assert!(o.a.more_bases);
    // A: WORN, 3 − ½ = 2½ → 3 dice; B: 3 dice; unsaved per die 1/3 × 5/6 = 5/18.
    assert_eq!((o.a.dice, o.b.dice), (3, 3));
    let q = 5.0_f64 / 18.0;
    let bin = |k: i32| {
        let c = [1.0, 3.0, 3.0, 1.0][k as usize];
        c * q.powi(k) * (1.0 - q).powi(3 - k)
    };
    // A wins: B scores nothing while A keeps its +2 (any ha), or B hits and A out-hits it.
    let mut win = bin(0);
    for hb in 1..=3 {
        for ha in (hb + 1)..=3 {
            win += bin(ha) * bin(hb);
        }
    }
    close(o.p_a_wins, win);
    // A SHAKEN winner whose loser holds routes at once (L-30).
    assert!(o.a.winner_routes_shaken > 0.0);
}

#[test]
fn tough_fighters_reroll_misses_and_generals_risk_one_in_six() {
    let req: MeleeRequest = read_request(&json!({
        "a": {"list": "british", "entry": "highland_infantry_regiment", "bases": 4, "general_attached": true},
        "b": {"list": "continental", "entry": "continental_regiment", "bases": 4, "charging": true}
    }))
    .unwrap();
    let o = melee_odds(&cat(), &req).unwrap();
    close(o.a.p_hit, 0.75);
    close(o.a.p_unsaved_per_die, 0.75 * 5.0 / 6.0);
    assert_eq!(o.a.dice, 12 + 2);
    assert_eq!(o.b.dice, 16);
    close(o.a.p_general_killed, 1.0 / 6.0);
    close(o.b.p_general_killed, 0.0);
    let total = o.p_a_wins
        + o.p_b_wins
        + o.p_draw
        + o.p_a_broken_by_hits
        + o.p_b_broken_by_hits
        + o.p_both_broken_by_hits;
    close(total, 1.0);
    // Each side's losing results add up to its chance of losing.
    let lost = |l: &melee::LoserResults| {
        l.holds + l.retire + l.route + l.broken_by_test + l.broken_by_hits
    };
    close(lost(&o.a.as_loser), o.b.wins);
    close(lost(&o.b.as_loser), o.a.wins);
    assert!(o.rulings.contains(&"L-27") && o.rulings.contains(&"L-33"));
}

/// L-8 by brute force: every face of the first roll and of each re-roll, in order.
fn brute(dice: u32, faces: [u32; 3], rerolls: u32, aim: u32, zeros_only: bool) -> Vec<f64> {
    let score = |f: u32| -> usize {
        if f <= faces[0] {
            0
        } else if f <= faces[0] + faces[1] {
            1
        } else {
            2
        }
    };
    let mut out = vec![0.0; 2 * dice as usize + 1];
    let combos = 6u32.pow(dice);
    for c in 0..combos {
        let mut x = c;
        let mut dice_scores = Vec::new();
        for _ in 0..dice {
            dice_scores.push(score(x % 6 + 1));
            x /= 6;
        }
        fn go(
            scores: Vec<(usize, bool)>,
            left: u32,
            aim: u32,
            zeros_only: bool,
            chance: f64,
            score: &dyn Fn(u32) -> usize,
            out: &mut [f64],
        ) {
            let total: usize = scores.iter().map(|s| s.0).sum();
            let pick = scores.iter().position(|s| s.0 == 0 && !s.1).or_else(|| {
                (!zeros_only)
                    .then(|| scores.iter().position(|s| s.0 == 1 && !s.1))
                    .flatten()
            });
            match pick {
                Some(i) if (total as u32) < aim && left > 0 => {
                    for f in 1..=6 {
                        let mut next = scores.clone();
                        next[i] = (score(f), true);
                        go(next, left - 1, aim, zeros_only, chance / 6.0, score, out);
                    }
                }
                _ => out[total] += chance,
            }
        }
        let scores = dice_scores.into_iter().map(|s| (s, false)).collect();
        go(
            scores,
            rerolls,
            aim,
            zeros_only,
            1.0 / f64::from(combos),
            &score,
            &mut out,
        );
    }
    super::dist::trim(out)
}

#[test]
fn the_re_roll_recursion_matches_a_brute_force_over_every_die() {
    for faces in [[3, 2, 1], [4, 1, 1], [2, 3, 1], [3, 3, 0]] {
        for dice in 1..=4 {
            for rerolls in 0..=3 {
                for aim in 1..=3 {
                    for zeros_only in [false, true] {
                        let exact = test_successes(dice, faces, rerolls, aim, zeros_only);
                        let b = brute(dice, faces, rerolls, aim, zeros_only);
                        assert_eq!(exact.len(), b.len());
                        for (x, y) in exact.iter().zip(&b) {
                            close(*x, *y);
                        }
                    }
                }
            }
        }
    }
}
