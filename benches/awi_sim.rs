//! AWI battles without narration, the Monte Carlo's unit of work: the two example forces
//! (6 units and a gun each) fought on one core.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::awi::sim::{fight_with, Standard};
use muster::rules::systems::awi::system::example_force;
use muster::rules::systems::awi::{record::prepare, Catalogue};

fn battles(c: &mut Criterion) {
    let cat = Catalogue::builtin().unwrap();
    let a = example_force("example:british").unwrap();
    let d = example_force("example:continental").unwrap();
    let mut setup = prepare(&cat, a, d, None, false, 1).unwrap().setup;
    let mut seed = 0u64;
    c.bench_function("awi_battle_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &Standard, false).unwrap())
        })
    });
    c.bench_function("awi_battle_narrated", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(fight_with(&cat, &setup, &Standard, true).unwrap())
        })
    });
}

criterion_group!(benches, battles);
criterion_main!(benches);
