//! AWI exact odds, one request each: typical firing, melee (with and without the entering
//! tests) and a morale test, as the web calls them (JSON in, JSON out).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::awi::{odds, Catalogue};
use serde_json::json;

fn requests(c: &mut Criterion) {
    let cat = Catalogue::builtin().unwrap();
    let cases = [
        (
            "firing",
            "awi_odds_firing_6_bases",
            json!({"firer": {"type": "infantry", "bases_firing": 6, "first_volley": true},
            "target": {"type": "infantry", "general_attached": true}, "range_inches": 4}),
        ),
        (
            "firing",
            "awi_odds_firing_gun",
            json!({"firer": {"type": "artillery", "gun": "medium", "gunners": 4},
            "target": {"type": "infantry", "column": true}, "range_inches": 12}),
        ),
        (
            "melee",
            "awi_odds_melee_6v6",
            json!({"a": {"type": "infantry", "elements": 6, "charged": true, "led_by_general": true},
            "b": {"type": "infantry", "elements": 6}}),
        ),
        (
            "melee",
            "awi_odds_melee_entering",
            json!({"a": {"type": "cavalry", "elements": 4, "charged": true},
            "b": {"type": "infantry", "grade": "militia", "elements": 6}, "include_entering_tests": true}),
        ),
        (
            "melee",
            "awi_odds_melee_20v20",
            json!({"a": {"type": "infantry", "elements": 20, "charged": true},
            "b": {"type": "infantry", "elements": 20}}),
        ),
        (
            "test",
            "awi_odds_morale",
            json!({"kind": "morale", "grade": "raw", "reason": "being_charged", "bases_lost": 2, "start_bases": 6}),
        ),
    ];
    for (kind, name, body) in cases {
        c.bench_function(name, |b| {
            b.iter(|| black_box(odds::answer(&cat, kind, &body).unwrap()))
        });
    }
}

criterion_group!(benches, requests);
criterion_main!(benches);
