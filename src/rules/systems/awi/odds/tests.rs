//! Hand-worked cases from the spec (4.2–4.6). Each comment says how the number was worked.

use serde_json::json;

use super::super::Catalogue;
use super::answer;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

fn ask(kind: &str, body: serde_json::Value) -> serde_json::Value {
    answer(&cat(), kind, &body).unwrap_or_else(|e| panic!("{kind}: {e:?}"))
}

fn close(a: &serde_json::Value, b: f64) {
    let a = a.as_f64().unwrap_or(f64::NAN);
    assert!((a - b).abs() < 1e-12, "{a} is not {b}");
}

fn p_of(rows: &serde_json::Value, value: i64, field: &str) -> f64 {
    rows.as_array()
        .and_then(|r| r.iter().find(|x| x["value"] == value))
        .map_or(0.0, |x| x[field].as_f64().unwrap_or(0.0))
}

#[test]
fn six_bases_of_trained_infantry_at_close_range() {
    // Need 7 unmodified: 4 faces in 10 hit. P(0 hits) = 0.6^6; mean 2.4; P(≥2) = 1 - 0.6^6 -
    // 6·0.4·0.6^5. General: E[min(c,10)]/10 = 0.24.
    let a = ask(
        "firing",
        json!({"firer": {"type": "infantry", "grade": "trained", "bases_firing": 6},
        "target": {"type": "infantry", "general_attached": true, "figures_lost": 2}, "range_inches": 4}),
    );
    assert_eq!(a["need"], 7);
    assert_eq!(a["band"], "close");
    close(&a["p_hit"], 0.4);
    close(&a["expected_casualties"], 2.4);
    close(&json!(p_of(&a["casualties"], 0, "p")), 0.6f64.powi(6));
    close(
        &a["p_two_or_more"],
        1.0 - 0.6f64.powi(6) - 6.0 * 0.4 * 0.6f64.powi(5),
    );
    close(&a["p_general_killed"], 0.24);
    // Two figures already gone: the first casualty takes the third figure of a base.
    close(
        &json!(p_of(&a["bases_lost"], 1, "at_least")),
        1.0 - 0.6f64.powi(6),
    );
    assert_eq!(a["casualties"].as_array().map(Vec::len), Some(7));
    assert!(a["rulings"]
        .as_array()
        .is_some_and(|r| r.contains(&json!("W-19"))));
}

#[test]
fn first_volley_at_a_column_and_moving_penalties() {
    // 7 − 1 (first volley, W-20) − 2 (column) + 1 (moved, W-21) = 5: p = 6/10.
    let a = ask(
        "firing",
        json!({"firer": {"type": "infantry", "bases_firing": 2, "first_volley": true, "moved_last_move": true},
        "target": {"type": "infantry", "column": true}, "range_inches": 3}),
    );
    assert_eq!(a["need"], 5);
    close(&a["p_hit"], 0.6);
    // Disordered: no first-volley bonus, +1 disordered: 7 − 2 + 1 + 1 = 7.
    let a = ask(
        "firing",
        json!({"firer": {"type": "infantry", "bases_firing": 2, "first_volley": true, "moved_last_move": true, "disordered": true},
        "target": {"type": "infantry", "column": true}, "range_inches": 3}),
    );
    assert_eq!(a["need"], 7);
}

#[test]
fn a_light_gun_with_canister_at_a_column() {
    // 3 gunners: 2 D10. 7 − 2 canister − 2 column = 3: p = 8/10; P(2 hits) = 0.64.
    let a = ask(
        "firing",
        json!({"firer": {"type": "artillery", "gun": "light", "gunners": 3},
        "target": {"type": "infantry", "column": true}, "range_inches": 2}),
    );
    assert_eq!((a["dice"].as_i64(), a["need"].as_i64()), (Some(2), Some(3)));
    close(&json!(p_of(&a["casualties"], 2, "p")), 0.64);
    // 2 gunners at extreme range (24"): 1 die, 7 + 2 = 9: p = 2/10.
    let a = ask(
        "firing",
        json!({"firer": {"type": "artillery", "gun": "light", "gunners": 2},
        "range_inches": 24}),
    );
    assert_eq!((a["dice"].as_i64(), a["need"].as_i64()), (Some(1), Some(9)));
    assert_eq!(a["p_hit_fraction"], "2/10");
}

#[test]
fn militia_skirmishers_cannot_hit_skirmishers_in_cover_at_long_range() {
    // 7 + 1 militia + 1 long + 1 skirmishers + 1 cover = 11: no hit is possible (W-19).
    let a = ask(
        "firing",
        json!({"firer": {"type": "skirmishers", "grade": "militia", "bases_firing": 3, "arms": "rifle"},
        "target": {"type": "skirmishers", "in_cover": true}, "range_inches": 12}),
    );
    assert_eq!(a["need"], 11);
    close(&a["p_hit"], 0.0);
    close(&json!(p_of(&a["casualties"], 0, "p")), 1.0);
}

#[test]
fn out_of_range_cavalry_and_rifled_infantry_are_refused_with_reasons() {
    let c = cat();
    let refuse = |body: serde_json::Value, field: &str| {
        let e = answer(&c, "firing", &body).expect_err("refused");
        assert_eq!(e.field, field, "{}", e.message);
    };
    refuse(
        json!({"firer": {"type": "infantry", "bases_firing": 4}, "range_inches": 8.5}),
        "range_inches",
    );
    refuse(
        json!({"firer": {"type": "cavalry", "bases_firing": 4}, "range_inches": 2}),
        "firer.type",
    );
    refuse(
        json!({"firer": {"type": "infantry", "bases_firing": 4, "arms": "rifle"}, "range_inches": 2}),
        "firer.arms",
    );
    refuse(
        json!({"firer": {"type": "artillery", "gunners": 5}, "range_inches": 2}),
        "firer.gunners",
    );
    refuse(
        json!({"firer": {"type": "infantry"}, "range_inches": 2}),
        "firer.bases_firing",
    );
    refuse(
        json!({"firer": {"type": "infantry", "bases_firing": 1}, "range_inches": -1}),
        "range_inches",
    );
    assert!(answer(&c, "artillery", &json!({})).is_err());
    assert!(answer(&c, "firing", &json!({"nonsense": 1})).is_err());
}

#[test]
fn one_element_each_infantry_charging_infantry() {
    // a charges: 7 − 1 = 6, p 0.5; b stands: 7, p 0.4. a suffers 1 with 0.4, b with 0.5.
    // a wins: 0.5 × 0.6 = 0.3; b wins 0.4 × 0.5 = 0.2; draw 0.5.
    // a loses: D10 + 1 (difference) − 1 (infantry charged) ≥ 6: 5/10 → 0.1 breaks, 0.1 back.
    // b loses: D10 + 1 ≥ 6: 6/10 → 0.18 breaks, 0.12 back.
    let a = ask(
        "melee",
        json!({"a": {"type": "infantry", "elements": 1, "charged": true},
                                "b": {"type": "infantry", "elements": 1}}),
    );
    close(&a["p_a_wins"], 0.3);
    close(&a["p_b_wins"], 0.2);
    close(&a["p_draw"], 0.5);
    close(&a["a"]["p_lose_breaks_on_test"], 0.1);
    close(&a["a"]["p_lose_falls_back"], 0.1);
    close(&a["b"]["p_lose_breaks_on_test"], 0.18);
    close(&a["b"]["p_lose_falls_back"], 0.12);
}

#[test]
fn infantry_beaten_by_charging_cavalry_break_and_flank_attacks_cannot_be_answered() {
    // Cavalry charging: 7 − 2 = 5 (p .6); infantry 7 (p .4). 2 elements each.
    let a = ask(
        "melee",
        json!({"a": {"type": "cavalry", "elements": 2, "charged": true},
                                "b": {"type": "infantry", "elements": 2}}),
    );
    assert_eq!(a["a"]["need"], 5);
    assert!(a["b"]["automatic_break"].is_string());
    close(&a["b"]["p_lose_breaks_on_test"], 0.0);
    close(
        &a["b"]["p_lose_breaks_automatically"],
        a["p_a_wins"].as_f64().unwrap_or(-1.0),
    );
    // Struck in flank: b has no elements; a wins whenever it inflicts one casualty:
    // 1 − 0.4² with two elements at 7 (infantry not charging).
    let a = ask(
        "melee",
        json!({"a": {"type": "infantry", "elements": 2},
                                "b": {"type": "infantry", "elements": 3, "struck_in_flank_or_rear": true}}),
    );
    assert_eq!(a["b"]["elements"], 0);
    close(&a["p_a_wins"], 1.0 - 0.6f64.powi(2));
    close(&a["b"]["p_lose_breaks_automatically"], 1.0 - 0.6f64.powi(2));
}

#[test]
fn entering_tests_multiply_into_the_melee() {
    // Cavalry charging the front of ordered trained infantry: D6 − 3 > 0 on 4–6: 1/2.
    // Trained infantry receiving: D6 > 0 always. Contact 1/2; before contact: cavalry halts 1/2.
    let a = ask(
        "melee",
        json!({"a": {"type": "cavalry", "elements": 2, "charged": true},
                                "b": {"type": "infantry", "elements": 2},
                                "include_entering_tests": true}),
    );
    close(&a["a"]["entering"]["p_pass"], 0.5);
    close(&a["b"]["entering"]["p_pass"], 1.0);
    close(&a["p_contact"], 0.5);
    let total: f64 = a["overall"]
        .as_array()
        .map_or(0.0, |o| o.iter().filter_map(|x| x["p"].as_f64()).sum());
    assert!(
        (total - 1.0).abs() < 1e-12,
        "the outcomes add up to 1: {total}"
    );
    // A militia receiver: D6 − 3 > 0 on 4–6; infantry chargers pass always.
    let a = ask(
        "melee",
        json!({"a": {"type": "infantry", "elements": 2, "charged": true},
                                "b": {"type": "infantry", "grade": "militia", "elements": 2},
                                "include_entering_tests": true}),
    );
    let breaks = a["before_contact"]
        .as_array()
        .and_then(|o| o.iter().find(|x| x["id"] == "b_breaks"))
        .map(|x| x["p"].clone());
    close(&breaks.unwrap_or_default(), 0.5);
}

#[test]
fn morale_dice_by_grade() {
    // Trained, 2D5 (totals 2–10 as 1,2,3,4,5,4,3,2,1 /25): OK (5+) 19/25, halt (3–4) 5/25,
    // halt disordered (2) 1/25, rout 0.
    let a = ask(
        "test",
        json!({"kind": "morale", "grade": "trained", "reason": "firing_hits"}),
    );
    let band = |a: &serde_json::Value, id: &str| {
        a["bands"]
            .as_array()
            .and_then(|b| b.iter().find(|x| x["id"] == id))
            .map(|x| x["p"].clone())
            .unwrap_or_default()
    };
    close(&band(&a, "ok"), 19.0 / 25.0);
    close(&band(&a, "halt"), 5.0 / 25.0);
    close(&band(&a, "halt_disordered"), 1.0 / 25.0);
    close(&band(&a, "rout"), 0.0);
    // Militia, 2D6 − 2: OK needs 7+ (21/36), halt 5–6 (9/36), halt disordered 3–4 (5/36),
    // rout 2 (1/36).
    let a = ask(
        "test",
        json!({"kind": "morale", "grade": "militia", "reason": "being_charged"}),
    );
    close(&band(&a, "ok"), 21.0 / 36.0);
    close(&band(&a, "halt"), 9.0 / 36.0);
    close(&band(&a, "halt_disordered"), 5.0 / 36.0);
    close(&band(&a, "rout"), 1.0 / 36.0);
    let words = a["bands"][2]["meaning"].as_str().unwrap_or("");
    assert!(
        words.contains("Routs"),
        "being charged, 1–2 routs (W-9): {words}"
    );
    // A routing trained unit: +1 no enemy in sight, −2 in rout: 2D5 ≥ 6 rallies, 15/25.
    let a = ask("test", json!({"kind": "morale", "reason": "routing"}));
    close(&band(&a, "ok"), 15.0 / 25.0);
    // Elite with 2 of 6 bases lost (3 ten-percent steps, W-3): 2D5 + 1 − 3 ≥ 5 → 2D5 ≥ 7: 10/25.
    let a = ask(
        "test",
        json!({"kind": "morale", "grade": "elite", "bases_lost": 2, "start_bases": 6}),
    );
    close(&band(&a, "ok"), 10.0 / 25.0);
}

#[test]
fn command_and_the_other_tests() {
    let band0 = |a: &serde_json::Value| a["bands"][0]["p"].clone();
    // Trained uncontrolled infantry: 9+ on a D10, 2/10 (W-4's comparison).
    close(
        &band0(&ask(
            "test",
            json!({"kind": "uncontrolled", "type": "infantry"}),
        )),
        0.2,
    );
    // Elite cavalry: +4: D10 ≥ 5, 6/10.
    close(
        &band0(&ask(
            "test",
            json!({"kind": "uncontrolled", "grade": "elite", "type": "cavalry"}),
        )),
        0.6,
    );
    // Brigadier ability 6: 6/10.
    close(
        &band0(&ask("test", json!({"kind": "brigadier", "ability": 6}))),
        0.6,
    );
    assert!(answer(&cat(), "test", &json!({"kind": "brigadier", "ability": 11})).is_err());
    // Militia losers, 2 more suffered: D10 + 2 + 2 ≥ 6 on 2–10: 9/10.
    close(
        &band0(&ask(
            "test",
            json!({"kind": "losers", "grade": "militia", "casualties_suffered": 3, "casualties_inflicted": 1}),
        )),
        0.9,
    );
    // A beaten gun breaks without dice.
    close(
        &band0(&ask(
            "test",
            json!({"kind": "losers", "type": "artillery", "casualties_suffered": 1}),
        )),
        1.0,
    );
    // Entering: raw, disordered, 2 figures killed by fire: D6 − 4 > 0 on 5–6: 2/6.
    close(
        &band0(&ask(
            "test",
            json!({"kind": "entering", "grade": "raw", "disordered": true, "figures_killed_by_fire": 2, "charging": true}),
        )),
        2.0 / 6.0,
    );
    // General with 3 casualties: 3/10.
    close(
        &band0(&ask("test", json!({"kind": "general", "casualties": 3}))),
        0.3,
    );
}
