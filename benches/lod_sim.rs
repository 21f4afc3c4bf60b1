//! Liberty or Death! battles without narration, the Monte Carlo's unit of work: two of the
//! example armies (9 and 8 units) fought on one core.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::system::RuleSystem;
use muster::rules::systems::lod::{record::prepare, sim, Catalogue, Lod};

fn battles(c: &mut Criterion) {
    let cat = Catalogue::builtin().unwrap();
    let ex = Lod::starting_rosters(&cat);
    let mut setup = prepare(&cat, ex[0].clone(), ex[1].clone(), None, false, 1)
        .unwrap()
        .setup;
    let mut seed = 0u64;
    c.bench_function("lod_battle_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(sim::fight(&cat, &setup, false).unwrap())
        })
    });
    c.bench_function("lod_battle_narrated", |b| {
        b.iter(|| {
            seed += 1;
            setup.seed = seed;
            black_box(sim::fight(&cat, &setup, true).unwrap())
        })
    });
}

criterion_group!(benches, battles);
criterion_main!(benches);
