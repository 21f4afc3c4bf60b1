//! All the King's Men battles, the Monte Carlo's unit of work, fought on one core: two
//! ordinary armies (the calibration's mix, `montecarlo::ordinary_army`: two infantry, cavalry,
//! skirmishers and a foot battery under a general rated 2) without narration and narrated, and
//! Cowpens (seven units a side) as the book sets it. The issue asks for at least 2 000
//! battles a second of two ordinary forces (`docs/benchmarks.md`).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::atkm::battle::prepare;
use muster::rules::systems::atkm::montecarlo::ordinary_army;
use muster::rules::systems::atkm::sim::{fight_with, StandardPolicy};
use muster::rules::systems::atkm::system::sample_force;
use muster::rules::systems::atkm::Catalogue;

fn battles(c: &mut Criterion) {
    let cat = Catalogue::builtin().unwrap();
    let mut setup = prepare(
        &cat,
        ordinary_army("A", 1),
        ordinary_army("B", 1),
        None,
        false,
        1,
    )
    .unwrap()
    .setup;
    let mut seed = 0u64;
    c.bench_function("atkm_battle_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &StandardPolicy, false).unwrap())
        })
    });
    c.bench_function("atkm_battle_narrated", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &StandardPolicy, true).unwrap())
        })
    });
    let mut cowpens = prepare(
        &cat,
        sample_force("sample:cowpens_1781_british").unwrap(),
        sample_force("sample:cowpens_1781_americans").unwrap(),
        None,
        false,
        1,
    )
    .unwrap()
    .setup;
    c.bench_function("atkm_cowpens_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            cowpens.seed = seed;
            black_box(fight_with(&cat, &cowpens, &StandardPolicy, false).unwrap())
        })
    });
}

criterion_group!(benches, battles);
criterion_main!(benches);
