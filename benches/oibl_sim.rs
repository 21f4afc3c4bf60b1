//! One if by Land battles, the Monte Carlo's unit of work, fought on one core: two ordinary
//! forces (the calibration's mix, `montecarlo::ordinary_army`: two line battalions, a rifle
//! company, a troop of cavalry and a light gun under a commander rated 1) without narration and
//! narrated, and the two example brigades. The issue asks for at least 2 000 battles a second of
//! two ordinary forces (`docs/benchmarks.md`).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::oibl::montecarlo::ordinary_army;
use muster::rules::systems::oibl::record::prepare;
use muster::rules::systems::oibl::sim::{fight_with, StandardPolicy};
use muster::rules::systems::oibl::system::example_force;
use muster::rules::systems::oibl::Catalogue;

fn battles(c: &mut Criterion) {
    let cat = Catalogue::builtin().unwrap();
    let mut setup = prepare(
        &cat,
        ordinary_army("A", 1),
        ordinary_army("B", 1),
        Some("open_field"),
        false,
        1,
    )
    .unwrap()
    .setup;
    let mut seed = 0u64;
    c.bench_function("oibl_battle_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &StandardPolicy, false).unwrap())
        })
    });
    c.bench_function("oibl_battle_narrated", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &StandardPolicy, true).unwrap())
        })
    });
    let mut examples = prepare(
        &cat,
        example_force("example:american").unwrap(),
        example_force("example:british").unwrap(),
        Some("defended_line"),
        false,
        1,
    )
    .unwrap()
    .setup;
    c.bench_function("oibl_examples_defended_line_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            examples.seed = seed;
            black_box(fight_with(&cat, &examples, &StandardPolicy, false).unwrap())
        })
    });
}

criterion_group!(benches, battles);
criterion_main!(benches);
