//! Unit tests of the catalogue, the roster check, the random force generator and the sample
//! battles (spec sections 1, 2 and 5.4).

use super::catalogue::{band, scenario_rosters, Catalogue};
use super::random::{generate, RandomForceRequest};
use super::roster::{parse_roster, RosterDoc, UnitDoc};
use super::system::{sample_force, sample_forces};
use super::types::{Gun, MeleeTarget, Quality, UnitType};
use super::validate::validate;
use crate::rules::system::Severity;

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("catalogue: {e}"),
    }
}

fn codes(doc: &RosterDoc) -> Vec<(String, Severity, String)> {
    validate(&cat(), doc)
        .findings
        .into_iter()
        .map(|f| (f.code, f.severity, f.path))
        .collect()
}

fn unit(t: &str) -> UnitDoc {
    UnitDoc {
        id: None,
        name: String::new(),
        unit_type: t.into(),
        general: Some("g1".into()),
        rank_and_file: None,
        break_point: None,
        officer: true,
        ensign: true,
        quality: None,
        label: None,
        gun: None,
        group: None,
        variations: Default::default(),
        random_roll: None,
        arrives: "start".into(),
    }
}

#[test]
fn the_catalogue_holds_the_books_numbers_and_the_restored_cells() {
    let c = cat();
    // Spec 1.1: make-up and break points.
    let inf = c.unit(UnitType::Infantry);
    assert_eq!((inf.rank_and_file, inf.break_point), (12, 4));
    assert_eq!(c.unit(UnitType::Cavalry).break_point, 2);
    assert_eq!(c.unit(UnitType::FootArtillery).rank_and_file, 4);
    // K-1: cavalry line 16", column 20".
    let cav = c.unit(UnitType::Cavalry);
    assert_eq!((cav.moves.line, cav.moves.column), (Some(16), Some(20)));
    assert_eq!(cav.restored.as_deref(), Some("K-1"));
    // Colours: green 4+, yellow 5+, red 6.
    assert_eq!(
        [
            c.succeeds_on(super::Colour::Green),
            c.succeeds_on(super::Colour::Yellow),
            c.succeeds_on(super::Colour::Red)
        ],
        [4, 5, 6]
    );
    // 1.6: ranges by gun.
    assert_eq!(c.range(UnitType::FootArtillery, Some(Gun::Heavy)), Some(60));
    assert_eq!(
        c.range(UnitType::HorseArtillery, Some(Gun::Medium)),
        Some(36)
    );
    assert_eq!(c.range(UnitType::Skirmishers, None), Some(24));
    assert_eq!(c.range(UnitType::Cavalry, None), None);
    // 1.7 melee: cavalry 2/1 against infantry (K-5), infantry may not attack cavalry.
    assert_eq!(
        c.melee_dice(UnitType::Cavalry, MeleeTarget::Infantry),
        Some(2)
    );
    assert_eq!(
        c.melee_dice(UnitType::Cavalry, MeleeTarget::HorseArtillery),
        Some(1)
    );
    assert_eq!(c.melee_dice(UnitType::Infantry, MeleeTarget::Cavalry), None);
    assert_eq!(
        c.melee_dice(UnitType::Skirmishers, MeleeTarget::Infantry),
        None
    );
    // 2.2: K-2 and K-3 bands, K-4 rating chart.
    let rt = &c.tables.random_tables;
    assert_eq!(
        band(&rt.unit_type, 10).map(|b| b.result.as_str()),
        Some("artillery")
    );
    assert_eq!(
        band(&rt.unit_type, 7).map(|b| b.result.as_str()),
        Some("cavalry")
    );
    assert_eq!(
        band(&rt.artillery_size, 12).map(|b| b.result.as_str()),
        Some("heavy")
    );
    assert_eq!(
        band(&rt.general_rating, 1).map(|b| b.result.as_str()),
        Some("1")
    );
    assert_eq!(
        band(&rt.general_rating, 5).map(|b| b.result.as_str()),
        Some("2")
    );
    assert_eq!(
        band(&rt.general_rating, 6).map(|b| b.result.as_str()),
        Some("3")
    );
    // K-7 quality words.
    assert_eq!(c.quality_for_word("Guard"), Some(Quality::Elite));
    assert_eq!(
        c.quality_for_word("treat as militia"),
        Some(Quality::Militia)
    );
    assert_eq!(c.bonus("heavy_gun_close"), 4);
    assert_eq!(c.tables.army.turn_limit, 24);
}

#[test]
fn the_sample_battles_are_transcribed_completely() {
    let forces = scenario_rosters();
    assert_eq!(forces.len(), 6);
    let count = |id: &str| {
        forces
            .iter()
            .find(|r| r.id.as_deref() == Some(id))
            .map(|r| r.units.len())
    };
    // Spec 2.5 (corrected counts): Monmouth 19 + 23 v 21, Cowpens 7 v 7, North Point 9 v 10.
    assert_eq!(count("monmouth_1778_americans"), Some(42));
    assert_eq!(count("monmouth_1778_british"), Some(21));
    assert_eq!(count("cowpens_1781_americans"), Some(7));
    assert_eq!(count("cowpens_1781_british"), Some(7));
    assert_eq!(count("north_point_1814_americans"), Some(9));
    assert_eq!(count("north_point_1814_british"), Some(10));
    let c = cat();
    let monmouth = sample_force("sample:monmouth_1778_americans");
    let report = monmouth.as_ref().map(|m| validate(&c, m));
    // 19 start with Lee, 23 arrive with Washington.
    assert_eq!(
        report.as_ref().map(|r| (r.units, r.reinforcements)),
        Some((19, 23))
    );
    assert!(report.is_some_and(|r| r.legal));
    let np = sample_force("sample:north_point_1814_british");
    assert!(np
        .iter()
        .flat_map(|r| &r.units)
        .any(|u| u.gun.as_deref() == Some("rockets")));
    assert_eq!(sample_forces().len(), 6);
    // Every side of every sample battle is a legal army (K-48).
    for (id, name) in sample_forces() {
        let force = sample_force(&id);
        let r = force.as_ref().map(|f| validate(&c, f));
        assert!(r.as_ref().is_some_and(|r| r.legal), "{name}: {r:?}");
    }
    for s in &c.scenarios {
        assert!(!s.setup.is_empty() && !s.victory.is_empty(), "{}", s.id);
    }
    assert_eq!(
        c.scenario("north_point_1814").map(|s| s.turn_limit),
        Some(3)
    );
    assert_eq!(c.scenario("monmouth_1778").map(|s| s.turn_limit), Some(8));
}

#[test]
fn a_standard_army_is_legal_and_reports_its_collapse_point() {
    let mut doc = RosterDoc::new("Test");
    doc.units = vec![
        unit("infantry"),
        unit("infantry"),
        unit("cavalry"),
        unit("skirmishers"),
        unit("foot_artillery"),
    ];
    let r = validate(&cat(), &doc);
    assert!(r.legal, "{:?}", r.findings);
    assert_eq!((r.units, r.army_breaks_at, r.command_dice), (5, 2, 2));
}

#[test]
fn every_finding_is_reported_at_once_with_its_path() {
    let mut doc = RosterDoc::new("Bad");
    doc.period = "bronze_age".into();
    doc.advanced_rules = vec!["jetpacks".into()];
    doc.generals[0].rating = 4;
    let mut a = unit("dragoons");
    a.general = None;
    let mut b = unit("infantry");
    b.rank_and_file = Some(16);
    b.break_point = Some(16);
    b.quality = Some("elite".into());
    b.officer = false;
    let mut c = unit("horse_artillery");
    c.gun = Some("heavy".into());
    let mut d = unit("woodland_indians");
    d.rank_and_file = Some(13);
    doc.units = vec![a, b, c, d];
    let found = codes(&doc);
    let has = |code: &str, path: &str| {
        found
            .iter()
            .any(|(c, s, p)| c == code && *s == Severity::Error && p == path)
    };
    assert!(has("unknown_period", "period"));
    assert!(has("unknown_advanced_rule", "advanced_rules[0]"));
    assert!(has("general_rating_out_of_range", "generals[0].rating"));
    assert!(has("unknown_type", "units[0].type"));
    assert!(has("unit_without_general", "units[0].general"));
    assert!(has("size_not_standard", "units[1].rank_and_file"));
    assert!(has("break_point_not_standard", "units[1].break_point"));
    assert!(has("break_point_not_below_size", "units[1].break_point"));
    assert!(has("rule_not_enabled", "units[1].quality"));
    assert!(has("missing_officer_or_ensign", "units[1]"));
    assert!(has("heavy_gun_on_horse_artillery", "units[2].gun"));
    assert!(has("rule_not_enabled", "units[3].type"));
    assert!(has("indian_size_out_of_range", "units[3].rank_and_file"));
}

#[test]
fn optional_rules_turn_errors_into_warnings() {
    let mut doc = RosterDoc::new("Militia");
    doc.advanced_rules = vec![
        "unit_sizes".into(),
        "break_points".into(),
        "elite_militia".into(),
    ];
    // The book's American militia regiment: 16 + officer + ensign, collapsing at 10.
    let mut m = unit("infantry");
    m.rank_and_file = Some(16);
    m.break_point = Some(10);
    m.quality = Some("militia".into());
    doc.units = vec![m];
    let r = validate(&cat(), &doc);
    assert!(r.legal, "{:?}", r.findings);
    let warnings: Vec<&str> = r.findings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(
        warnings,
        vec!["non_standard_size", "non_standard_break_point"]
    );
}

#[test]
fn two_commanding_generals_or_none_is_illegal() {
    let mut doc = RosterDoc::new("Two");
    doc.units = vec![unit("infantry")];
    let mut second = doc.generals[0].clone();
    second.id = Some("g2".into());
    doc.generals.push(second);
    assert!(codes(&doc)
        .iter()
        .any(|(c, _, _)| c == "commanding_general_count"));
    doc.generals.clear();
    let found = codes(&doc);
    assert!(found
        .iter()
        .any(|(c, _, _)| c == "commanding_general_count"));
    assert!(found.iter().any(|(c, _, _)| c == "unit_without_general"));
}

#[test]
fn mangled_documents_never_panic() {
    let c = cat();
    let texts = [
        "",
        "null",
        "[]",
        "{}",
        r#"{"format": "muster.atkm.roster/1"}"#,
        r#"{"format": "muster.atkm.roster/1", "units": [{}]}"#,
        r#"{"format": "muster.atkm.roster/1", "units": [{"type": 7}]}"#,
        r#"{"format": "muster.atkm.roster/1", "units": [{"type": "infantry", "rank_and_file": -3}]}"#,
        r#"{"format": "muster.atkm.roster/1", "generals": [{"rating": 99999999999}], "units": [{"type": "infantry", "rank_and_file": 0, "break_point": 4294967295}]}"#,
        r#"{"format": "muster.atkm.roster/1", "units": [{"type": "woodland_indians", "rank_and_file": 0, "variations": {"attack_shift": 7, "defence_shift": -9, "reroll": {"roll": "x", "keep": "y"}, "extra_counter": "blue"}}]}"#,
        r#"{"format": "muster.atkm.roster/1", "wings": []}"#,
        r#"{"format": "muster.lod.roster/1", "units": []}"#,
        r#"{"format": "atkm.roster/1", "name": "neutral tag"}"#,
    ];
    for t in texts {
        if let Ok(doc) = parse_roster(t) {
            let r = validate(&c, &doc);
            assert_eq!(
                r.legal,
                r.findings.iter().all(|f| f.severity != Severity::Error)
            );
        }
    }
    assert!(parse_roster(r#"{"format": "atkm.roster/1"}"#).is_ok());
    assert!(parse_roster(r#"{"format": "muster.atkm.roster/1", "wings": []}"#).is_err());
    let wrong = parse_roster(r#"{"format": "muster.lod.roster/1"}"#);
    assert_eq!(wrong.err().and_then(|e| e.path), Some("format".into()));
}

#[test]
fn the_random_generator_records_every_roll_and_replays() {
    let c = cat();
    let req = RandomForceRequest {
        seed: 1778,
        units: 8,
        name: None,
        period: Some("awi".into()),
        elite_militia: true,
        artillery_sizes: true,
        roll_general: true,
    };
    let a = generate(&c, &req);
    let b = generate(&c, &req);
    assert_eq!(a, b, "the same seed gives the same army");
    let Ok(army) = a else { panic!("generated") };
    assert_eq!(army.units.len(), 8);
    assert!(
        validate(&c, &army).legal,
        "{:?}",
        validate(&c, &army).findings
    );
    let record = army.random.as_ref().map(|r| r.rolls.len());
    assert_eq!(record, Some(9), "one line for the general, one per unit");
    let rt = &c.tables.random_tables;
    for u in &army.units {
        let Some(rolls) = &u.random_roll else {
            panic!("rolls kept")
        };
        let sum = rolls.unit_type[0] + rolls.unit_type[1];
        // The recorded dice give the recorded type.
        let kind = band(&rt.unit_type, sum).map(|b| b.result.clone());
        match kind.as_deref() {
            Some("artillery") => {
                assert!(UnitType::from_id(&u.unit_type).is_some_and(|t| t.is_artillery()));
                assert!(rolls.artillery_kind.is_some() && rolls.artillery_size.is_some());
            }
            Some(k) => assert_eq!(k, u.unit_type),
            None => panic!("sum {sum} outside the table"),
        }
        let q = rolls
            .quality
            .and_then(|d| band(&rt.unit_quality, d))
            .map(|b| b.result.clone());
        assert_eq!(q, u.quality);
        assert!(u.gun.as_deref() != Some("heavy") || u.unit_type == "foot_artillery");
    }
    assert!(generate(
        &c,
        &RandomForceRequest {
            units: 0,
            ..req.clone()
        }
    )
    .is_err());
    assert!(generate(&c, &RandomForceRequest { units: 41, ..req }).is_err());
}

#[test]
fn over_many_seeds_the_generator_follows_the_tables_odds() {
    // 2d6: infantry 15/36, cavalry 6/36, skirmishers 9/36, artillery 6/36 (K-2).
    let c = cat();
    let mut counts = [0u32; 4];
    let mut n = 0u32;
    for seed in 0..500u64 {
        let req = RandomForceRequest {
            seed,
            units: 10,
            name: None,
            period: None,
            elite_militia: false,
            artillery_sizes: false,
            roll_general: false,
        };
        let Ok(army) = generate(&c, &req) else {
            panic!("generated")
        };
        for u in army.units {
            n += 1;
            let i = match u.unit_type.as_str() {
                "infantry" => 0,
                "cavalry" => 1,
                "skirmishers" => 2,
                _ => 3,
            };
            counts[i] += 1;
        }
    }
    let expect = [15.0 / 36.0, 6.0 / 36.0, 9.0 / 36.0, 6.0 / 36.0];
    for (i, e) in expect.iter().enumerate() {
        let got = f64::from(counts[i]) / f64::from(n);
        assert!((got - e).abs() < 0.03, "row {i}: {got} against {e}");
    }
}

#[test]
fn a_sample_battle_sets_up_with_its_attacker_and_turn_limit() {
    let c = cat();
    let (Some(am), Some(br)) = (
        sample_force("sample:north_point_1814_americans"),
        sample_force("sample:north_point_1814_british"),
    ) else {
        panic!("forces")
    };
    let p = super::battle::prepare(&c, am, br, None, true, 5);
    let Ok(p) = p else { panic!("prepared") };
    assert_eq!(p.setup.scenario, "north_point_1814");
    assert_eq!(p.setup.turns, 3);
    assert!(p.swapped, "the British attack at North Point");
    assert_eq!(p.setup.attacker.side.as_deref(), Some("british"));
    let mut a = RosterDoc::new("A");
    a.units = vec![unit("infantry")];
    let b = a.clone();
    let open = super::battle::prepare(&c, a, b, None, false, 5);
    assert_eq!(open.map(|p| p.setup.turns).ok(), Some(24));
}
