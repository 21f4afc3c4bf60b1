//! All the King's Men exact odds: typical requests of each kind, through the one entry point
//! the API calls.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::atkm::odds::answer;
use muster::rules::systems::atkm::Catalogue;
use serde_json::json;

fn benches(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let volley = json!({
        "attacker": {"type": "infantry", "formation": "line", "figures": 12, "colour": "green"},
        "defender": {"type": "infantry", "figures": 8, "colour": "yellow"},
        "range_inches": 10
    });
    let grapeshot = json!({
        "attacker": {"type": "foot_artillery", "firing_figures": 4, "gun": "heavy", "colour": "green"},
        "defender": {"type": "infantry", "figures": 12, "colour": "green", "cover": "heavy"},
        "range_inches": 8, "flank": true
    });
    let charge = json!({
        "attacker": {"type": "cavalry", "figures": 6},
        "defender": {"type": "infantry", "figures": 12, "colour": "yellow", "general_rating": 2,
                     "rally_rating": 2}
    });
    let command = json!({"rating": 3, "unit_colour": "yellow", "quality": "militia"});
    let leaders = json!({"marksmen": true});
    c.bench_function("atkm_odds_fire_volley", |b| {
        b.iter(|| answer(&cat, "fire", black_box(&volley)))
    });
    c.bench_function("atkm_odds_fire_heavy_gun_close", |b| {
        b.iter(|| answer(&cat, "fire", black_box(&grapeshot)))
    });
    c.bench_function("atkm_odds_melee_cavalry_and_square", |b| {
        b.iter(|| answer(&cat, "melee", black_box(&charge)))
    });
    c.bench_function("atkm_odds_command", |b| {
        b.iter(|| answer(&cat, "command", black_box(&command)))
    });
    c.bench_function("atkm_odds_leaders", |b| {
        b.iter(|| answer(&cat, "leaders", black_box(&leaders)))
    });
}

criterion_group!(atkm_odds, benches);
criterion_main!(atkm_odds);
