//! Liberty or Death! exact odds over the API and on the public page.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

async fn post(app: &TestApp, path: &str, body: &Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url(path))
        .json(body)
        .send()
        .await
        .unwrap()
}

fn sum(v: &Value) -> f64 {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum()
}

#[tokio::test]
async fn shooting_odds_count_the_dice_as_the_spec_does_and_name_the_rulings() {
    let app = spawn_app().await;
    let res = post(
        &app,
        "/api/v1/lod/odds/shooting",
        &json!({"shooter": {"list": "continental", "entry": "riflemen", "bases": 3, "hits": 0},
                "target": {"list": "continental", "entry": "minutemen", "bases": 3, "hits": 0, "in_cover": true,
                           "obscured": false, "enfiladed": false, "fortified": false, "in_command": false, "supported": false},
                "range_inches": 20, "concentrate_fire": false, "defensive_fire": false}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let o: Value = res.json().await.unwrap();
    assert_eq!(o["dice"], 2);
    assert_eq!(o["to_hit"], "3+");
    assert!((sum(&o["unsaved_hits"]) - 1.0).abs() < 1e-12);
    assert!((o["unsaved_hits"][0].as_f64().unwrap() - 25.0 / 81.0).abs() < 1e-12);
    let rulings: Vec<&str> = o["rulings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(rulings.contains(&"L-18") && rulings.contains(&"L-21"));
}

#[tokio::test]
async fn a_shot_beyond_long_range_is_refused_naming_the_field() {
    let app = spawn_app().await;
    let res = post(
        &app,
        "/api/v1/lod/odds/shooting",
        &json!({"shooter": {"list": "continental", "entry": "militia_regiment", "bases": 4, "hits": 0},
                "target": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4, "hits": 0},
                "range_inches": 40}),
    )
    .await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    assert_eq!(e["error"]["details"][0]["field"], "range_inches");
    assert!(e["error"]["details"][0]["message"]
        .as_str()
        .unwrap()
        .contains("beyond the long range"));
    // A bad value inside a side names that side's field.
    let res = post(
        &app,
        "/api/v1/lod/odds/melee",
        &json!({"a": {"list": "continental", "entry": "continental_regiment", "bases": 4, "against": "sideways"},
                "b": {"list": "british", "entry": "regular_infantry_regiment", "bases": 4}}),
    )
    .await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    assert_eq!(e["error"]["details"][0]["field"], "a.against");
}

#[tokio::test]
async fn melee_odds_cover_every_way_the_round_can_end() {
    let app = spawn_app().await;
    let side = |list: &str, entry: &str, charging: bool| {
        json!({"list": list, "entry": entry, "bases": 4, "hits": 0, "disorder_markers": 0, "direct_bases": 4,
               "supporting_bases": 0, "charging": charging, "against": "front", "enemy_defending_obstacle": false,
               "enemy_uphill": false, "in_the_open": true, "general_attached": true, "lead_the_fight": false,
               "in_command": true, "supported": false, "hold_the_line": false})
    };
    let res = post(
        &app,
        "/api/v1/lod/odds/melee",
        &json!({"a": side("british", "highland_infantry_regiment", true),
                "b": side("continental", "continental_regiment", false)}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let o: Value = res.json().await.unwrap();
    let total: f64 = [
        "p_a_wins",
        "p_draw",
        "p_b_wins",
        "p_a_broken_by_hits",
        "p_b_broken_by_hits",
        "p_both_broken_by_hits",
    ]
    .iter()
    .map(|k| o[*k].as_f64().unwrap())
    .sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Charging: (3 + 1) × 4 + 2 General = 18 dice; TOUGH FIGHTERS hit 3 in 4.
    assert_eq!(o["a"]["dice"], 18);
    assert!((o["a"]["p_hit"].as_f64().unwrap() - 0.75).abs() < 1e-12);
    assert!((o["a"]["p_general_killed"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
    assert!(o["a"]["pursues"].as_f64().unwrap() > 0.0);
}

#[tokio::test]
async fn test_odds_give_the_successes_and_the_result_by_state() {
    let app = spawn_app().await;
    let res = post(
        &app,
        "/api/v1/lod/odds/test",
        &json!({"kind": "morale", "trigger": "broken_friend", "list": "continental", "entry": "continental_regiment",
                "bases": 4, "hits": 0, "routing": false, "in_command": true, "supported": false, "fortified": false,
                "press_the_charge": false, "direct_order": false, "hold_the_line": false, "reinforce": false}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let o: Value = res.json().await.unwrap();
    assert!((o["p_pass"].as_f64().unwrap() - 83.0 / 96.0).abs() < 1e-12);
    assert!((sum(&o["roll"]["successes"]) - 1.0).abs() < 1e-12);
    assert_eq!(o["results"][1]["result"], "disordered");
    assert!(o["policy"].as_str().unwrap().starts_with("L-8"));
}

#[tokio::test]
async fn the_odds_page_is_public_and_works_out_each_kind() {
    let app = spawn_app().await;
    let page = app.get_html("/lod/odds").await;
    assert!(page.contains("Liberty or Death! odds"));
    assert!(page.contains("Continental — Riflemen"));
    let shot = app
        .get_html("/lod/odds?calc=shooting&s_unit=continental.riflemen&s_bases=3&t_unit=continental.minutemen&t_bases=3&t_cover=1&range=20")
        .await;
    assert!(shot.contains("1½ → 2 dice"), "{shot}");
    assert!(shot.contains("At least") && shot.contains("L-19"));
    let melee = app
        .get_html("/lod/odds?calc=melee&a_unit=british.guard_infantry&b_unit=continental.militia_regiment&a_charging=1")
        .await;
    assert!(melee.contains("Who wins the round"));
    let test = app
        .get_html("/lod/odds?calc=test&x_unit=continental.continental_regiment&x_kind=order&x_order=charge")
        .await;
    assert!(test.contains("Determined Charge!"));
    let refused = app
        .get_html("/lod/odds?calc=shooting&s_unit=continental.militia_regiment&t_unit=british.light_infantry&range=60")
        .await;
    assert!(refused.contains("there is no shot"));
    // A number out of the field's own bounds is refused in the field's words.
    let bad = app
        .get_html("/lod/odds?calc=shooting&s_unit=continental.riflemen&s_firing=9&t_unit=continental.minutemen")
        .await;
    assert!(
        bad.contains("Firing bases must be a whole number from 1 to 6."),
        "the bounds said are the field's"
    );
    // A size the unit is not fielded at: the message names the form's part, not the API's
    // field, and says the sizes as a sentence would.
    let size = app
        .get_html("/lod/odds?calc=shooting&s_unit=continental.riflemen&s_bases=5&t_unit=continental.minutemen")
        .await;
    assert!(
        size.contains("Shooter: Riflemen is fielded with 3 or 4 bases, not 5.")
            && !size.contains("shooter.bases"),
        "{size}"
    );
    // A unit with no bases in the fight does not fight.
    let none = app
        .get_html("/lod/odds?calc=melee&a_unit=british.guard_infantry&a_direct=0&a_support=0&b_unit=continental.militia_regiment")
        .await;
    assert!(
        none.contains("Side A: A unit with no bases in the fight does not fight"),
        "{none}"
    );
    // Land of the Free: a weapon the type cannot carry is named as a player would name it.
    let lotf = app
        .get_html("/lotf/odds?calc=shooting&s_type=infantry&s_size=medium&s_weapon=heavy_gun")
        .await;
    assert!(
        lotf.contains("cannot carry that weapon (Heavy gun)") && !lotf.contains("heavy_gun)"),
        "no raw ids in the message"
    );
}
