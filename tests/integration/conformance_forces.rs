//! The conformance suite every rule system passes through the campaign seam, `ForceRules`: a
//! casualty never grows a force, a roster survives enlistment with every part named by its own
//! id, and a system without a size measure gets no reinforcements and can buy nothing. The
//! checks are written against `&dyn ForceRules`; a new system adds its rosters in
//! [`rosters_of`], and a minimal "counting" system below runs through the same checks.

use std::collections::BTreeSet;

use muster::rules::campaign::error::FieldProblem;
use muster::rules::campaign::forces::{enlist, purchase};
use muster::rules::campaign::forces_api::{
    BattleDoc, BattleReport, Bought, Choice, ElementRef, ForceShape, GroupRef, Purchase,
    PurchaseMenu, Reduction, SetupForce,
};
use muster::rules::campaign::presets::preset;
use muster::rules::campaign::state::{HouseRules, Settings, SideSetup};
use muster::rules::campaign::turn::{close_turn, end_turn};
use muster::rules::campaign::{CampaignError, CampaignState, Event, ForceRules, RosterJson};
use muster::rules::dice::Dice;
use muster::rules::system::RuleSystem;
use muster::rules::systems::atkm::Atkm;
use muster::rules::systems::awi;
use muster::rules::systems::lod::Lod;
use muster::rules::systems::lotf::Lotf;
use muster::rules::systems::oibl;
use muster::rules::{SystemId, Systems};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// The checks, for any system.

/// Enlists `roster` in whichever of the system's wars takes it. A roster belongs to one war:
/// every other war refuses it, in words.
fn enlisted(rules: &dyn ForceRules, roster: &RosterJson, size: u32) -> RosterJson {
    let mut taken = Vec::new();
    for war in rules.wars() {
        match rules.enlistment(roster, &war.value, size) {
            Ok(r) => taken.push(r),
            Err(e) => assert!(!e.is_empty(), "a refusal says why ({})", war.value),
        }
    }
    assert_eq!(
        taken.len(),
        1,
        "{}: exactly one war enlists {:?}",
        rules.system().label(),
        roster.name()
    );
    taken.remove(0)
}

fn shape(rules: &dyn ForceRules, roster: &RosterJson) -> ForceShape {
    rules
        .shape(roster)
        .unwrap_or_else(|e| panic!("{:?} has a shape: {e}", roster.name()))
}

/// What a player sees of an element, whatever its id.
fn looks(e: &ElementRef) -> (String, String, String, Vec<String>, Option<u32>) {
    (
        e.name.clone(),
        e.kind.clone(),
        e.size.clone(),
        e.upgrades.clone(),
        e.points,
    )
}

/// Enlisting a legal roster keeps its elements, commanders and size, and gives every element
/// and commander an id of its own: the campaign keeps each one's history under it.
fn rosters_survive_enlistment(rules: &dyn ForceRules, rosters: &[RosterJson]) {
    for roster in rosters {
        let name = roster.name();
        let before = shape(rules, roster);
        let after_doc = enlisted(rules, roster, 2000);
        let after = shape(rules, &after_doc);
        assert_eq!(after_doc.name(), name, "the roster keeps its name");
        assert_eq!(
            after.elements().map(looks).collect::<Vec<_>>(),
            before.elements().map(looks).collect::<Vec<_>>(),
            "{name}: enlistment keeps every element as it was"
        );
        assert_eq!(
            rules.points(&after_doc),
            rules.points(roster),
            "{name}: enlistment does not change the force's size"
        );
        let mut ids = BTreeSet::new();
        for id in after
            .elements()
            .map(|e| &e.id)
            .chain(after.commanders().map(|c| &c.id))
        {
            assert!(
                !id.is_empty(),
                "{name}: every element and commander has an id"
            );
            assert!(ids.insert(id.clone()), "{name}: id {id} is used twice");
        }
        assert!(
            after.commanders().count() >= before.commanders().count(),
            "{name}: no commander is lost"
        );
        // Enlisting again (a force handed on) changes nothing.
        let again = enlisted(rules, &after_doc, 2000);
        assert_eq!(shape(rules, &again), after, "{name}: enlistment is stable");
    }
}

/// Every reduction of every element to every smaller size, applied as the log applies it: the
/// force never grows (its points, counting the refund for dropped upgrades, never rise; no
/// element or commander appears), the element takes the asked size, and no other element
/// changes. Taking an element off leaves one element fewer and never raises the points.
/// Returns how many reductions were checked.
fn reductions_never_grow_a_force(rules: &dyn ForceRules, rosters: &[RosterJson]) -> usize {
    let mut checked = 0;
    for roster in rosters {
        let force = enlisted(rules, roster, 2000);
        let name = force.name().to_string();
        let before = shape(rules, &force);
        let points_before = rules.points(&force);
        let elements_before = before.elements().count();
        let commanders_before = before.commanders().count();
        for e in before.elements() {
            assert_eq!(
                rules.reduce(&force, &e.id, u8::MAX),
                None,
                "{name}: {} has no size of rank 255",
                e.name
            );
            for rank in 0..e.rank {
                let what = format!("{name}: {} ({}) to rank {rank}", e.name, e.size_label);
                let Reduction {
                    size,
                    dropped,
                    refund,
                } = rules
                    .reduce(&force, &e.id, rank)
                    .unwrap_or_else(|| panic!("{what}: a smaller size exists"));
                let mut reduced = force.clone();
                let words = rules
                    .resize(&mut reduced, &e.id, &size, &dropped)
                    .unwrap_or_else(|err| panic!("{what}: the reduction applies: {err}"));
                assert_eq!(words, rules.size_label(&size), "{what}: the size in words");
                let after = shape(rules, &reduced);
                let now = after
                    .element(&e.id)
                    .unwrap_or_else(|| panic!("{what}: the element is still there"));
                assert_eq!(now.rank, rank, "{what}: the asked size");
                assert_eq!(now.size, size, "{what}: the stored size");
                assert_eq!(
                    now.upgrades.len() + dropped.len(),
                    e.upgrades.len(),
                    "{what}: exactly the dropped upgrades go"
                );
                assert_eq!(after.elements().count(), elements_before, "{what}");
                assert_eq!(after.commanders().count(), commanders_before, "{what}");
                for other in before.elements().filter(|o| o.id != e.id) {
                    assert_eq!(
                        after.element(&other.id),
                        Some(other),
                        "{what}: {} is untouched",
                        other.name
                    );
                }
                match (points_before, rules.points(&reduced)) {
                    (Some(was), Some(is)) => {
                        assert!(
                            is < was,
                            "{what}: a smaller element costs less ({was} -> {is})"
                        );
                        assert!(
                            is + refund <= was,
                            "{what}: the force and its refund ({is} + {refund}) are no more \
                             than the force was ({was})"
                        );
                    }
                    (None, None) => assert_eq!(refund, 0, "{what}: no points, no refund"),
                    (was, is) => panic!("{what}: the force's points went from {was:?} to {is:?}"),
                }
                checked += 1;
            }
            let mut without = force.clone();
            let gone = rules
                .remove_element(&mut without, &e.id)
                .unwrap_or_else(|err| panic!("{name}: {} can be taken off: {err}", e.name));
            assert_eq!(gone, e.name, "{name}: the removal names the element");
            let after = shape(rules, &without);
            assert_eq!(after.elements().count(), elements_before - 1, "{name}");
            assert_eq!(after.element(&e.id), None, "{name}: {} is gone", e.name);
            assert_eq!(after.commanders().count(), commanders_before, "{name}");
            if let (Some(was), Some(is)) = (points_before, rules.points(&without)) {
                assert!(is <= was, "{name}: losing {} cost {was} -> {is}", e.name);
            }
        }
        // An element the force does not have: nothing to reduce or take off, and the roster
        // stays as it was.
        assert_eq!(rules.reduce(&force, "no-such-element", 0), None, "{name}");
        let mut same = force.clone();
        assert!(rules.remove_element(&mut same, "no-such-element").is_err());
        assert_eq!(same, force, "{name}: a failed removal changes nothing");
    }
    checked
}

/// A campaign on the Philadelphia map with two forces, one a side, started.
fn two_force_campaign(rules: &dyn ForceRules, rosters: [RosterJson; 2]) -> CampaignState {
    let p = preset("philadelphia-1777").expect("the preset map");
    let side = |i: usize| SideSetup {
        name: p.sides[i].0.into(),
        home: p.sides[i].1.into(),
    };
    let mut st = CampaignState::default();
    let mut seq = 0;
    let mut push = |st: &mut CampaignState, event: Event| {
        seq += 1;
        st.apply(rules, seq, &event).expect("the event applies");
    };
    push(
        &mut st,
        Event::Created {
            settings: Settings {
                name: "Brandywine".into(),
                rule_system: rules.system().id().into(),
                war: p.war.into(),
                points: 200,
                turns: 3,
                sides: [side(0), side(1)],
                rules: HouseRules::default(),
                scenario: None,
            },
            map: p.map,
        },
    );
    for (i, roster) in rosters.iter().enumerate() {
        let side = u8::try_from(i).expect("two sides");
        let user = i64::from(side) + 1;
        let e = enlist(&st, rules, user, &format!("Player {user}"), side, roster, 7)
            .expect("a legal force enlists");
        push(&mut st, e);
    }
    push(&mut st, Event::Started);
    st
}

/// Closes turn 1 with every force holding at home (no contact, so no battle) and gives the
/// entries that end it.
fn end_of_turn_one(rules: &dyn ForceRules, st: &mut CampaignState) -> Vec<Event> {
    let plan = close_turn(st, rules, 11).expect("the turn closes");
    assert!(plan.battles.is_empty(), "forces at home meet no one");
    for (seq, e) in (100..).zip(&plan.events) {
        st.apply(rules, seq, e).expect("applies");
    }
    let ended = end_turn(st, rules);
    for (seq, e) in (200..).zip(&ended) {
        st.apply(rules, seq, e).expect("applies");
    }
    assert!(
        ended.contains(&Event::TurnBegan { turn: 2 }),
        "turn 2 begins: {ended:?}"
    );
    ended
}

fn reinforced(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Reinforced { force, .. } => Some(force.as_str()),
            _ => None,
        })
        .collect()
}

/// The organiser puts `bank` points in force f1's bank.
fn fill_bank(rules: &dyn ForceRules, st: &mut CampaignState, bank: u32) {
    let adjusted = Event::Adjusted {
        force: Some("f1".into()),
        side: None,
        points: 0,
        bank: i32::try_from(bank).expect("small"),
        bank_after: Some(bank),
        reason: "A gift from Congress".into(),
    };
    st.apply(rules, 300, &adjusted).expect("applies");
    assert_eq!(st.forces["f1"].bank, bank);
}

// ---------------------------------------------------------------------------------------------
// The systems this build serves, and the rosters each is checked with.

/// Legal rosters of system `id` as its JSON documents. A new system adds its arm here (the match
/// has one arm per system, so a new one cannot be forgotten).
fn rosters_of(systems: &Systems, id: SystemId) -> Vec<RosterJson> {
    match id {
        SystemId::Lotf => {
            let mut all: Vec<RosterJson> = Lotf::starting_rosters(&systems.lotf)
                .iter()
                .map(|r| {
                    RosterJson::from_value(&serde_json::to_value(r).expect("a roster serialises"))
                })
                .collect();
            all.push(RosterJson::from_value(&lotf_upgraded()));
            all.push(RosterJson::from_value(&lotf_clashing_ids()));
            all
        }
        SystemId::Lod => {
            let mut all: Vec<RosterJson> = Lod::starting_rosters(&systems.lod)
                .iter()
                .map(|r| {
                    RosterJson::from_value(&serde_json::to_value(r).expect("a roster serialises"))
                })
                .collect();
            all.push(RosterJson::from_value(&lod_largest()));
            all.push(RosterJson::from_value(&lod_continental_largest()));
            all
        }
        SystemId::Atkm => {
            let mut all: Vec<RosterJson> = Atkm::starting_rosters(&systems.atkm)
                .iter()
                .map(|r| {
                    RosterJson::from_value(&serde_json::to_value(r).expect("a roster serialises"))
                })
                .collect();
            all.push(RosterJson::from_value(&atkm_every_kind()));
            all
        }
        SystemId::Awi => {
            let mut all: Vec<RosterJson> = ["example:british", "example:continental"]
                .iter()
                .map(|r| {
                    let doc = awi::Awi::historical_force(r).expect("an AWI example");
                    RosterJson::from_value(&serde_json::to_value(doc).expect("a roster serialises"))
                })
                .collect();
            all.push(RosterJson::from_value(&awi_large()));
            all
        }
        SystemId::Oibl => {
            let mut all: Vec<RosterJson> = ["oibl:example:american", "oibl:example:british"]
                .iter()
                .map(|r| {
                    let doc = oibl::Oibl::historical_force(r).expect("a One if by Land example");
                    RosterJson::from_value(&serde_json::to_value(doc).expect("a roster serialises"))
                })
                .collect();
            all.push(RosterJson::from_value(&oibl_every_class()));
            all
        }
    }
}

/// Every system this build serves that fights campaigns, with its rosters.
fn served_forces(systems: &Systems) -> Vec<(&dyn ForceRules, Vec<RosterJson>)> {
    let served: Vec<_> = SystemId::served()
        .filter_map(|id| systems.forces(id).map(|f| (f, rosters_of(systems, id))))
        .collect();
    assert!(!served.is_empty(), "at least one system fights campaigns");
    served
}

/// An AWI order of battle with every troop type and grade, big units, a gun of each class,
/// an unnamed unit, rifles, and ids that clash (the second of each gets a new one).
fn awi_large() -> Value {
    json!({"format": "muster.awi.oob/1", "name": "Grand Army", "side": "Continental",
           "cinc": {"name": "Washington"},
           "brigades": [
             {"name": "Greene's", "brigadier": {"name": "Greene", "ability": 7}, "units": [
               {"id": "u1", "name": "1st Virginia", "type": "infantry", "grade": "elite", "bases": 12},
               {"id": "u1", "name": "2nd Virginia", "type": "infantry", "grade": "trained", "bases": 10},
               {"type": "skirmishers", "grade": "raw", "bases": 6, "arms": "rifle"},
               {"name": "Long guns", "type": "artillery", "grade": "trained", "gun": "medium"}]},
             {"name": "Sullivan's", "brigadier": {"name": "Sullivan"}, "units": [
               {"name": "Jersey militia", "type": "infantry", "grade": "militia", "bases": 9},
               {"name": "Light dragoons", "type": "cavalry", "grade": "trained", "bases": 8},
               {"name": "Field piece", "type": "artillery", "grade": "raw", "gun": "light", "gunners": 2}]}]})
}

/// A One if by Land order of battle under an army commander and a division, with a unit of
/// most classes, a battery of three heavy guns, a unit under strength, an unnamed unit, Marksmen,
/// and ids that clash (the second of each gets a new one).
fn oibl_every_class() -> Value {
    json!({"format": "muster.oibl.roster/1", "name": "Grand Army", "nation": "american",
           "army_commander": {"name": "Washington", "rating": 2},
           "divisions": [{"name": "Right wing", "commander": {"name": "Greene"},
                          "brigades": ["b1", "b2"]}],
           "brigades": [
             {"id": "b1", "name": "Line", "commander": {"name": "Wayne", "rating": 1}, "units": [
               {"id": "u1", "name": "1st Pennsylvania", "class": "continental", "stands": 8,
                "quality": "elite"},
               {"id": "u1", "name": "2nd Pennsylvania", "class": "continental", "stands": 6,
                "quality": "regular", "figures": 14},
               {"class": "militia", "stands": 5, "quality": "wretched"},
               {"name": "Morgan's Rifles", "class": "militia_rifle", "stands": 6,
                "quality": "veteran", "marksmen": true}]},
             {"id": "b2", "name": "Horse and guns", "commander": {"name": "Knox"}, "units": [
               {"name": "Light Dragoons", "class": "cavalry", "stands": 4, "quality": "regular"},
               {"name": "Siege train", "class": "artillery", "stands": 3, "quality": "veteran",
                "gun": "heavy", "guns": 3},
               {"name": "French Regiment", "class": "french", "stands": 6, "quality": "veteran"},
               {"name": "Oneida", "class": "indian", "stands": 8, "quality": "regular"}]}]})
}

/// A British Liberty or Death! army with every kind at its largest size, some units unnamed
/// and some with their grenadiers detached (a reduction keeps them detached).
fn lod_largest() -> Value {
    let unit = |entry: &str, bases: u32, detached: bool| json!({"entry": entry, "bases": bases, "grenadiers_detached": detached});
    json!({"format": "muster.lod.roster/1", "name": "Largest", "army_list": "british",
           "c_in_c": {"name": "Clinton"},
           "brigades": [
             {"name": "Foot", "general": {"name": "Grey"}, "units": [
               unit("regular_infantry_regiment", 5, false), unit("regular_infantry_regiment", 5, true),
               unit("highland_infantry_regiment", 5, false), unit("guard_infantry", 5, true),
               unit("grenadier_infantry", 5, false), unit("hessian.musketeer_regiment", 5, false)]},
             {"name": "Light", "general": {"name": "Tarleton"}, "units": [
               unit("light_infantry", 5, false), unit("queens_rangers", 4, false),
               unit("light_dragoon_regiment", 6, false), unit("legion_cavalry", 6, false),
               unit("hessian.jagers", 5, false)]},
             {"name": "Guns", "general": {"name": "Phillips"}, "units": [
               unit("artillery_12pdr", 3, false), unit("artillery_6pdr", 3, false),
               unit("artillery_3pdr", 3, false)]}]})
}

/// A Continental army of the list's largest units, one brigade per ladder.
fn lod_continental_largest() -> Value {
    let unit =
        |name: &str, entry: &str, bases: u32| json!({"name": name, "entry": entry, "bases": bases});
    json!({"format": "muster.lod.roster/1", "name": "Main Army", "army_list": "continental",
           "c_in_c": {"name": "Washington"},
           "brigades": [
             {"name": "Militia", "general": {"name": "Stark"}, "units": [
               unit("Green", "green_militia_regiment", 5), unit("Line", "militia_regiment", 5),
               unit("Old hands", "experienced_militia_regiment", 4), unit("Minutemen", "minutemen", 4)]},
             {"name": "Line", "general": {"name": "Wayne"}, "units": [
               unit("Recruits", "green_continental_regiment", 5), unit("1st", "continental_regiment", 5),
               unit("2nd", "continental_regiment", 5), unit("Veterans", "experienced_infantry_regiment", 4),
               unit("Rifles", "riflemen", 4)]},
             {"name": "Horse and guns", "general": {"name": "Knox"}, "units": [
               unit("Lee's Legion", "continental_light_dragoons", 4), unit("Militia horse", "militia_cavalry", 4),
               unit("Field guns", "artillery_6pdr", 3), unit("Light guns", "artillery_3pdr", 3)]}]})
}

/// An All the King's Men army of 1757 with every kind of unit, two Lieutenant Generals, a war
/// party, guns of each size and a 16-strong militia regiment (optional rules on), some units
/// unnamed and without ids.
fn atkm_every_kind() -> Value {
    let unit = |t: &str, general: &str| json!({"type": t, "general": general});
    let mut units = vec![
        json!({"name": "Provincials", "type": "infantry", "general": "g1", "rank_and_file": 16,
               "break_point": 10, "quality": "militia"}),
        json!({"name": "Grenadiers", "type": "infantry", "general": "g1", "quality": "elite"}),
        unit("skirmishers", "g2"),
        unit("cavalry", "g2"),
        json!({"name": "Battering train", "type": "foot_artillery", "general": "g3", "gun": "heavy"}),
        json!({"type": "foot_artillery", "general": "g3", "gun": "light"}),
        json!({"type": "horse_artillery", "general": "g3"}),
        json!({"name": "Rangers", "type": "skirmishing_cavalry", "general": "g2"}),
        json!({"name": "War party", "type": "woodland_indians", "general": "g2", "rank_and_file": 11}),
    ];
    units.push(unit("infantry", "g1"));
    json!({"format": "muster.atkm.roster/1", "name": "Every kind", "period": "sywar",
           "advanced_rules": ["elite_militia", "artillery_sizes", "unit_sizes", "break_points",
                              "skirmishing_cavalry", "woodland_indians"],
           "generals": [
             {"id": "g1", "name": "Abercromby", "rating": 1, "role": "commanding"},
             {"id": "g2", "name": "Rogers", "rating": 2, "role": "lieutenant"},
             {"id": "g3", "name": "", "rating": 2, "role": "lieutenant"}],
           "units": units})
}

/// A Land of the Free force with upgrades on most elements, some of which only a large
/// element may carry.
fn lotf_upgraded() -> Value {
    json!({"format": "muster.lotf.roster/1", "name": "Upgraded", "war": "american_revolution",
           "nation": "british", "points_limit": 400,
           "force_commander": {"name": "General Howe"},
           "groups": [
             {"name": "Foot", "commander": {"name": "Colonel Foot"}, "elements": [
               {"name": "Big battalion", "type": "infantry", "size": "large",
                "upgrades": ["additional_ranks"]},
               {"name": "Guards", "type": "infantry", "size": "medium", "upgrades": ["elite"]},
               {"name": "Hessian grenadiers", "type": "infantry", "size": "large",
                "upgrades": ["hessians", "grenadiers"]},
               {"name": "Light bobs", "type": "infantry", "size": "small", "weapon": "rifled",
                "upgrades": ["light_infantry"]},
               {"name": "Loyalists", "type": "infantry", "size": "medium",
                "upgrades": ["militia"]}]},
             {"name": "Horse and guns", "commander": {"name": "Colonel Horse"}, "elements": [
               {"name": "Heavy horse", "type": "cavalry", "size": "large",
                "upgrades": ["additional_ranks"]},
               {"name": "Dragoons", "type": "cavalry", "size": "medium",
                "upgrades": ["dragoons"]},
               {"name": "Siege train", "type": "artillery", "size": "large",
                "weapon": "heavy_gun", "upgrades": ["additional_ranks"]},
               {"name": "Tiny foot", "type": "infantry", "size": "tiny"}]}]})
}

/// A Land of the Free force whose parts carry ids that clash: two elements share one, and an
/// element has a commander's.
fn lotf_clashing_ids() -> Value {
    json!({"format": "muster.lotf.roster/1", "name": "Clashing", "war": "war_of_1812",
           "nation": "american", "points_limit": 200,
           "force_commander": {"id": "c1", "name": "General Brown"},
           "groups": [
             {"id": "g1", "name": "First", "commander": {"id": "c2", "name": "Colonel Scott"},
              "elements": [
               {"id": "e1", "name": "9th", "type": "infantry", "size": "medium"},
               {"id": "e1", "name": "11th", "type": "infantry", "size": "medium"},
               {"id": "c1", "name": "25th", "type": "infantry", "size": "large"}]},
             {"name": "Second", "commander": {"name": "Colonel Ripley"}, "elements": [
               {"name": "21st", "type": "infantry", "size": "medium"},
               {"id": "c2", "name": "Towson's", "type": "artillery", "size": "small"}]}]})
}

#[test]
fn a_reduction_never_grows_a_force() {
    let systems = Systems::builtin().expect("the built-in data");
    for (rules, rosters) in served_forces(&systems) {
        let checked = reductions_never_grow_a_force(rules, &rosters);
        assert!(
            checked > 50,
            "{}: only {checked} reductions were checked",
            rules.system().label()
        );
    }
}

#[test]
fn rosters_survive_the_campaign_round_trip() {
    let systems = Systems::builtin().expect("the built-in data");
    for (rules, rosters) in served_forces(&systems) {
        rosters_survive_enlistment(rules, &rosters);
    }
}

/// The All the King's Men fixture is a legal army of the French and Indian War.
#[test]
fn the_all_the_kings_men_fixture_is_a_legal_army() {
    let systems = Systems::builtin().expect("the built-in data");
    let rules = systems.forces(SystemId::Atkm).expect("All the King's Men");
    let force = enlisted(rules, &RosterJson::from_value(&atkm_every_kind()), 12);
    assert_eq!(rules.problems(&force, 12, false), Vec::<String>::new());
    let shape = shape(rules, &force);
    assert_eq!(shape.commanders().count(), 3);
    assert_eq!(shape.groups.len(), 3);
    assert_eq!(shape.elements().count(), 10);
}

/// The fixtures above are what they claim: legal, with upgrades a reduction must drop.
#[test]
fn the_land_of_the_free_fixtures_are_legal_forces() {
    let systems = Systems::builtin().expect("the built-in data");
    let rules = systems.forces(SystemId::Lotf).expect("Land of the Free");
    for doc in [lotf_upgraded(), lotf_clashing_ids()] {
        let force = enlisted(rules, &RosterJson::from_value(&doc), 400);
        assert_eq!(
            rules.problems(&force, 400, false),
            Vec::<String>::new(),
            "{}",
            force.name()
        );
    }
    let force = enlisted(rules, &RosterJson::from_value(&lotf_upgraded()), 400);
    let big = shape(rules, &force)
        .elements()
        .find(|e| e.name == "Big battalion")
        .map(|e| e.id.clone())
        .expect("the big battalion");
    let r = rules.reduce(&force, &big, 2).expect("medium");
    assert_eq!(
        r.dropped,
        ["additional_ranks"],
        "only a large element has them"
    );
    assert_eq!(r.refund, 10);
    // The clashing ids are all told apart, and the commanders keep theirs.
    let clashing = shape(
        rules,
        &enlisted(rules, &RosterJson::from_value(&lotf_clashing_ids()), 200),
    );
    assert_eq!(clashing.commanders().count(), 3);
    assert_eq!(clashing.elements().count(), 5);
    assert_eq!(
        clashing.commander.as_ref().map(|c| c.id.as_str()),
        Some("c1")
    );
}

/// The One if by Land fixture is a legal order of battle, whose every unit can lose figures.
#[test]
fn the_one_if_by_land_fixture_is_a_legal_order_of_battle() {
    let systems = Systems::builtin().expect("the built-in data");
    let rules = systems.forces(SystemId::Oibl).expect("One if by Land");
    let force = enlisted(rules, &RosterJson::from_value(&oibl_every_class()), 400);
    assert_eq!(rules.problems(&force, 400, false), Vec::<String>::new());
    let shape = shape(rules, &force);
    assert_eq!(
        shape.commanders().count(),
        3,
        "the army's and two brigades'"
    );
    assert_eq!(shape.elements().count(), 8);
    assert!(shape.elements().all(|e| e.rank > 0), "{shape:?}");
}

// ---------------------------------------------------------------------------------------------
// A system without a size measure.

/// A minimal rule system that counts elements and prices nothing: a roster is
/// `{"name": …, "elements": [{"id": …, "name": …}]}`, every element comes in one size, and
/// there are no commanders and no battles.
struct Counting;

fn elements_of(roster: &RosterJson) -> Result<Vec<Value>, String> {
    roster
        .to_value()
        .get("elements")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| "a counting roster lists its elements".to_string())
}

/// Changes a counting roster's elements and writes the document back.
fn with_elements<T>(
    roster: &mut RosterJson,
    change: impl FnOnce(&mut Vec<Value>) -> Result<T, String>,
) -> Result<T, String> {
    let mut doc = roster.to_value();
    let els = doc
        .get_mut("elements")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| "a counting roster lists its elements".to_string())?;
    let out = change(els)?;
    *roster = RosterJson::from_value(&doc);
    Ok(out)
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

fn fresh_id(taken: &dyn Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| format!("e{n}"))
        .find(|id| !taken(id))
        .expect("ids never run out")
}

fn counting_roster(name: &str, elements: &[&str]) -> RosterJson {
    RosterJson::from_value(&json!({
        "name": name,
        "elements": elements
            .iter()
            .enumerate()
            .map(|(i, n)| json!({"id": format!("e{}", i + 1), "name": n}))
            .collect::<Vec<_>>(),
    }))
}

impl ForceRules for Counting {
    fn system(&self) -> SystemId {
        // A stand-in: the engine does not branch on it.
        SystemId::Oibl
    }

    fn wars(&self) -> Vec<Choice> {
        vec![Choice {
            value: "american_revolution".into(),
            label: "Any war".into(),
        }]
    }

    fn scenarios(&self) -> Vec<Choice> {
        vec![Choice {
            value: "open_field".into(),
            label: "Open field".into(),
        }]
    }

    fn scenario_name(&self, id: &str) -> Option<String> {
        (id == "open_field").then(|| "Open field".into())
    }

    fn fort_assault(&self) -> Option<String> {
        None
    }

    fn roll_scenario(&self, _: &mut Dice) -> (String, String) {
        ("open_field".into(), "Scenario: open field.".into())
    }

    fn enlistment(&self, roster: &RosterJson, war: &str, _: u32) -> Result<RosterJson, String> {
        if war != "american_revolution" {
            return Err("Counting forces fight one war.".into());
        }
        let mut out = roster.clone();
        with_elements(&mut out, |els| {
            let mut seen = BTreeSet::new();
            for e in els.iter_mut() {
                let id = text(e, "id");
                if id.is_empty() || !seen.insert(id) {
                    e["id"] = Value::Null;
                }
            }
            for e in els.iter_mut().filter(|e| e["id"].is_null()) {
                let id = fresh_id(&|c| seen.contains(c));
                seen.insert(id.clone());
                e["id"] = json!(id);
            }
            Ok(())
        })?;
        Ok(out)
    }

    fn points(&self, _: &RosterJson) -> Option<u32> {
        None
    }

    fn problems(&self, roster: &RosterJson, _: u32, casualties_started: bool) -> Vec<String> {
        match elements_of(roster) {
            Err(e) => vec![e],
            Ok(els) if els.is_empty() && !casualties_started => {
                vec!["A force needs an element.".into()]
            }
            Ok(_) => Vec::new(),
        }
    }

    fn shape(&self, roster: &RosterJson) -> Result<ForceShape, String> {
        let elements = elements_of(roster)?
            .iter()
            .map(|e| ElementRef {
                id: text(e, "id"),
                name: text(e, "name"),
                kind: "Element".into(),
                size: "whole".into(),
                size_label: "Whole".into(),
                rank: 0,
                upgrades: Vec::new(),
                points: None,
            })
            .collect();
        Ok(ForceShape {
            commander: None,
            groups: vec![GroupRef {
                id: "g1".into(),
                name: roster.name(),
                commander: None,
                elements,
            }],
        })
    }

    fn size_label(&self, size: &str) -> String {
        if size == "whole" {
            "Whole".into()
        } else {
            size.into()
        }
    }

    fn scouts(&self, _: &RosterJson) -> u32 {
        0
    }

    fn rate_commander(&self, dice: &mut Dice) -> (u8, String) {
        (dice.d6(), "Steady".into())
    }

    fn rating_words(&self, roll: u8) -> Option<String> {
        (1..=6).contains(&roll).then(|| "Steady".into())
    }

    fn reduce(&self, roster: &RosterJson, element: &str, rank: u8) -> Option<Reduction> {
        let known = elements_of(roster)
            .ok()?
            .iter()
            .any(|e| text(e, "id") == element);
        (known && rank == 0).then(|| Reduction {
            size: "whole".into(),
            dropped: Vec::new(),
            refund: 0,
        })
    }

    fn resize(
        &self,
        roster: &mut RosterJson,
        element: &str,
        size: &str,
        _: &[String],
    ) -> Result<String, String> {
        if size != "whole" {
            return Err(format!("unknown size {size}"));
        }
        if !elements_of(roster)?
            .iter()
            .any(|e| text(e, "id") == element)
        {
            return Err(format!("no element {element}"));
        }
        Ok("Whole".into())
    }

    fn remove_element(&self, roster: &mut RosterJson, element: &str) -> Result<String, String> {
        with_elements(roster, |els| {
            let i = els
                .iter()
                .position(|e| text(e, "id") == element)
                .ok_or_else(|| format!("no element {element}"))?;
            Ok(text(&els.remove(i), "name"))
        })
    }

    fn rename_commander(&self, _: &mut RosterJson, c: &str, _: &str) -> Result<(), String> {
        Err(format!("no commander {c}"))
    }

    fn purchase_menu(&self) -> PurchaseMenu {
        PurchaseMenu {
            element_types: vec![Choice {
                value: "element".into(),
                label: "Element".into(),
            }],
            ..PurchaseMenu::default()
        }
    }

    fn buy(
        &self,
        roster: &RosterJson,
        purchase: &Purchase,
        _: Option<&str>,
        id_taken: &dyn Fn(&str) -> bool,
    ) -> Result<Bought, FieldProblem> {
        let Purchase::Element { name, .. } = purchase else {
            return Err(FieldProblem::new(
                "element",
                "Nothing to restore or upgrade.",
            ));
        };
        let mut out = roster.clone();
        let id = with_elements(&mut out, |els| {
            let in_roster: BTreeSet<String> = els.iter().map(|e| text(e, "id")).collect();
            let id = fresh_id(&|c| id_taken(c) || in_roster.contains(c));
            els.push(json!({"id": id, "name": name}));
            Ok(id)
        })
        .map_err(|e| FieldProblem::new("roster", e))?;
        Ok(Bought {
            roster: out,
            what: format!("{name} joins"),
            element: None,
            joined: Some((id, "whole".into())),
        })
    }

    fn battle_setup(
        &self,
        _: SetupForce,
        _: SetupForce,
        _: &str,
        _: u32,
        _: u64,
    ) -> Result<BattleDoc, String> {
        Err("Counting forces do not fight.".into())
    }

    fn battle_report(&self, _: &str) -> Result<BattleReport, String> {
        Err("Counting forces do not fight.".into())
    }
}

/// The generic checks take a system whose elements come in one size and that prices nothing.
#[test]
fn the_checks_run_on_a_system_without_points() {
    let rosters = [
        counting_roster("Pickets", &["North picket", "South picket"]),
        RosterJson::from_value(&json!({"name": "Unnamed", "elements": [
            {"name": "First"}, {"id": "e1", "name": "Second"}, {"id": "e1", "name": "Third"}]})),
    ];
    rosters_survive_enlistment(&Counting, &rosters);
    assert_eq!(
        reductions_never_grow_a_force(&Counting, &rosters),
        0,
        "one size: nothing to reduce"
    );
}

/// An AWI campaign (no points: battles in bases) ends its turn without reinforcements and
/// its forces buy nothing; every brigadier's ability is kept (a given one) or rolled D6+2 at
/// enlistment, and the CinC has none (W-4).
#[test]
fn an_awi_campaign_has_no_reinforcements_and_keeps_its_brigadiers_abilities() {
    let systems = Systems::builtin().expect("the built-in data");
    let rules = systems
        .forces(SystemId::Awi)
        .expect("the AWI rules fight campaigns");
    assert_eq!(rules.battle_size().unit, "bases");
    let mut st = two_force_campaign(
        rules,
        [
            RosterJson::from_value(&awi_large()),
            rosters_of(&systems, SystemId::Awi).remove(0),
        ],
    );
    let ratings = &st.forces["f1"].ratings;
    assert_eq!(ratings.get("cinc-1"), Some(&0), "the CinC is not rated");
    assert_eq!(
        ratings.get("brigadier-1"),
        Some(&7),
        "a given ability is kept"
    );
    assert!(
        (3..=8).contains(&ratings["brigadier-2"]),
        "a missing one is rolled D6+2: {ratings:?}"
    );
    let ended = end_of_turn_one(rules, &mut st);
    assert_eq!(reinforced(&ended), Vec::<&str>::new(), "{ended:?}");
    fill_bank(rules, &mut st, 20);
    let first = shape(rules, &st.forces["f1"].roster)
        .elements()
        .next()
        .map(|e| e.id.clone())
        .expect("a unit");
    match purchase(&st, rules, "f1", &Purchase::Restore { element: first }) {
        Err(CampaignError::Refused(m)) => assert!(m.contains("nothing can be bought"), "{m}"),
        Err(CampaignError::Field(p)) => assert!(p.message.contains("buy nothing"), "{p:?}"),
        other => panic!("a purchase is refused: {other:?}"),
    }
}

/// Without a size measure, the end of a turn brings no reinforcement points and nothing can be
/// bought, even from a bank the organiser filled; Land of the Free, in the same place, is
/// reinforced and buys.
#[test]
fn a_system_without_a_size_measure_turns_purchases_off() {
    let systems = Systems::builtin().expect("the built-in data");

    // Counting forces.
    let counting: &dyn ForceRules = &Counting;
    let mut st = two_force_campaign(
        counting,
        [
            counting_roster("Crown pickets", &["Jägers", "Queen's Rangers"]),
            counting_roster("Congress pickets", &["Morgan's rifles"]),
        ],
    );
    let ended = end_of_turn_one(counting, &mut st);
    assert_eq!(
        reinforced(&ended),
        Vec::<&str>::new(),
        "no reinforcements: {ended:?}"
    );
    assert_eq!(st.forces["f1"].bank, 0);
    fill_bank(counting, &mut st, 20);
    let recruits = Purchase::Element {
        group: "g1".into(),
        name: "Recruits".into(),
        element_type: "element".into(),
        size: "whole".into(),
        weapon: None,
    };
    // The system itself would add the element: the refusal is the engine's.
    let f1 = &st.forces["f1"];
    assert!(counting
        .buy(&f1.roster, &recruits, None, &|id| f1
            .history
            .contains_key(id))
        .is_ok());
    match purchase(&st, counting, "f1", &recruits) {
        Err(CampaignError::Refused(m)) => assert!(m.contains("nothing can be bought"), "{m}"),
        other => panic!("a purchase is refused: {other:?}"),
    }

    // Land of the Free forces in the same campaign.
    let lotf = systems.forces(SystemId::Lotf).expect("Land of the Free");
    let mut st = two_force_campaign(
        lotf,
        [
            RosterJson::from_value(&lotf_line("Crown", "british")),
            RosterJson::from_value(&lotf_line("Congress", "american")),
        ],
    );
    let ended = end_of_turn_one(lotf, &mut st);
    assert_eq!(reinforced(&ended), ["f1", "f2"], "{ended:?}");
    assert!(st.forces["f1"].bank > 0);
    fill_bank(lotf, &mut st, 20);
    let first = shape(lotf, &st.forces["f1"].roster)
        .elements()
        .next()
        .map(|e| e.id.clone())
        .expect("an element");
    let elite = Purchase::Upgrade {
        element: first,
        upgrade: "elite".into(),
    };
    match purchase(&st, lotf, "f1", &elite) {
        Ok(Event::Purchased { cost, .. }) => assert_eq!(cost, 5),
        other => panic!("Land of the Free buys an upgrade: {other:?}"),
    }
}

/// A plain Land of the Free force, legal at 200 points.
fn lotf_line(name: &str, nation: &str) -> Value {
    let group = |g: &str| {
        json!({"name": g, "commander": {"name": format!("{name} {g}")}, "elements": (1..=3)
            .map(|i| json!({"name": format!("{name} {g} {i}"), "type": "infantry",
                            "size": "medium"}))
            .collect::<Vec<_>>()})
    };
    json!({"format": "muster.lotf.roster/1", "name": name, "war": "american_revolution",
           "nation": nation, "points_limit": 200, "force_commander": {"name": format!("{name} general")},
           "groups": [group("Left"), group("Right")]})
}
