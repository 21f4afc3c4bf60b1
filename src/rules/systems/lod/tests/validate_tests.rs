//! The roster check against section 2.3 and rulings L-49 to L-51.

use crate::rules::system::Severity;
use crate::rules::systems::lod::{parse_roster, validate, Catalogue, Setting};

fn codes(json: &str) -> Vec<(String, Severity, String)> {
    let cat = Catalogue::builtin().unwrap();
    let doc = parse_roster(json).expect("reads");
    validate(&cat, &doc, Setting::Standalone)
        .findings
        .into_iter()
        .map(|f| (f.code, f.severity, f.path))
        .collect()
}

fn army(list: &str, units: &str) -> String {
    format!(
        r#"{{"format": "lod.roster/1", "name": "t", "army_list": "{list}", "c_in_c": {{"name": "C"}},
            "brigades": [{{"name": "B", "general": {{"name": "G"}}, "units": [{units}]}}]}}"#
    )
}

const THREE: &str = r#"{"entry": "continental_regiment", "bases": 4},
    {"entry": "militia_regiment", "bases": 3}, {"entry": "riflemen", "bases": 3}"#;

#[test]
fn a_plain_army_is_legal_and_the_neutral_tag_reads() {
    assert!(codes(&army("continental", THREE)).is_empty());
}

#[test]
fn crown_units_in_a_continental_army_are_refused() {
    let found = codes(&army(
        "continental",
        &format!(
            r#"{THREE}, {{"entry": "guard_infantry", "bases": 4}}, {{"entry": "artillery_12pdr", "bases": 1}}"#
        ),
    ));
    let not_in: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "entry_not_in_list")
        .collect();
    assert_eq!(not_in.len(), 2, "{found:?}");
    assert!(not_in.iter().all(|f| f.1 == Severity::Error));
}

#[test]
fn hessian_units_in_a_british_army_are_allies_with_a_warning() {
    let found = codes(&army(
        "british",
        r#"{"entry": "regular_infantry_regiment", "bases": 4}, {"entry": "hessian.jagers", "bases": 5},
           {"entry": "musketeer_regiment", "bases": 4}"#,
    ));
    assert_eq!(
        found.iter().filter(|f| f.0 == "allied_list_entry").count(),
        2,
        "{found:?}"
    );
    assert!(found.iter().all(|f| f.1 == Severity::Warning));
}

#[test]
fn sizes_and_grenadiers_detached() {
    let found = codes(&army(
        "british",
        r#"{"entry": "light_infantry", "bases": 3},
           {"entry": "regular_infantry_regiment", "bases": 3, "grenadiers_detached": true},
           {"entry": "grenadier_infantry", "bases": 4, "grenadiers_detached": true},
           {"entry": "guard_infantry", "bases": 5, "grenadiers_detached": true},
           {"entry": "no_such_unit", "bases": 4}"#,
    ));
    let has = |code: &str, path: &str| found.iter().any(|f| f.0 == code && f.2 == path);
    assert!(
        has("size_not_allowed", "brigades[0].units[0].bases"),
        "{found:?}"
    );
    assert!(has(
        "grenadiers_detached_too_small",
        "brigades[0].units[1].grenadiers_detached"
    ));
    assert!(has(
        "grenadiers_detached_not_allowed",
        "brigades[0].units[2].grenadiers_detached"
    ));
    assert!(has("unknown_entry", "brigades[0].units[4].entry"));
    assert_eq!(
        found.len(),
        4,
        "Guard at 5 with grenadiers detached is legal: {found:?}"
    );
}

#[test]
fn brigades_need_a_general_and_units_and_are_advised_3_to_6() {
    let json = r#"{"format": "muster.lod.roster/1", "name": "t", "army_list": "hessian",
        "brigades": [
          {"name": "A", "units": [{"entry": "jagers", "bases": 3}]},
          {"name": "B", "general": {"name": "G"}, "units": []}
        ]}"#;
    let found = codes(json);
    let list: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        list,
        vec![
            "brigade_without_general",
            "brigade_size_advice",
            "empty_brigade"
        ]
    );
    assert!(
        codes(r#"{"format": "muster.lod.roster/1", "army_list": "british"}"#)
            .iter()
            .any(|f| f.0 == "no_brigades")
    );
    assert!(
        codes(r#"{"format": "muster.lod.roster/1", "army_list": "french", "brigades": []}"#)
            .iter()
            .any(|f| f.0 == "unknown_army_list")
    );
}

#[test]
fn unknown_fields_are_refused_when_reading() {
    let err =
        parse_roster(r#"{"format": "muster.lod.roster/1", "army_list": "british", "points": 100}"#)
            .unwrap_err();
    assert!(err.message.contains("points"), "{err:?}");
    assert!(parse_roster(r#"{"format": "muster.lotf.roster/1", "army_list": "british"}"#).is_err());
}

#[test]
fn a_campaign_force_may_field_a_reduced_size_with_a_warning() {
    let cat = Catalogue::builtin().unwrap();
    let doc = parse_roster(&army(
        "hessian",
        r#"{"entry": "musketeer_regiment", "bases": 3}"#,
    ))
    .unwrap();
    let standalone = validate(&cat, &doc, Setting::Standalone);
    assert!(standalone
        .findings
        .iter()
        .any(|f| f.code == "size_not_allowed"));
    let campaign = validate(&cat, &doc, Setting::Campaign);
    assert!(campaign.legal, "{:?}", campaign.findings);
    assert!(campaign
        .findings
        .iter()
        .any(|f| f.code == "size_below_list_option"));
}

#[test]
fn duplicate_ids_are_renewed_when_stored_the_first_keeping_its_own() {
    let mut doc = parse_roster(&army(
        "continental",
        r#"{"id": "x", "entry": "continental_regiment", "bases": 4},
           {"id": "x", "entry": "militia_regiment", "bases": 3},
           {"id": "x", "entry": "riflemen", "bases": 3}"#,
    ))
    .unwrap();
    doc.assign_ids();
    let ids: Vec<String> = doc.units().map(|(_, _, u)| u.id.clone().unwrap()).collect();
    assert_eq!(ids[0], "x");
    assert!(
        ids[1] != "x" && ids[2] != "x" && ids[1] != ids[2],
        "{ids:?}"
    );
}

#[test]
fn a_roster_with_a_unit_the_lists_cannot_field_is_refused_a_battle() {
    let cat = Catalogue::builtin().unwrap();
    let good = parse_roster(&army("continental", THREE)).unwrap();
    let bad = parse_roster(&army(
        "continental",
        r#"{"entry": "continental_regiment", "bases": 4}, {"name": "Odd", "entry": "nope", "bases": 4}"#,
    ))
    .unwrap();
    let refused = crate::rules::systems::lod::record::prepare(&cat, good, bad, None, false, 1)
        .err()
        .expect("refused");
    assert!(refused.contains("'Odd'"), "{refused}");
}
