//! Reading roster documents and assigning ids.

use super::support::*;
use crate::rules::systems::lotf::*;

const EXAMPLE: &str = r#"{"format": "muster.lotf.roster/1", "name": "Brandywine left", "war": "american_revolution",
 "nation": "british", "points_limit": 150, "mode": "standard",
 "force_commander": {"name": "Cornwallis"},
 "groups": [{"commander": {"name": "Grant"},
             "elements": [{"name": "4th Foot", "type": "infantry", "size": "medium",
                           "weapon": "smoothbore", "upgrades": ["grenadiers"]}]}]}"#;

#[test]
fn the_issue_example_parses() {
    let r = parse_roster(EXAMPLE).expect("parses");
    assert_eq!(r.name, "Brandywine left");
    assert_eq!(r.war, War::AmericanRevolution);
    assert_eq!(r.points_limit, Some(150));
    assert_eq!(r.groups[0].elements[0].upgrades, vec![Upgrade::Grenadiers]);
    assert_eq!(
        r.force_commander.as_ref().map(|c| c.name.as_str()),
        Some("Cornwallis")
    );
}

#[test]
fn missing_optional_fields_take_their_defaults() {
    let r = parse_roster(
        r#"{"format":"muster.lotf.roster/1","war":"war_of_1812","nation":"american",
            "groups":[{"elements":[{"type":"artillery","size":"small"}]}]}"#,
    )
    .expect("parses");
    assert_eq!(r.mode, Mode::Standard);
    assert_eq!(r.name, "");
    assert_eq!(r.points_limit, None);
    assert!(r.force_commander.is_none());
    let e = &r.groups[0].elements[0];
    assert_eq!(e.weapon, None);
    assert_eq!(effective_weapon(&cat(), e), Weapon::LightGun);
    assert!(e.upgrades.is_empty());
    assert!(!e.size_assumed && !e.gun_class_assumed);
}

#[test]
fn an_unknown_field_is_rejected_naming_it_and_the_allowed_fields() {
    let text = "{\"format\":\"muster.lotf.roster/1\",\"war\":\"american_revolution\",\"nation\":\"british\",\n\"groups\":[{\"elements\":[\n{\"type\":\"infantry\",\"size\":\"medium\",\"colour\":\"red\"}]}]}";
    let e = parse_roster(text).expect_err("rejected");
    assert_eq!(e.kind, RosterParseErrorKind::Data);
    assert_eq!(e.path.as_deref(), Some("groups[0].elements[0].colour"));
    assert!(
        e.message.contains("unknown field `colour`"),
        "{}",
        e.message
    );
    assert!(e.message.contains("`size_assumed`"), "{}", e.message);
    assert_eq!(e.line, 3);
    assert!(e.column > 30, "column {}", e.column);
}

#[test]
fn an_unknown_top_level_field_is_rejected() {
    let e = parse_roster(r#"{"format":"muster.lotf.roster/1","war":"american_revolution","nation":"british","army":"x"}"#)
        .expect_err("rejected");
    assert_eq!(e.path.as_deref(), Some("army"));
    assert!(e.message.contains("`points_limit`"));
}

#[test]
fn a_bad_value_names_the_field_and_the_allowed_values() {
    let e = parse_roster(
        r#"{"format":"muster.lotf.roster/1","war":"american_revolution","nation":"british",
            "groups":[{"elements":[{"type":"infantry","size":"medium"},{"type":"infantry","size":"huge"}]}]}"#,
    )
    .expect_err("rejected");
    assert_eq!(e.path.as_deref(), Some("groups[0].elements[1].size"));
    assert!(
        e.message
            .starts_with("groups[0].elements[1].size: unknown value `huge`"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("`tiny`, `small`, `medium`, `large`"),
        "{}",
        e.message
    );

    let e =
        parse_roster(r#"{"format":"muster.lotf.roster/1","war":"boer_war","nation":"british"}"#)
            .expect_err("rejected");
    assert_eq!(e.path.as_deref(), Some("war"));
    assert!(e.message.contains("`war_of_1812`"), "{}", e.message);

    let e = parse_roster(
        r#"{"format":"muster.lotf.roster/1","war":"war_of_1812","nation":"british","groups":[{"elements":[{"type":"infantry","size":"small","upgrades":["elite","ninjas"]}]}]}"#,
    )
    .expect_err("rejected");
    assert_eq!(e.path.as_deref(), Some("groups[0].elements[0].upgrades[1]"));
    assert!(e.message.contains("`militia_riflemen`"));
}

#[test]
fn a_missing_required_field_names_the_object() {
    let e = parse_roster(r#"{"format":"muster.lotf.roster/1","war":"war_of_1812","nation":"british","groups":[{"elements":[{"type":"infantry"}]}]}"#)
        .expect_err("rejected");
    assert_eq!(e.path.as_deref(), Some("groups[0].elements[0]"));
    assert!(e.message.contains("missing field `size`"), "{}", e.message);
}

#[test]
fn a_wrong_format_tag_is_rejected() {
    let e =
        parse_roster(r#"{"format":"muster.lotf.roster/9","war":"war_of_1812","nation":"british"}"#)
            .expect_err("rejected");
    assert_eq!(e.kind, RosterParseErrorKind::Format);
    assert!(e.message.contains("muster.lotf.roster/1"));
}

#[test]
fn broken_json_reports_its_position() {
    let e = parse_roster("{\"format\":\"muster.lotf.roster/1\",\n \"war\" \"war_of_1812\"}")
        .expect_err("rejected");
    assert_eq!(e.kind, RosterParseErrorKind::Syntax);
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("line 2"));
    let e = parse_roster("{\"format\":").expect_err("rejected");
    assert_eq!(e.kind, RosterParseErrorKind::Eof);
}

#[test]
fn a_roster_survives_a_round_trip() {
    let mut r = parse_roster(EXAMPLE).expect("parses");
    r.assign_missing_ids();
    let again = parse_roster(&r.to_json_pretty()).expect("parses again");
    assert_eq!(again, r);
}

#[test]
fn ids_are_assigned_deterministically() {
    let mut a = plain_force(&[2, 3]);
    let mut b = a.clone();
    a.assign_missing_ids();
    b.assign_missing_ids();
    assert_eq!(a, b);
    assert_eq!(a.id.as_deref(), Some("f1"));
    assert_eq!(
        a.force_commander.as_ref().and_then(|c| c.id.as_deref()),
        Some("c1")
    );
    assert_eq!(a.groups[0].id.as_deref(), Some("g1"));
    assert_eq!(
        a.groups[0].commander.as_ref().and_then(|c| c.id.as_deref()),
        Some("c2")
    );
    let el_ids: Vec<_> = a
        .groups
        .iter()
        .flat_map(|g| g.elements.iter().map(|e| e.id.clone().unwrap_or_default()))
        .collect();
    assert_eq!(el_ids, vec!["e1", "e2", "e3", "e4", "e5"]);
}

#[test]
fn existing_unique_ids_are_kept_and_duplicates_replaced_with_the_smallest_unused() {
    let mut r = plain_force(&[3, 2]);
    r.groups[0].elements[0].id = Some("e2".into());
    r.groups[0].elements[1].id = Some("veteran-44th".into());
    r.groups[0].elements[2].id = Some("e2".into()); // duplicate: replaced
    r.groups[1].elements[0].id = Some(String::new()); // empty: replaced
    r.assign_missing_ids();
    let ids: Vec<_> = r
        .groups
        .iter()
        .flat_map(|g| g.elements.iter().map(|e| e.id.clone().unwrap_or_default()))
        .collect();
    assert_eq!(ids, vec!["e2", "veteran-44th", "e1", "e3", "e4"]);
    let mut again = r.clone();
    again.assign_missing_ids();
    assert_eq!(again, r, "assigning twice changes nothing");
}

#[test]
fn through_the_dispatch_a_roster_is_stored_as_before_and_copied_as_a_new_document() {
    use crate::rules::systems::{AnyRoster, Systems};
    let systems = Systems {
        lotf: cat(),
        lod: crate::rules::systems::lod::Catalogue::builtin().unwrap(),
        oibl: crate::rules::systems::oibl::Catalogue::builtin().unwrap(),
    };
    let mut doc = plain_force(&[2, 1]);
    doc.id = Some("f7".into());
    // What the roster service did itself before the seam: stamp, assign ids, pretty JSON.
    let mut before = doc.clone();
    before.catalogue_version = Some(systems.lotf.version().to_string());
    before.assign_missing_ids();
    let mut roster = AnyRoster::from(doc);
    assert!(roster.check_size().is_ok());
    systems.prepare_for_storing(&mut roster);
    assert_eq!(roster.to_json(), before.to_json_pretty());
    assert_eq!(systems.catalogue_version(&roster), systems.lotf.version());
    let (summary, _) = systems.check(&roster);
    assert_eq!(summary.name, "test force");
    assert_eq!(roster.name(), "test force");

    let copy = roster.renamed_copy(format!("{} (copy)", roster.name()));
    let copy = RosterDoc::try_from(copy).expect("a Land of the Free roster");
    assert_eq!(copy.name, "test force (copy)");
    assert_eq!(copy.id, None, "a copy is a new document");
    assert_eq!(copy.groups, before.groups);
}

#[test]
fn the_dispatch_refuses_a_roster_too_large_naming_the_part() {
    use crate::rules::systems::AnyRoster;
    let mut doc = plain_force(&[1]);
    doc.name = "x".repeat(100_000);
    let e = AnyRoster::from(doc)
        .check_size()
        .expect_err("too long a name");
    assert_eq!(e.path.as_deref(), Some("name"));
}

/// An element's `historical_entry` key is held to the same length as every other text
/// (issue 17's audit found it unlimited).
#[test]
fn a_historical_entry_key_has_a_length_limit() {
    use crate::rules::systems::AnyRoster;
    let mut doc = plain_force(&[1]);
    doc.groups[0].elements[0].historical_entry = Some("k".repeat(201));
    let e = AnyRoster::from(doc.clone())
        .check_size()
        .expect_err("too long a key");
    assert_eq!(
        e.path.as_deref(),
        Some("groups[0].elements[0].historical_entry")
    );
    doc.groups[0].elements[0].historical_entry = Some("k".repeat(200));
    assert!(AnyRoster::from(doc).check_size().is_ok());
}

/// A points limit the editor could not save is refused at import, with the bound named; one
/// too large for any number says it is out of range (not "expected a whole number"); a list is
/// not a roster, said without serde's words about struct lengths.
#[test]
fn an_impossible_points_limit_or_a_list_is_refused_in_plain_words() {
    let doc = |limit: &str| {
        format!(
            r#"{{"format":"muster.lotf.roster/1","war":"american_revolution","nation":"british","points_limit":{limit}}}"#
        )
    };
    let e = parse_roster(&doc("200000")).expect_err("too large");
    assert_eq!(e.path.as_deref(), Some("points_limit"));
    assert!(
        e.message.contains("at most 100000 (200000 given)"),
        "{}",
        e.message
    );
    assert_eq!(
        parse_roster(&doc("100000")).unwrap().points_limit,
        Some(100_000)
    );
    assert_eq!(parse_roster(&doc("0")).unwrap().points_limit, Some(0));

    let e = parse_roster(&doc("1000000000000")).expect_err("beyond any number");
    assert!(
        e.message.contains("`1000000000000` is out of range"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("0 or more"), "{}", e.message);

    for text in ["[]", "  [1, 2]", "42", "\"roster\""] {
        let e = parse_roster(text).expect_err("not an object");
        assert!(
            e.message.starts_with("a roster is one JSON object"),
            "{text}: {}",
            e.message
        );
        assert!(!e.message.contains("struct"), "{}", e.message);
    }
}
