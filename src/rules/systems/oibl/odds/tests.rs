//! Hand-worked cases from the specification. Each comment says how the answer was worked on
//! paper from the Combat Table (spec 4.1) and the d10 read 0–9 (B-1).

use serde_json::json;

use super::*;

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

fn ask(kind: &str, body: Value) -> Value {
    match answer(&cat(), kind, &body) {
        Ok(v) => v,
        Err(e) => panic!("{kind}: {e}"),
    }
}

fn p_of(v: &Value, list: &str, value: u64) -> f64 {
    v[list]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["value"] == value))
        .and_then(|p| p["p"].as_f64())
        .unwrap_or(0.0)
}

#[test]
fn eighteen_muskets_unmodified() {
    // Row 16–18, faces 0..9 read columns 0..9: 0,1,1,1,2,2,2,3,3,3 → P(0)=.1, P(1)=.3,
    // P(2)=.3, P(3)=.3; mean 1.8; at least 2: .6.
    let v = ask(
        "fire",
        json!({"firing_figures": 18, "firer_quality": "regular", "range_inches": 5,
                               "target": {"figures": 18, "formation": "close_order"}}),
    );
    close(p_of(&v, "distribution", 0), 0.1);
    close(p_of(&v, "distribution", 3), 0.3);
    close(p_of(&v, "at_least", 2), 0.6);
    close(v["mean"].as_f64().unwrap_or(0.0), 1.8);
    close(v["p_at_least_one"].as_f64().unwrap_or(0.0), 0.9);
}

#[test]
fn the_cliff_below_zero_and_the_top_column() {
    // 30 Wretched (−4) at a redoubt (−4): faces 0..7 give MDR < 0, a complete miss even though
    // row 28–30 reads 2 at MDR 0; face 8 → MDR 0 → 2, face 9 → MDR 1 → 2.
    let v = ask(
        "fire",
        json!({"firing_figures": 30, "firer_quality": "wretched",
                               "target": {"figures": 20, "cover": "heavy"}}),
    );
    close(p_of(&v, "distribution", 0), 0.8);
    close(p_of(&v, "distribution", 2), 0.2);
    assert_eq!(v["total_modifier"], -8);
    // Point blank +2, Marksmen +2, column +2, flank +2 = +8: faces 4..9 read column 12 (6),
    // face 3 → 11 (5), 2 → 10 (5), 1 → 9 (4), 0 → 8 (4).
    let v = ask(
        "fire",
        json!({"firing_figures": 30, "marksmen": true, "range_inches": 2,
                               "flank_or_rear": true, "target": {"figures": 40, "formation": "column"}}),
    );
    close(p_of(&v, "distribution", 6), 0.6);
    close(p_of(&v, "distribution", 5), 0.2);
    close(p_of(&v, "distribution", 4), 0.2);
    // A mounted column is +2 once, and flank fire does nothing against skirmishers (B-4).
    let v = ask(
        "fire",
        json!({"firing_figures": 10, "flank_or_rear": true,
                               "target": {"figures": 10, "formation": "skirmish"}}),
    );
    assert_eq!(v["total_modifier"], 0);
    let v = ask(
        "fire",
        json!({"firing_figures": 10,
                               "target": {"figures": 10, "formation": "column", "mounted": true, "type": "cavalry"}}),
    );
    assert_eq!(v["total_modifier"], 2);
}

#[test]
fn casualties_never_exceed_the_target_and_chunks_roll_apart() {
    // 61 figures: 30 + 30 + 1; the lone figure rolls nothing (B-2). Two d10 on row 28–30 at
    // +0: each 2 (faces 0–3), 3 (4–6), 4 (7–9): P(8) = .3 × .3 = .09.
    let v = ask(
        "fire",
        json!({"firing_figures": 61, "target": {"figures": 40}}),
    );
    assert_eq!(v["chunks"], json!([30, 30, 1]));
    close(p_of(&v, "distribution", 8), 0.09);
    close(p_of(&v, "distribution", 4), 0.16);
    // A 3-figure target takes at most 3: P(3) = P(6,7,8 before the cap) = 1 − P(4) − P(5).
    let v = ask(
        "fire",
        json!({"firing_figures": 61, "target": {"figures": 3}}),
    );
    close(p_of(&v, "distribution", 3), 1.0);
    // A single figure: no roll at all.
    let v = ask(
        "fire",
        json!({"firing_figures": 1, "marksmen": true, "target": {"figures": 10}}),
    );
    close(p_of(&v, "distribution", 0), 1.0);
    // Half rounded up: 7 → 4 figures (row 4–6).
    let v = ask(
        "fire",
        json!({"firing_figures": 7, "half": "up", "target": {"figures": 10}}),
    );
    assert_eq!(v["figures_firing"], 4);
    let v = ask(
        "fire",
        json!({"firing_figures": 7, "half": "down", "target": {"figures": 10}}),
    );
    assert_eq!(v["figures_firing"], 3);
}

#[test]
fn a_medium_gun_at_long_range_against_a_battery() {
    // 10 figures (B-7), over 25" −4 (B-5): row 10–12 faces 0..9 → MDR −4..5: faces 0–3 miss,
    // 4 and 5 read 0, 6–9 read 1: P(≥1) = .4; counter-battery 8–9 on a d10: .4 × .2 = .08 (B-6).
    let v = ask(
        "fire",
        json!({"gun": "medium", "range_inches": 30, "target": {"figures": 3, "type": "artillery"}}),
    );
    close(v["p_at_least_one"].as_f64().unwrap_or(0.0), 0.4);
    close(v["p_gun_destroyed"].as_f64().unwrap_or(0.0), 0.08);
    assert!(v["rulings"]
        .as_array()
        .is_some_and(|r| r.contains(&json!("B-6"))));
    // Point blank never helps a gun; 12" is already the −2 band.
    let v = ask(
        "fire",
        json!({"gun": "light", "range_inches": 12, "point_blank": true, "target": {"figures": 10}}),
    );
    assert_eq!(v["total_modifier"], -2);
    assert!(answer(
        &cat(),
        "fire",
        &json!({"gun": "light", "range_inches": 41, "target": {"figures": 10}})
    )
    .is_err());
}

#[test]
fn morale_tests_read_the_margin() {
    // Veteran (8), no modifier: 0–8 pass, 9 fails by 1 (B-10).
    let v = ask("morale", json!({"quality": "veteran"}));
    close(v["p_pass"].as_f64().unwrap_or(0.0), 0.9);
    close(v["p_failed_by_1"].as_f64().unwrap_or(0.0), 0.1);
    close(v["p_failed_by_2"].as_f64().unwrap_or(0.0), 0.0);
    // Regular (7), half its 18 figures lost (+2) and outflanked (+2): need 3 or less (.4),
    // 4 fails by 1 (.1), 5–9 by 2 or more (.5).
    let v = ask(
        "morale",
        json!({"quality": "regular", "outflanked": true, "start_figures": 18, "figures": 9}),
    );
    close(v["p_pass"].as_f64().unwrap_or(0.0), 0.4);
    close(v["p_failed_by_1"].as_f64().unwrap_or(0.0), 0.1);
    close(v["p_failed_by_2"].as_f64().unwrap_or(0.0), 0.5);
    // Commander X = 2 with a Poor (6) unit: pass on 0–8 (.9).
    let v = ask("morale", json!({"quality": "poor", "commander_rating": 2}));
    close(v["p_pass"].as_f64().unwrap_or(0.0), 0.9);
    // B-11: a Poor warband charging in woods tests at 8; an Elite one is capped at 9.
    let v = ask(
        "morale",
        json!({"quality": "poor", "indian": true, "in_woods": true, "test_kind": "charge"}),
    );
    assert_eq!(v["effective_morale_number"], 8);
    let v = ask(
        "morale",
        json!({"quality": "elite", "indian": true, "in_woods": true, "test_kind": "charge"}),
    );
    assert_eq!(v["effective_morale_number"], 9);
    // "Charged by" modifiers count only on the charged test.
    let v = ask(
        "morale",
        json!({"quality": "regular", "skirmish_charged_by_cavalry": true}),
    );
    assert_eq!(v["total_modifier"], 0);
    let v = ask(
        "morale",
        json!({"quality": "regular", "test_kind": "charged", "modifiers": ["skirmish_charged_by_cavalry"]}),
    );
    assert_eq!(v["total_modifier"], 2);
    // Both friend-routing modifiers: the higher only.
    let v = ask(
        "morale",
        json!({"quality": "regular", "equal_friend_routing": true, "higher_friend_routing": true}),
    );
    assert_eq!(v["total_modifier"], 2);
}

#[test]
fn cavalry_against_foot_fight_one_round() {
    // 2 mounted (+2 cavalry vs non-cavalry) against 2 foot without bayonets, both Regular.
    // Row 2–3 hits from MDR 7: cavalry hit on faces 5–9 (.5), foot on 7–9 (.3). One round
    // (B-21). Cases (attacker lost, defender lost):
    //   (0,0) .7×.5 = .35: both test at no loss, each routs on a 9 (.1);
    //   (0,1) .35: the defender routs, the attacker lost nothing: attacker wins;
    //   (1,0) .15: the attacker routs; (1,1) .15: both test at half lost (+2): rout on 7–9 (.3).
    // attacker_wins = .35×.09 + .35 + .15×.21 = .413; defender_wins = .0315 + .15 + .0315 =
    // .213; both_rout = .35×.01 + .15×.09 = .017; repulsed = .35×.81 + .15×.49 = .357.
    let v = ask(
        "melee",
        json!({
        "attacker": {"quality": "regular", "figures": 2, "cavalry": true},
        "defender": {"quality": "regular", "figures": 2, "infantry": true}}),
    );
    assert_eq!(v["rounds"], 1);
    close(
        v["outcomes"]["attacker_wins"].as_f64().unwrap_or(0.0),
        0.413,
    );
    close(
        v["outcomes"]["defender_wins"].as_f64().unwrap_or(0.0),
        0.213,
    );
    close(v["outcomes"]["both_rout"].as_f64().unwrap_or(0.0), 0.017);
    close(
        v["outcomes"]["attacker_repulsed"].as_f64().unwrap_or(0.0),
        0.357,
    );
}

#[test]
fn melee_modifiers_and_two_rounds() {
    // Elite bayonets against Poor militia without, attacking the flank: +3 steps, +1 bayonets,
    // +2 flank for the attacker; the defender −4 attacked in the flank.
    let v = ask(
        "melee",
        json!({
        "attacker": {"quality": "elite", "figures": 12, "infantry": true, "bayonets": true, "flank_or_rear": true},
        "defender": {"quality": "poor", "figures": 16, "infantry": true, "panic_marker": true}}),
    );
    assert_eq!(v["rounds"], 2);
    let total = |side: &str| -> i64 {
        v[side]
            .as_array()
            .map_or(0, |m| m.iter().filter_map(|x| x["value"].as_i64()).sum())
    };
    assert_eq!(total("attacker_modifiers"), 3 + 1 + 2 + 1);
    assert_eq!(total("defender_modifiers"), -4);
    let o = &v["outcomes"];
    let sum: f64 = [
        "attacker_wins",
        "defender_wins",
        "both_rout",
        "attacker_repulsed",
    ]
    .iter()
    .filter_map(|k| o[*k].as_f64())
    .sum();
    close(sum, 1.0);
    assert!(o["attacker_wins"].as_f64().unwrap_or(0.0) > 0.8);
}

#[test]
fn the_charge_chain_adds_up() {
    // A Veteran charger passes its declaration on 0–8 (.9), falls back on 9 (.1, B-13). A
    // Regular defender in the open passes on 0–7 (.8), fails by 1 on 8, routs on 9: it routs
    // before contact with .9 × .1 = .09 (B-14).
    let v = ask(
        "charge",
        json!({
        "attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true},
        "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}),
    );
    let e = &v["ends"];
    close(e["charger_falls_back"].as_f64().unwrap_or(0.0), 0.1);
    close(
        e["charger_routs_at_declaration"].as_f64().unwrap_or(0.0),
        0.0,
    );
    close(
        e["defender_routs_before_contact"].as_f64().unwrap_or(0.0),
        0.09,
    );
    let sum: f64 = [
        "charger_falls_back",
        "charger_routs_at_declaration",
        "defender_routs_before_contact",
        "charger_halts",
        "charger_routs_closing",
        "melee",
    ]
    .iter()
    .filter_map(|k| e[*k].as_f64())
    .sum();
    close(sum, 1.0);
    let m = &v["melee_outcomes"];
    let msum: f64 = [
        "attacker_wins",
        "defender_wins",
        "both_rout",
        "attacker_repulsed",
    ]
    .iter()
    .filter_map(|k| m[*k].as_f64())
    .sum();
    close(msum, e["melee"].as_f64().unwrap_or(0.0));
    // Mounted cavalry defenders do not fire: nothing halts the charger.
    let v = ask(
        "charge",
        json!({
        "attacker": {"quality": "veteran", "figures": 8, "cavalry": true},
        "defender": {"quality": "regular", "figures": 8, "cavalry": true}}),
    );
    close(v["ends"]["charger_halts"].as_f64().unwrap_or(1.0), 0.0);
}

#[test]
fn risk_to_generals() {
    // Five casualties: 3 dice; killed = 1 − (29/30)^3 (spec 4.6, oibl-general-11).
    let v = ask("general", json!({"casualties": 5}));
    assert_eq!(v["dice"], 3);
    close(
        v["p_killed"].as_f64().unwrap_or(0.0),
        1.0 - (29.0f64 / 30.0).powi(3),
    );
    // One die: each wound 1/30.
    let v = ask("general", json!({"casualties": 1}));
    close(v["p_light_wound"].as_f64().unwrap_or(0.0), 1.0 / 30.0);
    close(v["p_serious_wound"].as_f64().unwrap_or(0.0), 1.0 / 30.0);
    close(v["p_unhurt"].as_f64().unwrap_or(0.0), 0.9);
    // Two applications of 1 casualty: 2 dice, not 1.
    let v = ask("general", json!({"applications": [1, 1]}));
    assert_eq!(v["dice"], 2);
}

#[test]
fn bad_requests_are_refused_in_words() {
    let c = cat();
    for (kind, body) in [
        ("fire", json!({})),
        (
            "fire",
            json!({"firing_figures": 10, "gun": "light", "target": {"figures": 3}}),
        ),
        (
            "fire",
            json!({"firing_figures": 4000000, "target": {"figures": 3}}),
        ),
        ("morale", json!({"quality": "guard"})),
        ("morale", json!({"morale_number": 12})),
        (
            "morale",
            json!({"quality": "regular", "modifiers": ["bribery"]}),
        ),
        ("melee", json!({"attacker": {"figures": 5}})),
        ("general", json!({})),
        ("dice", json!({})),
    ] {
        assert!(answer(&c, kind, &body).is_err(), "{kind} {body}");
    }
}
