//! Unit tests of the catalogue, the roster document and its check.

use super::catalogue::Catalogue;
use super::roster::parse_roster;
use super::system::{example_force, STARTING_POINTS};
use super::validate::validate;
use crate::rules::system::Severity;

fn cat() -> Catalogue {
    match Catalogue::builtin() {
        Ok(c) => c,
        Err(e) => panic!("the built-in catalogue must load: {e}"),
    }
}

fn codes(json: &str) -> Vec<(String, Severity, String)> {
    let doc = match parse_roster(json) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    validate(&cat(), &doc)
        .findings
        .into_iter()
        .map(|f| (f.code, f.severity, f.path))
        .collect()
}

fn one_unit(unit: &str) -> String {
    format!(
        r#"{{"format": "muster.oibl.roster/1", "name": "T", "nation": "american",
            "brigades": [{{"name": "B", "commander": {{"name": "C", "rating": 1}}, "units": [{unit}]}}]}}"#
    )
}

#[test]
fn the_combat_table_reads_every_edge_of_b2() {
    let c = cat();
    let t = &c.combat_table;
    // Spec 4.1, row 28–30: MDR 0 removes 2, MDR −1 nothing (the cliff), 12 removes 6.
    assert_eq!(t.cell(30, 0), 2);
    assert_eq!(t.cell(30, -1), 0);
    assert_eq!(t.cell(30, 12), 6);
    // Above 12 reads column 12.
    assert_eq!(t.cell(30, 15), 6);
    // Fewer than 2 figures: no row, nothing.
    assert_eq!(t.cell(1, 9), 0);
    assert_eq!(t.cell(0, 12), 0);
    // Row edges: 3 is the 2–3 row, 4 the 4–6 row.
    assert_eq!(t.cell(3, 12), 1);
    assert_eq!(t.cell(4, 12), 2);
    assert_eq!(t.cell(19, 0), 1);
    assert_eq!(t.cell(18, 0), 0);
    // Chunks of 30 and the remainder (B-2).
    assert_eq!(t.chunks(61), vec![30, 30, 1]);
    assert_eq!(t.chunks(30), vec![30]);
    assert_eq!(t.chunks(0), Vec::<u32>::new());
}

#[test]
fn the_combat_table_matches_the_charts_cell_by_cell() {
    // Every cell of the chart page, typed again from the seed.
    let rows: [(u32, [u32; 13]); 10] = [
        (2, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]),
        (4, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2]),
        (7, [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]),
        (10, [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3]),
        (13, [0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]),
        (16, [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4]),
        (19, [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4]),
        (22, [1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5]),
        (25, [2, 2, 2, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5]),
        (28, [2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6]),
    ];
    let c = cat();
    for (low, cells) in rows {
        let top = if low == 2 { 3 } else { low + 2 };
        for figures in low..=top {
            for (mdr, want) in cells.iter().enumerate() {
                assert_eq!(
                    c.combat_table.cell(figures, mdr as i32),
                    *want,
                    "{figures} at {mdr}"
                );
            }
        }
    }
}

#[test]
fn qualities_give_the_morale_numbers_and_loss_bands_take_the_highest() {
    let c = cat();
    use super::types::Quality::*;
    assert_eq!(
        [Elite, Veteran, Regular, Poor, Wretched].map(|q| c.morale_number(q)),
        [9, 8, 7, 6, 5]
    );
    // B-9 on 18 starting figures: 4 lost is under a quarter, 5 is a quarter (+1), 9 half (+2),
    // 14 three quarters (13.5 rounded up) (+3).
    assert_eq!(c.loss_band(18, 4), None);
    assert_eq!(c.loss_band(18, 5).map(|b| b.1), Some(1));
    assert_eq!(c.loss_band(18, 9).map(|b| b.1), Some(2));
    assert_eq!(c.loss_band(18, 13).map(|b| b.1), Some(2));
    assert_eq!(c.loss_band(18, 14).map(|b| b.1), Some(3));
    // B-5 cannon bands.
    assert_eq!(c.cannon_band(11.9), None);
    assert_eq!(c.cannon_band(12.0), Some("cannon_12_25"));
    assert_eq!(c.cannon_band(25.0), Some("cannon_12_25"));
    assert_eq!(c.cannon_band(25.5), Some("cannon_over_25"));
}

#[test]
fn a_broken_data_file_is_refused_at_start_up() {
    let tables = include_str!("data/tables.json");
    let meta = include_str!("data/meta.json");
    let classes = include_str!("data/classes.json");
    // A cell that falls as the roll rises.
    let broken = tables.replacen(
        "[0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]",
        "[0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1]",
        1,
    );
    assert!(Catalogue::from_texts(meta, &broken, classes).is_err());
    // A missing row.
    let gap = tables.replacen(r#""min": 4,  "max": 6"#, r#""min": 5,  "max": 6"#, 1);
    assert!(Catalogue::from_texts(meta, &gap, classes).is_err());
    // A Morale Number off its step.
    let mn = tables.replacen(r#""morale_number": 9"#, r#""morale_number": 10"#, 1);
    assert!(Catalogue::from_texts(meta, &mn, classes).is_err());
    // A class naming a weapon the game lacks.
    let w = classes.replacen(
        r#""weapons": ["jaeger_rifle"]"#,
        r#""weapons": ["laser"]"#,
        1,
    );
    assert!(Catalogue::from_texts(meta, tables, &w).is_err());
    assert!(Catalogue::from_texts(meta, tables, classes).is_ok());
}

#[test]
fn the_starting_points_read_and_the_examples_are_legal() {
    let c = cat();
    for (key, text) in STARTING_POINTS {
        let doc = match parse_roster(text) {
            Ok(d) => d,
            Err(e) => panic!("{key}: {e}"),
        };
        let report = validate(&c, &doc);
        if key == "empty" {
            // The empty order of battle is a draft: its brigade has no units yet.
            assert!(!report.legal);
            assert!(report
                .findings
                .iter()
                .any(|f| f.code == "brigade_without_units"));
        } else {
            let errors: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{key}: {errors:?}");
            assert_eq!(report.figures, 62, "{key}");
        }
    }
    assert!(example_force("example:british").is_some());
    assert!(example_force("example:prussian").is_none());
}

#[test]
fn every_finding_is_reported_at_once() {
    let json = r#"{"format": "muster.oibl.roster/1", "name": "T", "nation": "martian",
      "brigades": [
        {"name": "A", "commander": {"name": "X", "rating": 5}, "units": [
          {"class": "militia", "stands": 4, "quality": "guard", "bayonets": true, "basing": "normal",
           "formations": ["close_order"]},
          {"class": "indian", "stands": 8, "quality": "regular", "authorizations": ["close_order"]},
          {"class": "cavalry", "stands": 3, "quality": "veteran", "weapon": "long_rifle", "figures": 9},
          {"class": "artillery", "stands": 1, "quality": "regular", "crew": 0},
          {"class": "dragoon", "stands": 2, "quality": "regular"},
          {"class": "continental", "stands": 1, "quality": "regular", "marksmen": true, "weapon": "phaser"},
          {"class": "militia", "stands": 4, "quality": "poor", "authorizations": ["skirmish"],
           "formations": ["skirmish"], "figures": 10, "discharged_continentals": true, "basing": "normal", "bayonets": true}
        ]},
        {"name": "Empty"}
      ]}"#;
    let found = codes(json);
    let has = |code: &str, path: &str| found.iter().any(|(c, _, p)| c == code && p == path);
    let u = |i: usize, f: &str| format!("brigades[0].units[{i}].{f}");
    assert!(has("nation_unknown", "nation"));
    assert!(has(
        "commander_rating_out_of_range",
        "brigades[0].commander.rating"
    ));
    assert!(has("quality_unknown", &u(0, "quality")));
    assert!(has("bayonets_not_allowed", &u(0, "bayonets")));
    assert!(has("basing_mismatch", &u(0, "basing")));
    assert!(has("formation_not_allowed", &u(0, "formations[0]")));
    assert!(has("formation_not_allowed", &u(1, "authorizations[0]")));
    assert!(has("weapon_not_allowed", &u(2, "weapon")));
    assert!(has("figures_exceed_stands", &u(2, "figures")));
    assert!(has("gun_class_missing", &u(3, "gun")));
    assert!(has("artillery_without_crew", &u(3, "crew")));
    assert!(has("class_unknown", &u(4, "class")));
    assert!(has("marksmen", &u(5, "marksmen")));
    assert!(has("weapon_unknown", &u(5, "weapon")));
    assert!(has("single_stand_unit", &u(5, "stands")));
    // The discharged Continentals exception: basing and bayonets pass, the claim is shown.
    assert!(has(
        "discharged_continentals",
        &u(6, "discharged_continentals")
    ));
    assert!(has("scenario_authorization", &u(6, "authorizations[0]")));
    assert!(has("under_strength", &u(6, "figures")));
    assert!(!has("basing_mismatch", &u(6, "basing")));
    assert!(!has("bayonets_not_allowed", &u(6, "bayonets")));
    assert!(has("brigade_without_units", "brigades[1].units"));
    assert!(has("missing_brigade_commander", "brigades[1].commander"));
}

#[test]
fn free_skirmish_for_light_infantry_but_a_grant_for_grenadiers() {
    // B-40: converged light infantry skirmish with no grant; grenadiers need one.
    let li = one_unit(
        r#"{"class": "british_line", "stands": 4, "quality": "veteran", "light_infantry": true, "formations": ["skirmish"]}"#,
    );
    assert!(codes(&li).is_empty(), "{:?}", codes(&li));
    let gr = one_unit(
        r#"{"class": "british_line", "stands": 4, "quality": "elite", "grenadiers": true, "formations": ["skirmish"]}"#,
    );
    assert!(codes(&gr)
        .iter()
        .any(|(c, _, _)| c == "formation_not_allowed"));
    // B-43: German line infantry need a grant for open order.
    let de = one_unit(
        r#"{"class": "german_line", "stands": 6, "quality": "veteran", "formations": ["open_order"]}"#,
    );
    assert!(codes(&de)
        .iter()
        .any(|(c, _, _)| c == "formation_not_allowed"));
    let granted = one_unit(
        r#"{"class": "german_line", "stands": 6, "quality": "veteran", "authorizations": ["open_order"], "formations": ["open_order"]}"#,
    );
    let found = codes(&granted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "scenario_authorization");
}

#[test]
fn mangled_documents_never_panic() {
    let c = cat();
    let base = include_str!("data/examples/american.json");
    let mut texts: Vec<String> = vec![
        String::new(),
        "null".into(),
        "[]".into(),
        "{}".into(),
        r#"{"format": 3}"#.into(),
        r#"{"format": "muster.lod.roster/1"}"#.into(),
        r#"{"format": "muster.oibl.roster/1"}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "brigades": [{"units": [{}]}]}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "brigades": [{"units": [{"stands": -1}]}]}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "brigades": [{"units": [{"class": "artillery", "gun": "heavy", "guns": 0, "figures": 4000000000}]}]}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "brigades": [{"units": [{"class": "cavalry", "stands": 4000000000, "figures": 4000000000}]}]}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "divisions": [{"brigades": ["nowhere"]}], "brigades": []}"#.into(),
        r#"{"format": "muster.oibl.roster/1", "surprise": true}"#.into(),
    ];
    // Every prefix of a real document, and every character swapped for a quote.
    for cut in (0..base.len()).step_by(7) {
        if base.is_char_boundary(cut) {
            texts.push(base[..cut].to_string());
            let mut t = base.to_string();
            t.replace_range(cut..(cut + 1).min(base.len()), "\"");
            texts.push(t);
        }
    }
    for t in texts {
        if let Ok(doc) = parse_roster(&t) {
            let report = validate(&c, &doc);
            for f in &report.findings {
                assert!(!f.message.is_empty());
            }
            let _ = super::unit::roster_units(&c, &doc);
        }
    }
    // A wrong format is refused by name.
    let e = parse_roster(r#"{"format": "muster.lod.roster/1"}"#);
    assert!(e.is_err_and(|e| e.path.as_deref() == Some("format")));
}

#[test]
fn saving_gives_every_part_a_stable_id() {
    let mut doc = match parse_roster(include_str!("data/examples/empty.json")) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    doc.brigades[0].units.push(super::roster::UnitDoc::new(
        "A",
        "continental",
        4,
        "regular",
    ));
    doc.brigades[0].units.push(super::roster::UnitDoc::new(
        "B",
        "continental",
        4,
        "regular",
    ));
    doc.brigades[0].units[1].id = Some("b1".into());
    let mut again = doc.clone();
    doc.assign_ids();
    again.assign_ids();
    assert_eq!(doc, again);
    let ids: std::collections::BTreeSet<_> =
        doc.units().filter_map(|(_, _, u)| u.id.clone()).collect();
    assert_eq!(ids.len(), 2);
    assert!(doc.brigades[0].id.is_some() && doc.id.is_some());
}

fn two_forces() -> (super::RosterDoc, super::RosterDoc) {
    match (
        example_force("example:american"),
        example_force("example:british"),
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => panic!("the examples must read"),
    }
}

#[test]
fn a_battle_is_set_up_with_missing_ratings_rolled_and_the_seed_kept() {
    let c = cat();
    let (mut a, b) = two_forces();
    if let Some(cmd) = a.brigades[0].commander.as_mut() {
        cmd.rating = None;
    }
    let p = match super::record::prepare(&c, a, b, Some("open_field"), false, 42) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(p.setup.seed, 42);
    assert_eq!(p.setup.turns, 12);
    let rating = p.setup.attacker.roster.brigades[0]
        .commander
        .as_ref()
        .and_then(|cmd| cmd.rating);
    // B-8: a d6 read 0, 1 or 2.
    assert!(matches!(rating, Some(0..=2)));
    assert!(p.rolls.iter().any(|r| r.contains("B-8")));
    // The rating the roster gives is kept, not rolled.
    assert_eq!(
        p.setup.defender.roster.brigades[0]
            .commander
            .as_ref()
            .and_then(|c| c.rating),
        Some(1)
    );
    assert!(super::record::prepare(
        &c,
        p.setup.attacker.roster.clone(),
        p.setup.defender.roster.clone(),
        Some("siege"),
        false,
        1
    )
    .is_err());
}

#[test]
fn the_table_result_is_decided_by_muster_s_rule() {
    let c = cat();
    let (a, b) = two_forces();
    let setup = match super::record::prepare(&c, a, b, Some("open_field"), false, 7) {
        Ok(p) => p.setup,
        Err(e) => panic!("{e}"),
    };
    let read = |v: serde_json::Value| -> super::record::TabletopReport {
        match serde_json::from_value(v) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    };
    // B-34: three of the British five units lost (two routing, one off the table) → the
    // attacker (the Americans) win decisively, whatever the figures.
    let r = read(serde_json::json!({"turns": 6,
        "attacker": {"units": [{"id": "u1", "figures_lost": 9}]},
        "defender": {"units": [{"id": "u1", "figures_lost": 3, "routed": true},
                               {"id": "u2", "figures_lost": 2, "routed": true},
                               {"id": "u4", "left_table": true}],
                     "commanders": [{"id": "c1", "fate": "killed"}]}}));
    let o = match super::record::assess(&c, &setup, &r) {
        Ok(o) => o,
        Err(p) => panic!("{p:?}"),
    };
    assert_eq!(o.winner, Some(crate::rules::system::BattleSide::Attacker));
    assert_eq!(o.level, super::battle::Level::Decisive);
    assert_eq!(o.defender.lost_units(), 3);
    assert!(o
        .defender
        .commanders
        .iter()
        .any(|c| c.fate == super::battle::Fate::Killed));
    // B-35: nobody broken; Americans lost 10 of 62, British 6 of 62 → British marginal win.
    // The gun crew of 2 losing both is destroyed (B-33), one lost unit of five is not enough.
    let r = read(serde_json::json!({"turns": 12,
        "attacker": {"units": [{"id": "u1", "figures_lost": 8}, {"id": "u5", "figures_lost": 2}]},
        "defender": {"units": [{"id": "u2", "figures_lost": 6}]}}));
    let o = match super::record::assess(&c, &setup, &r) {
        Ok(o) => o,
        Err(p) => panic!("{p:?}"),
    };
    assert!(o.attacker.units.iter().any(|u| u.id == "u5" && u.destroyed));
    assert_eq!(o.winner, Some(crate::rules::system::BattleSide::Defender));
    assert_eq!(o.level, super::battle::Level::Marginal);
    // Equal shares draw.
    let r = read(serde_json::json!({"turns": 12,
        "attacker": {"units": [{"id": "u1", "figures_lost": 4}]},
        "defender": {"units": [{"id": "u1", "figures_lost": 4}]}}));
    let o = match super::record::assess(&c, &setup, &r) {
        Ok(o) => o,
        Err(p) => panic!("{p:?}"),
    };
    assert_eq!((o.winner, o.level), (None, super::battle::Level::Draw));
    // Impossible entries are refused by field.
    let r = read(serde_json::json!({"turns": 0,
        "attacker": {"units": [{"id": "u1", "figures_lost": 30}, {"id": "nobody"}]}}));
    let problems = match super::record::assess(&c, &setup, &r) {
        Ok(_) => panic!("must be refused"),
        Err(p) => p,
    };
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert!(fields.contains(&"turns"));
    assert!(fields.contains(&"attacker.units[0].figures_lost"));
    assert!(fields.contains(&"attacker.units[1]"));
}
