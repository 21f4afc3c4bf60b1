//! Exact odds and whole battles.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster::rules::systems::lotf::{
    fight_prepared, melee_odds, shooting_odds, simulate, BattleSetup, Catalogue, CommanderDoc,
    ElementDoc, ElementType, GroupDoc, MeleeRequest, Nation, Prepared, RosterDoc, ScenarioId,
    ShootingRequest, Size, StandardPolicy, Upgrade, War,
};

fn force(name: &str) -> RosterDoc {
    let mut r = RosterDoc::new(name, War::AmericanRevolution, Nation::British, Some(150));
    let mut lt = ElementDoc::new("Light Company", ElementType::Infantry, Size::Small);
    lt.upgrades = vec![Upgrade::LightInfantry];
    r.groups = vec![
        GroupDoc {
            name: "Right".into(),
            commander: Some(CommanderDoc::default()),
            elements: vec![
                ElementDoc::new("1st Foot", ElementType::Infantry, Size::Medium),
                ElementDoc::new("2nd Foot", ElementType::Infantry, Size::Medium),
                lt,
            ],
            ..GroupDoc::default()
        },
        GroupDoc {
            name: "Left".into(),
            commander: Some(CommanderDoc::default()),
            elements: vec![
                ElementDoc::new("3rd Foot", ElementType::Infantry, Size::Medium),
                ElementDoc::new("Horse", ElementType::Cavalry, Size::Small),
                ElementDoc::new("Battery", ElementType::Artillery, Size::Small),
            ],
            ..GroupDoc::default()
        },
    ];
    r
}

fn benches(c: &mut Criterion) {
    let cat = Catalogue::builtin().expect("catalogue");
    let musket: ShootingRequest = serde_json::from_str(
        r#"{"shooter": {"type": "infantry", "size": "large", "upgrades": ["additional_ranks"]},
            "target": {"type": "infantry", "size": "medium", "in_cover": true, "hits": 1},
            "range_inches": 3, "flank": true, "concentrated_volley": true}"#,
    )
    .expect("request");
    c.bench_function("shooting_odds_musket_9_dice", |b| {
        b.iter(|| shooting_odds(&cat, black_box(&musket)))
    });
    let cannon: ShootingRequest = serde_json::from_str(
        r#"{"shooter": {"type": "artillery", "size": "large"},
            "target": {"type": "infantry", "size": "large"},
            "range_inches": 20, "flank": true}"#,
    )
    .expect("request");
    c.bench_function("shooting_odds_raking_solid_shot", |b| {
        b.iter(|| shooting_odds(&cat, black_box(&cannon)))
    });
    let melee: MeleeRequest = serde_json::from_str(
        r#"{"attacker": {"type": "infantry", "size": "large", "in_spi": true, "inspired": true,
                         "supporters": [{"type": "infantry", "size": "medium"}, {"type": "infantry", "size": "small", "close": true}]},
            "defender": {"type": "infantry", "size": "medium", "defenses": true,
                         "supporters": [{"type": "cavalry", "size": "medium"}]}}"#,
    )
    .expect("request");
    c.bench_function("melee_odds_supported", |b| {
        b.iter(|| melee_odds(&cat, black_box(&melee)))
    });
    let setup = BattleSetup::new(force("A"), force("B"), ScenarioId::TakeTheField, 1);
    let mut seed = 0u64;
    c.bench_function("battle_150_points_no_narration", |b| {
        b.iter(|| {
            seed += 1;
            simulate(&cat, black_box(&setup.with_seed(seed)), false)
        })
    });
    // As an odds request fights them: the set-up read once, one policy (and its melee-odds
    // memo) for the whole run, no outcome document.
    let mut policy = StandardPolicy::new();
    let prepared = Prepared::new(&cat, &setup).expect("set-up");
    c.bench_function("battle_150_points_odds_run", |b| {
        b.iter(|| {
            seed += 1;
            fight_prepared(&cat, black_box(&prepared), seed, &mut policy)
        })
    });
    let big = BattleSetup::new(
        infantry("A", 8, 5),
        infantry("B", 8, 5),
        ScenarioId::TakeTheField,
        1,
    );
    let mut group = c.benchmark_group("large");
    group.sample_size(20);
    let big = Prepared::new(&cat, &big).expect("set-up");
    group.bench_function("battle_1000_points_odds_run", |b| {
        b.iter(|| {
            seed += 1;
            fight_prepared(&cat, black_box(&big), seed, &mut policy)
        })
    });
    group.finish();
}

/// `groups` groups of `per_group` medium line infantry (25 points each).
fn infantry(name: &str, groups: usize, per_group: usize) -> RosterDoc {
    let points = (groups * per_group * 25) as u32;
    let mut r = RosterDoc::new(name, War::AmericanRevolution, Nation::British, Some(points));
    r.groups = (0..groups)
        .map(|g| GroupDoc {
            name: format!("Brigade {}", g + 1),
            commander: Some(CommanderDoc::default()),
            elements: (0..per_group)
                .map(|k| {
                    let n = format!("{} Foot", g * per_group + k + 1);
                    ElementDoc::new(&n, ElementType::Infantry, Size::Medium)
                })
                .collect(),
            ..GroupDoc::default()
        })
        .collect();
    r
}

criterion_group!(combat, benches);
criterion_main!(combat);
