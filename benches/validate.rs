//! Validate and price a 6-group x 6-element roster.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::lotf::{
    parse_roster, price_roster, validate, Catalogue, CommanderDoc, ElementDoc, ElementType,
    GroupDoc, Nation, RosterDoc, Size, Upgrade, War, Weapon,
};

fn roster() -> RosterDoc {
    let mut r = RosterDoc::new(
        "bench",
        War::AmericanRevolution,
        Nation::British,
        Some(1200),
    );
    let kinds: [(ElementType, Size, Option<Weapon>, &[Upgrade]); 6] = [
        (
            ElementType::Infantry,
            Size::Large,
            None,
            &[Upgrade::Grenadiers],
        ),
        (
            ElementType::Infantry,
            Size::Medium,
            Some(Weapon::Rifled),
            &[Upgrade::Elite],
        ),
        (
            ElementType::Infantry,
            Size::Medium,
            None,
            &[Upgrade::Hessians, Upgrade::Grenadiers],
        ),
        (
            ElementType::Cavalry,
            Size::Medium,
            None,
            &[Upgrade::LightDragoons],
        ),
        (
            ElementType::Artillery,
            Size::Large,
            Some(Weapon::HeavyGun),
            &[Upgrade::AdditionalRanks],
        ),
        (
            ElementType::Infantry,
            Size::Small,
            None,
            &[Upgrade::Militia],
        ),
    ];
    r.groups = (0..6)
        .map(|g| GroupDoc {
            id: None,
            name: String::new(),
            commander: Some(CommanderDoc {
                id: None,
                name: format!("Colonel {g}"),
            }),
            elements: kinds
                .iter()
                .enumerate()
                .map(|(i, (t, s, w, u))| {
                    let mut e = ElementDoc::new(&format!("Regiment {g}-{i}"), *t, *s);
                    e.weapon = *w;
                    e.upgrades = u.to_vec();
                    e
                })
                .collect(),
        })
        .collect();
    r.assign_missing_ids();
    r
}

fn bench(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let r = roster();
    let json = serde_json::to_string(&r).expect("json");
    c.bench_function("validate_6x6", |b| {
        b.iter(|| validate(black_box(&cat), black_box(&r)))
    });
    c.bench_function("price_6x6", |b| {
        b.iter(|| price_roster(black_box(&cat), black_box(&r)))
    });
    c.bench_function("parse_and_validate_6x6", |b| {
        b.iter(|| {
            let doc = parse_roster(black_box(&json)).expect("parses");
            validate(&cat, &doc)
        })
    });
    c.bench_function("catalogue_builtin", |b| {
        b.iter(|| Catalogue::builtin().expect("catalogue"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
