//! Liberty or Death! exact odds: typical requests of each kind, as the API reads them.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::lod::odds::{
    melee_odds, read_request, shooting_odds, test_odds, MeleeRequest, ShootingRequest, TestRequest,
};
use muster::rules::systems::lod::Catalogue;
use serde_json::json;

fn benches(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let volley: ShootingRequest = read_request(&json!({
        "shooter": {"list": "british", "entry": "regular_infantry_regiment", "bases": 5},
        "target": {"list": "continental", "entry": "continental_regiment", "bases": 4, "hits": 6,
                   "in_command": true, "supported": true},
        "range_inches": 6, "concentrate_fire": true
    }))
    .expect("request");
    let canister: ShootingRequest = read_request(&json!({
        "shooter": {"list": "british", "entry": "artillery_12pdr", "bases": 3},
        "target": {"list": "continental", "entry": "continental_regiment", "bases": 5, "hits": 4},
        "range_inches": 8
    }))
    .expect("request");
    let melee: MeleeRequest = read_request(&json!({
        "a": {"list": "british", "entry": "guard_infantry", "bases": 5, "charging": true,
              "general_attached": true, "lead_the_fight": true, "supporting_bases": 0, "hold_the_line": true},
        "b": {"list": "continental", "entry": "continental_regiment", "bases": 5, "hits": 3,
              "in_command": true, "supported": true}
    }))
    .expect("request");
    let morale: TestRequest = read_request(&json!({
        "kind": "morale", "trigger": "lost_melee", "list": "continental", "entry": "experienced_militia_regiment",
        "bases": 4, "hits": 0, "in_command": true, "supported": true, "hold_the_line": true
    }))
    .expect("request");
    let charge: TestRequest = read_request(&json!({
        "kind": "order", "order": "charge", "list": "british", "entry": "grenadier_infantry",
        "bases": 4, "in_command": true, "supported": true, "fortified": true, "direct_order": true
    }))
    .expect("request");
    c.bench_function("lod_odds_shooting_volley", |b| {
        b.iter(|| shooting_odds(&cat, black_box(&volley)))
    });
    c.bench_function("lod_odds_shooting_canister_12pdr", |b| {
        b.iter(|| shooting_odds(&cat, black_box(&canister)))
    });
    c.bench_function("lod_odds_melee_guard_charge", |b| {
        b.iter(|| melee_odds(&cat, black_box(&melee)))
    });
    c.bench_function("lod_odds_test_morale", |b| {
        b.iter(|| test_odds(&cat, black_box(&morale)))
    });
    c.bench_function("lod_odds_test_charge_three_rerolls", |b| {
        b.iter(|| test_odds(&cat, black_box(&charge)))
    });
}

criterion_group!(lod_odds, benches);
criterion_main!(lod_odds);
