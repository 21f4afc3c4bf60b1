//! Derived element profiles.

use super::support::*;
use crate::rules::systems::lotf::*;
use Formation::{BattleLine, MarchColumn, OpenOrder};

fn prof(e: &ElementDoc) -> ElementProfile {
    profile(&cat(), e)
}

#[test]
fn plain_medium_infantry() {
    let p = prof(&inf("Line", Size::Medium));
    assert_eq!(
        (p.maneuver, p.combat, p.discipline, p.morale, p.action),
        (3, 3, 3, 7, 4)
    );
    assert_eq!(p.range.max, 12);
    assert_eq!(p.threat_zone, 12);
    assert_eq!(p.formations, vec![BattleLine, OpenOrder, MarchColumn]);
    assert_eq!(p.starting_discipline, DisciplineLevel::Fit);
    assert_eq!(p.points, 25);
    assert!(p.skills.is_empty());
}

#[test]
fn rifles_cost_a_maneuver_and_reach_18_with_an_18_threat_zone_r10() {
    let p = prof(&with_upgrades(
        inf("Riflemen", Size::Small),
        &[Upgrade::Riflemen],
    ));
    assert_eq!(p.maneuver, 2);
    assert_eq!(p.range.max, 18);
    assert_eq!(p.threat_zone, 18);
    assert_eq!(p.formations, vec![OpenOrder, MarchColumn]);
    assert!(p.rulings.contains(&"R-10".to_string()));
}

#[test]
fn rifled_musket_option_reaches_18_but_keeps_maneuver_and_threat_zone_r5() {
    let p = prof(&with_weapon(inf("x", Size::Medium), Weapon::Rifled));
    assert_eq!(p.maneuver, 3);
    assert_eq!(p.range.max, 18);
    assert_eq!(p.threat_zone, 12);
    assert_eq!(p.points, 30);
}

#[test]
fn german_ranks_cost_a_maneuver_r10() {
    let p = prof(&with_upgrades(
        inf("Musketeers", Size::Large),
        &[Upgrade::Hessians, Upgrade::Grenadiers],
    ));
    assert_eq!(p.maneuver, 2);
    assert!(p.formations.contains(&BattleLine));
    let ids: Vec<&str> = p.skills.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "german_ranks",
            "inspirational_charge",
            "carry_on",
            "vanguard"
        ]
    );
    assert_eq!(p.points, 45);
}

#[test]
fn self_preservation_starts_shaken_with_one_combat_order_fewer_r10_r19() {
    let p = prof(&with_upgrades(
        inf("Militia", Size::Large),
        &[Upgrade::Militia],
    ));
    assert_eq!(p.starting_discipline, DisciplineLevel::Shaken);
    assert_eq!(p.combat, 3);
    assert_eq!(p.combat_at_start, 2);
    assert_eq!(p.points, 30);
    // Militia keep Battle Line: they are not scouts.
    assert!(p.formations.contains(&BattleLine));
    // Cavalry militia: combat 2 becomes 1, never below 1.
    let c = prof(&with_upgrades(
        el("Mounted militia", ElementType::Cavalry, Size::Small),
        &[Upgrade::Militia],
    ));
    assert_eq!(c.combat_at_start, 1);
}

#[test]
fn additional_ranks_give_numbers_and_resilient_r10() {
    let p = prof(&with_upgrades(
        el("Guns", ElementType::Artillery, Size::Large),
        &[Upgrade::AdditionalRanks],
    ));
    assert_eq!(p.extra_dice, 2);
    assert_eq!(p.ignores_first_hits, 2);
    assert_eq!(p.action, 4);
    assert_eq!(p.range.max, 36);
}

#[test]
fn light_infantry_never_forms_battle_line_r9() {
    let p = prof(&with_upgrades(
        inf("Chasseurs", Size::Medium),
        &[Upgrade::LightInfantry],
    ));
    assert_eq!(p.formations, vec![OpenOrder, MarchColumn]);
    assert!(p.rulings.contains(&"R-9".to_string()));
}

#[test]
fn indians_have_mixed_weapons_range_and_limited_formations() {
    let p = prof(&with_upgrades(
        inf("Warriors", Size::Large),
        &[Upgrade::Indians],
    ));
    assert_eq!(p.range.max, 6);
    assert_eq!(p.range.source, "mixed_weapons");
    assert_eq!(p.formations, vec![OpenOrder, MarchColumn]);
    assert!(p.skills.iter().any(|s| s.id == "woodsmen"));
    assert!(p.skills.iter().any(|s| s.id == "wilderness_guides"));
}

#[test]
fn infantry_light_dragoons_stay_infantry_r7() {
    let p = prof(&with_upgrades(
        inf("Legion foot", Size::Small),
        &[Upgrade::LightDragoons],
    ));
    assert_eq!(p.element_type, ElementType::Infantry);
    assert_eq!(p.range.max, 6);
    assert_eq!(p.formations, vec![OpenOrder, MarchColumn]);
    assert!(p.notes.iter().any(|n| n.contains("never mount")));
}

#[test]
fn mounted_riflemen_shoot_at_18_m5() {
    let p = prof(&with_upgrades(
        el("Mounted riflemen", ElementType::Cavalry, Size::Medium),
        &[Upgrade::MilitiaRiflemen],
    ));
    assert_eq!(p.range.max, 18);
    assert_eq!(p.threat_zone, 18);
    assert_eq!(p.maneuver, 2);
    assert_eq!(p.starting_discipline, DisciplineLevel::Shaken);
}

#[test]
fn artillery_profile_uses_its_gun_class() {
    let mortar = prof(&with_weapon(
        el("Mortars", ElementType::Artillery, Size::Small),
        Weapon::SiegeMortar,
    ));
    assert_eq!((mortar.range.min, mortar.range.max), (Some(12), 36));
    assert_eq!(
        mortar.formations,
        vec![Formation::Unlimbered, Formation::Limbered]
    );
    let heavy = prof(&with_weapon(
        el("18 lb", ElementType::Artillery, Size::Medium),
        Weapon::HeavyGun,
    ));
    assert_eq!(heavy.range.max, 48);
}

#[test]
fn tiny_artillery_profile_is_marked_unknown_without_panicking() {
    let p = prof(&el("Swivel", ElementType::Artillery, Size::Tiny));
    assert!(!p.stats_known);
    assert_eq!(p.maneuver, 0);
}

#[test]
fn profile_serialises_skill_summaries() {
    let p = prof(&with_upgrades(
        inf("Rangers", Size::Medium),
        &[Upgrade::Rangers],
    ));
    let v = serde_json::to_value(&p).expect("serialises");
    assert_eq!(v["type"], "infantry");
    assert!(v["skills"][0]["summary"]
        .as_str()
        .map(|s| !s.is_empty())
        .unwrap_or(false));
}

/// The profile says which sizes the element may charge or counter-charge (R-28 as amended: a small
/// element only small or medium ones, never a tiny one), from the same rule the simulator uses.
#[test]
fn profile_lists_the_sizes_an_element_may_charge_r28() {
    let sizes = |e: &ElementDoc| {
        serde_json::to_value(prof(e)).expect("profile serialises")["may_charge"].clone()
    };
    assert_eq!(
        sizes(&inf("Light", Size::Small)),
        serde_json::json!(["small", "medium"])
    );
    assert_eq!(
        sizes(&el("Scouts", ElementType::Cavalry, Size::Tiny)),
        serde_json::json!(["tiny", "small"])
    );
    assert_eq!(
        sizes(&inf("Line", Size::Medium)),
        serde_json::json!(["tiny", "small", "medium", "large"])
    );
    assert_eq!(
        sizes(&el("Guns", ElementType::Artillery, Size::Large)),
        serde_json::json!([]),
        "artillery never charges"
    );
    let p = prof(&inf("Light", Size::Small));
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("R-28") && n.contains("tiny")),
        "{:?}",
        p.notes
    );
}
