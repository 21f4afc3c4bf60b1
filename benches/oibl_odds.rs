//! One if by Land exact odds: a typical request of each kind, through the one entry point the
//! API calls.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::oibl::odds::answer;
use muster::rules::systems::oibl::Catalogue;
use serde_json::json;

fn benches(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let cases = [
        (
            "fire",
            json!({"firing_figures": 18, "firer_quality": "veteran", "range_inches": 2,
                         "target": {"figures": 16, "formation": "open_order", "cover": "light"}}),
        ),
        (
            "fire",
            json!({"gun": "heavy", "range_inches": 20, "target": {"figures": 4, "type": "artillery"}}),
        ),
        (
            "morale",
            json!({"quality": "regular", "commander_rating": 1, "outflanked": true,
                           "start_figures": 18, "figures": 11}),
        ),
        (
            "melee",
            json!({"attacker": {"quality": "veteran", "figures": 18, "round1_figures": 12,
                                       "infantry": true, "bayonets": true},
                          "defender": {"quality": "regular", "figures": 16, "round1_figures": 12,
                                       "infantry": true, "cover": "light"}}),
        ),
        (
            "charge",
            json!({"attacker": {"quality": "veteran", "figures": 18, "round1_figures": 12,
                                        "infantry": true, "bayonets": true},
                           "defender": {"quality": "regular", "figures": 18, "round1_figures": 12,
                                        "infantry": true, "bayonets": true}}),
        ),
        ("general", json!({"casualties": 7})),
    ];
    for (i, (kind, body)) in cases.iter().enumerate() {
        c.bench_function(&format!("oibl_odds_{kind}_{i}"), |b| {
            b.iter(|| answer(&cat, black_box(kind), black_box(body)).expect("answer"))
        });
    }
}

criterion_group!(oibl, benches);
criterion_main!(oibl);
