//! The order-of-battle check (spec 2.2): every finding at once, never a panic.

use super::super::roster::parse_roster;
use super::super::system::{example_force, example_forces};
use super::super::{validate, Catalogue};
use crate::rules::system::Severity;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

fn codes(json: &str) -> Vec<(String, Severity, String)> {
    let doc = parse_roster(json).expect("reads");
    validate(&cat(), &doc)
        .findings
        .into_iter()
        .map(|f| (f.code, f.severity, f.path))
        .collect()
}

#[test]
fn the_spec_s_example_is_legal_with_its_neutral_tag() {
    let json = r#"{"format": "awi.oob/1", "name": "Camden", "side": "British",
     "cinc": {"id": "c", "name": "Cornwallis"},
     "brigades": [{"id": "b1", "name": "Webster",
       "brigadier": {"id": "g1", "name": "Webster", "ability": 6},
       "units": [{"id": "u1", "name": "33rd Foot", "type": "infantry", "grade": "trained", "bases": 6},
                 {"name": "Jagers", "type": "skirmishers", "grade": "elite", "bases": 2, "arms": "rifle"},
                 {"name": "Legion horse", "type": "cavalry", "grade": "trained", "bases": 4},
                 {"name": "3pdr", "type": "artillery", "grade": "trained", "gun": "light", "gunners": 3}]}]}"#;
    let doc = parse_roster(json).expect("reads");
    let r = validate(&cat(), &doc);
    assert!(r.legal, "{:?}", r.findings);
    assert!(r.findings.is_empty());
    // 6 inf (360 men) + 2 skirm (60) + 4 cav (120); the gun counts as a gun.
    assert_eq!((r.bases, r.men, r.guns, r.army_units), (12, 540, 1, 3));
    assert_eq!(r.break_threshold, 2, "W-31: half of 3 units, rounded up");
    assert_eq!(
        r.units[0].describe,
        "6 bases of trained infantry (18 figures, 360 men)"
    );
    assert_eq!(r.units[3].describe, "Light gun, 3 gunners (trained)");
    // W-3: 6 bases, 2 lost = 33 % → 3 ten-percent steps, 1 twenty-percent step.
    assert_eq!(r.units[0].steps[1], (3, 1));
    assert_eq!(r.units[0].half_strength_at, 3);
}

#[test]
fn every_structural_problem_is_reported_at_once() {
    let json = r#"{"format": "muster.awi.oob/1", "name": "Bad",
     "brigades": [
       {"name": "A", "units": []},
       {"name": "B", "brigadier": {"name": "X", "ability": 11},
        "units": [
          {"name": "u1", "type": "dragoons", "grade": "veteran", "bases": 3},
          {"name": "u2", "type": "infantry", "grade": "trained", "bases": 2.5, "arms": "rifle"},
          {"name": "u3", "type": "cavalry", "grade": "raw", "bases": 0, "arms": "musket"},
          {"name": "u4", "type": "artillery", "grade": "trained", "gun": "heavy", "gunners": 5, "bases": 2},
          {"name": "u5", "type": "skirmishers", "grade": "elite", "bases": 2, "gunners": 2, "gun": "light"},
          {"name": "u6", "type": "skirmishers", "bases": 2, "arms": "bow"}
        ]}]}"#;
    let found = codes(json);
    let has = |code: &str, path: &str| {
        found
            .iter()
            .any(|(c, s, p)| c == code && p == path && *s == Severity::Error)
    };
    assert!(has("missing_cinc", "cinc"));
    assert!(has("empty_brigade", "brigades[0].units"));
    assert!(has("brigade_without_brigadier", "brigades[0].brigadier"));
    assert!(has("ability_out_of_range", "brigades[1].brigadier.ability"));
    assert!(has("unknown_type", "brigades[1].units[0].type"));
    assert!(has("unknown_grade", "brigades[1].units[0].grade"));
    assert!(has("bases_invalid", "brigades[1].units[1].bases"));
    assert!(has("arms_not_allowed", "brigades[1].units[1].arms"));
    assert!(has("bases_invalid", "brigades[1].units[2].bases"));
    assert!(has("arms_not_allowed", "brigades[1].units[2].arms"));
    assert!(has("gun_class_invalid", "brigades[1].units[3].gun"));
    assert!(has("gunners_out_of_range", "brigades[1].units[3].gunners"));
    assert!(has(
        "field_not_allowed_for_type",
        "brigades[1].units[3].bases"
    ));
    assert!(has(
        "field_not_allowed_for_type",
        "brigades[1].units[4].gunners"
    ));
    assert!(has(
        "field_not_allowed_for_type",
        "brigades[1].units[4].gun"
    ));
    assert!(has("unknown_grade", "brigades[1].units[5].grade"));
    assert!(has("arms_not_allowed", "brigades[1].units[5].arms"));
}

#[test]
fn no_brigades_and_rolled_abilities_and_duplicates() {
    let found = codes(r#"{"format": "muster.awi.oob/1", "name": "x", "cinc": {"name": "C"}}"#);
    assert!(found.iter().any(|(c, _, _)| c == "no_brigades"));
    let json = r#"{"format": "muster.awi.oob/1", "name": "x", "cinc": {"name": "C"},
      "brigades": [{"name": "A", "brigadier": {"name": "B"},
        "units": [{"id": "u", "name": "a", "type": "infantry", "grade": "raw", "bases": 4},
                  {"id": "u", "name": "b", "type": "infantry", "grade": "raw", "bases": 4}]}]}"#;
    let doc = parse_roster(json).expect("reads");
    let r = validate(&cat(), &doc);
    assert!(r.legal, "an info and a warning never make a roster illegal");
    assert!(r.findings.iter().any(|f| f.code == "ability_to_be_rolled"
        && f.severity == Severity::Info
        && f.path == "brigades[0].brigadier.ability"));
    assert!(r
        .findings
        .iter()
        .any(|f| f.code == "duplicate_id" && f.severity == Severity::Warning));
    let (summary, _) = <super::super::Awi as crate::rules::system::RuleSystem>::check(&cat(), &doc);
    assert_eq!(
        (summary.errors, summary.warnings),
        (0, 1),
        "the info is not a warning"
    );
}

#[test]
fn abilities_must_be_whole_numbers_one_to_ten() {
    for (ability, ok) in [
        ("1", true),
        ("10", true),
        ("6.0", true),
        ("0", false),
        ("11", false),
        ("5.5", false),
        ("\"6\"", false),
        ("-3", false),
    ] {
        let json = format!(
            r#"{{"format": "muster.awi.oob/1", "name": "x", "cinc": {{"name": "C"}},
              "brigades": [{{"name": "A", "brigadier": {{"name": "B", "ability": {ability}}},
                "units": [{{"type": "cavalry", "grade": "elite", "bases": 2}}]}}]}}"#
        );
        let found = codes(&json);
        assert_eq!(
            found.iter().any(|(c, _, _)| c == "ability_out_of_range"),
            !ok,
            "ability {ability}"
        );
    }
}

#[test]
fn a_gun_may_say_one_base_and_defaults_to_four_gunners() {
    let json = r#"{"format": "muster.awi.oob/1", "name": "x", "cinc": {"name": "C"},
      "brigades": [{"name": "A", "brigadier": {"name": "B", "ability": 5},
        "units": [{"type": "artillery", "grade": "militia", "gun": "medium", "bases": 1}]}]}"#;
    assert!(codes(json).is_empty());
    let doc = parse_roster(json).expect("reads");
    let r = validate(&cat(), &doc);
    assert_eq!(r.units[0].figures, 4, "W-17: four gunners by default");
}

#[test]
fn unknown_fields_are_kept_and_named() {
    let json = r#"{"format": "muster.awi.oob/1", "name": "x", "notes": "hi", "cinc": {"name": "C"},
      "brigades": [{"name": "A", "brigadier": {"name": "B", "ability": 5},
        "units": [{"type": "infantry", "grade": "raw", "bases": 3, "colour": "blue"}]}]}"#;
    let found = codes(json);
    assert!(found
        .iter()
        .any(|(c, s, p)| c == "unknown_field" && *s == Severity::Warning && p == "notes"));
    assert!(found
        .iter()
        .any(|(_, _, p)| p == "brigades[0].units[0].colour"));
    let doc = parse_roster(json).expect("reads");
    assert!(
        doc.to_json_pretty().contains("colour"),
        "nothing is lost on saving"
    );
}

#[test]
fn mangled_documents_never_panic() {
    let cat = cat();
    let texts = [
        "",
        "null",
        "[]",
        "{}",
        "42",
        r#"{"format": 3}"#,
        r#"{"format": "muster.awi.oob/1"}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": null}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": [null]}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": [{"units": [{}]}]}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": [{"units": [{"type": "artillery"}]}]}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": [{"brigadier": {"ability": [1]}, "units": [{"bases": -1e300, "gunners": {"a": 1}, "type": "infantry"}]}]}"#,
        r#"{"format": "muster.awi.oob/1", "brigades": [{"units": [{"bases": 1e300, "type": "cavalry", "grade": "raw"}]}]}"#,
        r#"{"format": "muster.lod.roster/1"}"#,
        r#"{"format": "muster.awi.oob/1", "cinc": "Cornwallis"}"#,
    ];
    for t in texts {
        if let Ok(doc) = parse_roster(t) {
            let r = validate(&cat, &doc);
            assert!(
                !r.legal || r.findings.iter().all(|f| f.severity != Severity::Error),
                "{t}"
            );
        }
    }
    assert!(parse_roster(r#"{"format": "muster.lod.roster/1"}"#).is_err());
    let doc = parse_roster(r#"{"format": "muster.awi.oob/1"}"#).expect("reads");
    let r = validate(&cat, &doc);
    assert!(!r.legal);
    let codes: Vec<&str> = r.findings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(codes, ["missing_cinc", "no_brigades"]);
}

#[test]
fn the_starting_points_read_and_the_examples_are_legal() {
    let cat = cat();
    let refs: Vec<String> = example_forces().into_iter().map(|(r, _)| r).collect();
    assert_eq!(
        refs,
        ["example:empty", "example:british", "example:continental"]
    );
    let empty = example_force("example:empty").expect("the empty order of battle");
    assert_eq!(empty.brigades.len(), 1);
    let r = validate(&cat, &empty);
    let codes: Vec<&str> = r.findings.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(codes, ["empty_brigade", "ability_to_be_rolled"]);
    for key in ["example:british", "example:continental"] {
        let doc = example_force(key).expect("an example");
        assert!(validate(&cat, &doc).legal, "{key}");
    }
}
