//! Validator and pricing: the book's example forces, every upgrade
//! restriction, every cap, organisation limits and points limits.

use super::support::*;
use crate::rules::systems::lotf::*;
use ElementType::{Artillery, Cavalry, Infantry};
use Size::{Large, Medium, Small, Tiny};

fn assert_legal_at(r: &RosterDoc, expected_points: u32) {
    let report = validate(&cat(), r);
    assert_eq!(report.points.total, expected_points, "{:#?}", report.points);
    assert!(report.legal, "findings: {:#?}", report.findings);
    assert!(
        report.findings.is_empty(),
        "findings: {:#?}",
        report.findings
    );
}

// ---------------------------------------------------------------------------
// The six example forces of "Collecting Your Force", standard mode, no upgrades.

#[test]
fn example_1_fiw_indian_force_prices_145() {
    // The photo caption calls it a 150-point force; its 2 large + 3 medium
    // infantry elements add up to 145.
    let r = roster(
        War::FrenchIndianWar,
        Nation::French,
        145,
        vec![
            (
                "Etteleooat",
                vec![
                    inf("Algonquin Indians", Large),
                    inf("Algonquin Indians", Large),
                ],
            ),
            (
                "Mukki",
                vec![
                    inf("Algonquin Indians", Medium),
                    inf("Algonquin Indians", Medium),
                    inf("French Frontiersmen (Coureurs de Bois)", Medium),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 145);
}

#[test]
fn example_2_fiw_french_force_prices_160() {
    let r = roster(
        War::FrenchIndianWar,
        Nation::French,
        160,
        vec![
            (
                "Corleonne",
                vec![
                    inf("Bearn Regiment", Medium),
                    inf("Compagnies Franches de la Marine", Medium),
                ],
            ),
            (
                "Bonet",
                vec![
                    inf("La Sarre Regiment", Medium),
                    inf("Languedoc Regiment", Medium),
                ],
            ),
            (
                "Benoit",
                vec![
                    el("Royal Artillery", Artillery, Medium),
                    inf("French Frontiersmen", Large),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 160);
}

#[test]
fn example_3_fiw_british_force_prices_180() {
    let r = roster(
        War::FrenchIndianWar,
        Nation::British,
        180,
        vec![
            (
                "Gregory",
                vec![
                    inf("28th Regiment of Foot", Medium),
                    inf("58th Regiment of Foot", Medium),
                ],
            ),
            (
                "More",
                vec![
                    inf("Virginia militia", Large),
                    inf("Virginia militia", Large),
                ],
            ),
            (
                "Abernathy",
                vec![
                    el("Royal Artillery", Artillery, Medium),
                    inf("Converged Grenadier Battalion", Large),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 180);
}

#[test]
fn example_4_awi_british_force_prices_125() {
    let r = roster(
        War::AmericanRevolution,
        Nation::British,
        125,
        vec![
            (
                "Jacobs",
                vec![
                    inf("3rd Regiment of Foot", Medium),
                    inf("55th Regiment of Foot", Medium),
                ],
            ),
            (
                "von Stark",
                vec![
                    inf("4th Regiment of Foot", Medium),
                    inf("Hessians", Large),
                    inf("9th Regiment of Foot", Small),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 125);
}

#[test]
fn example_5_awi_british_force_of_four_large_prices_140() {
    let r = roster(
        War::AmericanRevolution,
        Nation::British,
        140,
        vec![
            (
                "Smith",
                vec![
                    inf("17th Regiment of Foot", Large),
                    inf("14th Regiment of Foot", Large),
                ],
            ),
            (
                "Anderson",
                vec![
                    inf("84th Regiment of Foot", Large),
                    inf("55th Regiment of Foot", Large),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 140);
}

#[test]
fn example_6_awi_american_force_prices_175() {
    let r = roster(
        War::AmericanRevolution,
        Nation::American,
        175,
        vec![
            (
                "Crane",
                vec![
                    inf("Virginia Continentals", Large),
                    inf("Pennsylvania Continentals", Large),
                    el("Virginia Continental artillery", Artillery, Medium),
                    inf("Maryland Continentals", Small),
                ],
            ),
            (
                "Whitewater",
                vec![
                    inf("South Carolina militia", Large),
                    el("3rd Continental Light Dragoons", Cavalry, Medium),
                ],
            ),
        ],
    );
    assert_legal_at(&r, 175);
}

// ---------------------------------------------------------------------------
// Pricing details.

#[test]
fn rifled_musket_adds_five_and_upgrades_add_to_the_smoothbore_price() {
    let c = cat();
    assert_eq!(price_element(&c, &inf("a", Medium)), 25);
    assert_eq!(
        price_element(&c, &with_weapon(inf("a", Medium), Weapon::Rifled)),
        30
    );
    // upgrade on top of smoothbore price, rifled pays its +5 as well.
    let e = with_weapon(
        with_upgrades(inf("a", Medium), &[Upgrade::Elite]),
        Weapon::Rifled,
    );
    assert_eq!(price_element(&c, &e), 35);
    assert_eq!(
        price_element(
            &c,
            &with_upgrades(inf("a", Large), &[Upgrade::AdditionalRanks])
        ),
        45
    );
    assert_eq!(
        price_element(&c, &with_upgrades(inf("a", Medium), &[Upgrade::Riflemen])),
        35
    );
    assert_eq!(price_element(&c, &el("guns", Artillery, Large)), 30);
    assert_eq!(price_element(&c, &el("horse", Cavalry, Large)), 45);
}

#[test]
fn tiny_militia_costs_five_points_r8() {
    let c = cat();
    let e = with_upgrades(inf("Frontier Militia", Tiny), &[Upgrade::Militia]);
    assert_eq!(price_element(&c, &e), 5);
    let small = with_upgrades(inf("Frontier Militia", Small), &[Upgrade::Militia]);
    assert_eq!(price_element(&c, &small), 10);
}

#[test]
fn no_element_costs_less_than_zero_r8() {
    // A modified catalogue where Militia is -50: the element floors at 0.
    let c = cat();
    let mut v: serde_json::Value = serde_json::from_str(&c.to_json()).expect("json");
    for u in v["upgrades"].as_array_mut().expect("upgrades") {
        if u["id"] == "militia" {
            u["points"] = serde_json::json!(-50);
        }
    }
    let cheap = Catalogue::from_json(&v.to_string()).expect("modified catalogue is consistent");
    let e = with_upgrades(inf("Frontier Militia", Tiny), &[Upgrade::Militia]);
    assert_eq!(price_element(&cheap, &e), 0);
}

#[test]
fn points_are_broken_down_by_group_and_element() {
    let r = roster(
        War::AmericanRevolution,
        Nation::American,
        200,
        vec![
            ("Crane", vec![inf("A", Large), el("B", Artillery, Medium)]),
            (
                "Whitewater",
                vec![inf("C", Small), el("D", Cavalry, Medium)],
            ),
        ],
    );
    let rep = validate(&cat(), &r);
    let groups: Vec<u32> = rep.points.by_group.iter().map(|g| g.points).collect();
    assert_eq!(groups, vec![60, 45]);
    assert_eq!(rep.points.by_group[1].name, "Whitewater");
    assert_eq!(rep.points.by_element.len(), 4);
    assert_eq!(rep.points.by_element[3].path, "groups[1].elements[1]");
    assert_eq!(rep.points.by_element[3].points, 30);
    assert_eq!(rep.points.total, 105);
    assert_eq!(rep.points.limit, Some(200));
}

// ---------------------------------------------------------------------------
// Points limits.

#[test]
fn points_exactly_at_the_limit_are_legal() {
    let mut r = plain_force(&[2, 2]);
    r.points_limit = Some(100);
    let rep = validate(&cat(), &r);
    assert_eq!(rep.points.total, 100);
    assert!(rep.legal, "{:#?}", rep.findings);
}

#[test]
fn one_point_over_the_limit_is_an_error_naming_the_numbers() {
    let mut r = plain_force(&[2, 2]);
    r.points_limit = Some(99);
    let rep = validate(&cat(), &r);
    assert!(!rep.legal);
    let f = rep.with_code(FindingCode::PointsOverLimit);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Error);
    assert!(f[0].message.contains("100 points"), "{}", f[0].message);
    assert!(f[0].message.contains("limit is 99"), "{}", f[0].message);
    assert!(f[0].message.contains("1 over"), "{}", f[0].message);
}

#[test]
fn a_standard_roster_without_a_limit_is_an_error() {
    let mut r = plain_force(&[2, 2]);
    r.points_limit = None;
    let rep = validate(&cat(), &r);
    assert!(rep.has(FindingCode::PointsLimitMissing));
    assert!(!rep.legal);
}

// ---------------------------------------------------------------------------
// Organisation.

#[test]
fn one_group_is_too_few_and_two_are_enough() {
    let rep = validate(&cat(), &plain_force(&[3]));
    let f = rep.with_code(FindingCode::TooFewGroups);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Error);
    assert!(f[0].message.contains("1 group;"), "{}", f[0].message);
    assert!(validate(&cat(), &plain_force(&[2, 2])).legal);
}

#[test]
fn seven_groups_are_too_many_and_six_are_fine() {
    let rep = validate(&cat(), &plain_force(&[2; 7]));
    let f = rep.with_code(FindingCode::TooManyGroups);
    assert_eq!(f.len(), 1);
    assert!(f[0].message.contains("7 groups"), "{}", f[0].message);
    assert!(!rep.legal);
    assert!(validate(&cat(), &plain_force(&[2; 6])).legal);
}

#[test]
fn a_group_of_one_element_is_too_small() {
    let rep = validate(&cat(), &plain_force(&[2, 1]));
    let f = rep.with_code(FindingCode::TooFewElements);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].path, "groups[1]");
    assert!(f[0].message.contains("1 element;"), "{}", f[0].message);
    assert!(!rep.legal);
}

#[test]
fn a_group_of_seven_elements_is_too_big_and_six_is_fine() {
    let rep = validate(&cat(), &plain_force(&[7, 2]));
    let f = rep.with_code(FindingCode::TooManyElements);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].path, "groups[0]");
    assert!(f[0].message.contains("7 elements"), "{}", f[0].message);
    assert!(validate(&cat(), &plain_force(&[6, 2])).legal);
}

#[test]
fn missing_commanders_are_reported() {
    let mut r = plain_force(&[2, 2]);
    r.force_commander = None;
    r.groups[1].commander = None;
    let rep = validate(&cat(), &r);
    assert!(rep.has(FindingCode::MissingForceCommander));
    let g = rep.with_code(FindingCode::MissingGroupCommander);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].path, "groups[1].commander");
    assert!(!rep.legal);
}

#[test]
fn historical_mode_turns_organisation_and_points_into_warnings() {
    let mut r = plain_force(&[1, 7, 2, 2, 2, 2, 2]);
    r.points_limit = Some(10);
    r.force_commander = None;
    r.groups[0]
        .elements
        .push(with_upgrades(inf("e", Medium), &[Upgrade::Elite]));
    r.groups[0]
        .elements
        .push(with_upgrades(inf("e", Medium), &[Upgrade::Elite]));
    r.groups[2].elements[0].upgrades = vec![Upgrade::Elite];
    let standard = validate(&cat(), &r);
    for code in [
        FindingCode::TooManyGroups,
        FindingCode::TooManyElements,
        FindingCode::PointsOverLimit,
        FindingCode::MissingForceCommander,
    ] {
        assert_eq!(
            standard.with_code(code)[0].severity,
            Severity::Error,
            "{code}"
        );
    }
    r.mode = Mode::Historical;
    let hist = validate(&cat(), &r);
    assert!(hist.legal, "{:#?}", hist.findings);
    assert!(hist
        .findings
        .iter()
        .all(|f| f.severity == Severity::Warning));
    assert!(hist.has(FindingCode::TooManyGroups));
    assert!(hist.has(FindingCode::PointsOverLimit));
}

#[test]
fn historical_mode_keeps_element_legality_as_errors() {
    let mut r = plain_force(&[2, 2]);
    r.mode = Mode::Historical;
    r.groups[0].elements[0] = el("guns", Artillery, Tiny);
    r.groups[0].elements[1] = with_upgrades(el("horse", Cavalry, Medium), &[Upgrade::Grenadiers]);
    let rep = validate(&cat(), &r);
    assert!(!rep.legal);
    assert_eq!(
        rep.with_code(FindingCode::SizeNotAllowedForType)[0].severity,
        Severity::Error
    );
    assert_eq!(
        rep.with_code(FindingCode::UpgradeNotAllowedForType)[0].severity,
        Severity::Error
    );
}

#[test]
fn historical_mode_with_limit_zero_or_none_has_no_points_finding_m2() {
    let mut r = plain_force(&[2, 2]);
    r.mode = Mode::Historical;
    r.points_limit = Some(0);
    assert!(validate(&cat(), &r).findings.is_empty());
    r.points_limit = None;
    assert!(validate(&cat(), &r).findings.is_empty());
}

// ---------------------------------------------------------------------------
// Sizes and weapons.

#[test]
fn tiny_artillery_is_an_error() {
    let mut r = plain_force(&[2, 2]);
    r.groups[1].elements[0] = el("Swivel guns", Artillery, Tiny);
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::SizeNotAllowedForType);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].path, "groups[1].elements[0]");
    assert!(
        f[0].message.contains("small, medium or large"),
        "{}",
        f[0].message
    );
    assert!(!rep.legal);
}

#[test]
fn every_type_takes_only_its_weapons() {
    let c = cat();
    let allowed = [
        (Infantry, vec![Weapon::Smoothbore, Weapon::Rifled]),
        (Cavalry, vec![Weapon::Mixed]),
        (
            Artillery,
            vec![
                Weapon::LightGun,
                Weapon::HeavyGun,
                Weapon::SiegeMortar,
                Weapon::Rockets,
            ],
        ),
    ];
    for (t, ok) in allowed {
        for w in Weapon::ALL {
            let mut r = plain_force(&[2, 2]);
            r.war = War::WarOf1812;
            r.nation = Nation::American;
            r.groups[0].elements[0] = with_weapon(el("x", t, Medium), *w);
            let rep = validate(&c, &r);
            assert_eq!(
                rep.has(FindingCode::WeaponNotAllowedForType),
                !ok.contains(w),
                "{t} with {w}: {:#?}",
                rep.findings
            );
        }
    }
}

#[test]
fn rockets_outside_the_war_of_1812_are_an_error() {
    for war in [
        War::FrenchIndianWar,
        War::AmericanRevolution,
        War::NorthwestIndianWar,
    ] {
        let mut r = plain_force(&[2, 2]);
        r.war = war;
        r.nation = Nation::British;
        r.groups[0].elements[0] =
            with_weapon(el("Rocket troop", Artillery, Small), Weapon::Rockets);
        let rep = validate(&cat(), &r);
        let f = rep.with_code(FindingCode::RocketsOutsideWarOf1812);
        assert_eq!(f.len(), 1, "{war}");
        assert!(f[0].message.contains("War of 1812"));
        assert!(!rep.legal);
    }
    let mut r = plain_force(&[2, 2]);
    r.war = War::WarOf1812;
    r.groups[0].elements[0] = with_weapon(el("Rocket troop", Artillery, Small), Weapon::Rockets);
    let rep = validate(&cat(), &r);
    assert!(rep.legal, "{:#?}", rep.findings);
}

// ---------------------------------------------------------------------------
// Every upgrade's restrictions, checked against the quick-reference
// table written out here independently of the data files.

fn book_types(u: Upgrade) -> Vec<ElementType> {
    use Upgrade::*;
    match u {
        AdditionalRanks => vec![Infantry, Cavalry, Artillery],
        Dragoons => vec![Cavalry],
        Elite | Grenadiers | Hessians | Indians | LightInfantry | Minutemen | Rangers => {
            vec![Infantry]
        }
        LightDragoons | Militia | MilitiaRiflemen | Riflemen => vec![Infantry, Cavalry],
    }
}

#[test]
fn every_upgrade_is_allowed_exactly_for_its_types_and_sizes() {
    let c = cat();
    for u in Upgrade::ALL {
        for t in ElementType::ALL {
            for s in Size::ALL {
                if *t == Artillery && *s == Tiny {
                    continue;
                }
                // 8 elements: room for 2 of any capped upgrade.
                let mut r = plain_force(&[4, 4]);
                r.groups[0].elements[0] = with_upgrades(el("tested", *t, *s), &[*u]);
                let rep = validate(&c, &r);
                let type_ok = book_types(*u).contains(t);
                let size_ok = *u != Upgrade::AdditionalRanks || *s == Large;
                assert_eq!(
                    rep.has(FindingCode::UpgradeNotAllowedForType),
                    !type_ok,
                    "{u} on {s} {t}: {:#?}",
                    rep.findings
                );
                assert_eq!(
                    rep.has(FindingCode::UpgradeNotAllowedForSize),
                    !size_ok,
                    "{u} on {s} {t}: {:#?}",
                    rep.findings
                );
                assert_eq!(
                    rep.legal,
                    type_ok && size_ok,
                    "{u} on {s} {t}: {:#?}",
                    rep.findings
                );
            }
        }
    }
}

#[test]
fn upgrade_type_message_names_the_upgrade_and_types() {
    let mut r = plain_force(&[2, 2]);
    r.groups[0].elements[1] = with_upgrades(el("Lancers", Cavalry, Medium), &[Upgrade::Grenadiers]);
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::UpgradeNotAllowedForType);
    assert_eq!(f[0].path, "groups[0].elements[1]");
    assert!(f[0].message.contains("Lancers"));
    assert!(
        f[0].message
            .contains("Grenadiers is for infantry elements only"),
        "{}",
        f[0].message
    );
}

#[test]
fn additional_ranks_on_large_artillery_is_legal() {
    let mut r = plain_force(&[2, 2]);
    r.groups[0].elements[0] = with_upgrades(
        el("Grand battery", Artillery, Large),
        &[Upgrade::AdditionalRanks],
    );
    let rep = validate(&cat(), &r);
    assert!(rep.legal, "{:#?}", rep.findings);
    assert_eq!(rep.points.by_element[0].points, 40);
}

// ---------------------------------------------------------------------------
// One upgrade per element, Hessians with Grenadiers.

#[test]
fn two_upgrades_are_too_many() {
    let mut r = plain_force(&[4, 4]);
    r.groups[0].elements[0] =
        with_upgrades(inf("x", Medium), &[Upgrade::Elite, Upgrade::Grenadiers]);
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::TooManyUpgrades);
    assert_eq!(f.len(), 1);
    assert!(
        f[0].message.contains("2 upgrades (Elite, Grenadiers)"),
        "{}",
        f[0].message
    );
    assert!(!rep.legal);
}

#[test]
fn hessian_grenadiers_are_the_one_allowed_pair_at_ten_points() {
    for pair in [
        [Upgrade::Hessians, Upgrade::Grenadiers],
        [Upgrade::Grenadiers, Upgrade::Hessians],
    ] {
        let mut r = plain_force(&[4, 4]);
        r.groups[0].elements[0] = with_upgrades(inf("Hessian Grenadiers", Medium), &pair);
        let rep = validate(&cat(), &r);
        assert!(rep.legal, "{:#?}", rep.findings);
        assert_eq!(rep.points.by_element[0].points, 35);
    }
    // Hessians with anything else is still too many.
    let mut r = plain_force(&[4, 4]);
    r.groups[0].elements[0] = with_upgrades(inf("x", Medium), &[Upgrade::Hessians, Upgrade::Elite]);
    assert!(validate(&cat(), &r).has(FindingCode::TooManyUpgrades));
    // And three upgrades including the pair are too many.
    r.groups[0].elements[0] = with_upgrades(
        inf("x", Medium),
        &[Upgrade::Hessians, Upgrade::Grenadiers, Upgrade::Elite],
    );
    assert!(validate(&cat(), &r).has(FindingCode::TooManyUpgrades));
}

#[test]
fn hessian_grenadiers_count_against_the_grenadiers_cap() {
    // 8 elements allow 2 Grenadiers; two Hessian Grenadiers plus one plain.
    let mut r = plain_force(&[4, 4]);
    r.groups[0].elements[0] = with_upgrades(
        inf("HG1", Medium),
        &[Upgrade::Hessians, Upgrade::Grenadiers],
    );
    r.groups[0].elements[1] = with_upgrades(
        inf("HG2", Medium),
        &[Upgrade::Hessians, Upgrade::Grenadiers],
    );
    assert!(validate(&cat(), &r).legal);
    r.groups[1].elements[0] = with_upgrades(inf("G", Medium), &[Upgrade::Grenadiers]);
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::UpgradeCapExceeded);
    assert_eq!(f.len(), 1);
    assert!(
        f[0].message
            .contains("3 elements have Grenadiers; a force of 8 elements allows 2"),
        "{}",
        f[0].message
    );
    assert_eq!(f[0].path, "groups[1].elements[0]");
    // Hessians themselves are not capped.
    let mut all_hessian = plain_force(&[4, 4]);
    for g in &mut all_hessian.groups {
        for e in &mut g.elements {
            e.upgrades = vec![Upgrade::Hessians];
        }
    }
    assert!(validate(&cat(), &all_hessian).legal);
}

#[test]
fn a_repeated_upgrade_is_an_error_and_priced_once_m3() {
    let mut r = plain_force(&[2, 2]);
    r.groups[0].elements[0] = with_upgrades(inf("x", Medium), &[Upgrade::Elite, Upgrade::Elite]);
    let rep = validate(&cat(), &r);
    assert!(rep.has(FindingCode::DuplicateUpgrade));
    assert!(!rep.has(FindingCode::TooManyUpgrades));
    assert_eq!(rep.points.by_element[0].points, 30);
}

// ---------------------------------------------------------------------------
// Caps at force sizes 4, 7, 8, 9 and 24.

fn force_of(n: usize) -> RosterDoc {
    match n {
        4 => plain_force(&[2, 2]),
        7 => plain_force(&[3, 4]),
        8 => plain_force(&[4, 4]),
        9 => plain_force(&[3, 3, 3]),
        24 => plain_force(&[6, 6, 6, 6]),
        _ => unreachable!("test sizes only"),
    }
}

fn give(r: &mut RosterDoc, u: Upgrade, k: usize) {
    let mut left = k;
    for g in &mut r.groups {
        for e in &mut g.elements {
            if left > 0 {
                e.upgrades = vec![u];
                left -= 1;
            }
        }
    }
}

#[test]
fn every_cap_at_force_sizes_4_7_8_9_and_24() {
    let c = cat();
    let capped = [
        Upgrade::Elite,
        Upgrade::Grenadiers,
        Upgrade::MilitiaRiflemen,
        Upgrade::Minutemen,
        Upgrade::Riflemen,
    ];
    for (n, allowed) in [(4, 1), (7, 1), (8, 2), (9, 2), (24, 6)] {
        for u in capped {
            let mut at = force_of(n);
            assert_eq!(at.element_count(), n);
            give(&mut at, u, allowed);
            let rep = validate(&c, &at);
            assert!(rep.legal, "{u} x{allowed} in {n}: {:#?}", rep.findings);

            let mut over = force_of(n);
            give(&mut over, u, allowed + 1);
            let rep = validate(&c, &over);
            let f = rep.with_code(FindingCode::UpgradeCapExceeded);
            assert_eq!(f.len(), 1, "{u} x{} in {n}", allowed + 1);
            assert_eq!(f[0].severity, Severity::Error);
            let name = c.upgrade(u).map(|d| d.name.clone()).unwrap_or_default();
            let expected = format!(
                "{} elements have {name}; a force of {n} elements allows {allowed}",
                allowed + 1
            );
            assert!(
                f[0].message.contains(&expected),
                "{} / {expected}",
                f[0].message
            );
            assert!(!rep.legal);
        }
    }
}

#[test]
fn caps_are_counted_per_upgrade_not_together() {
    // 8 elements: 2 Elite and 2 Grenadiers and 2 Riflemen are all fine.
    let mut r = plain_force(&[4, 4]);
    r.groups[0].elements[0].upgrades = vec![Upgrade::Elite];
    r.groups[0].elements[1].upgrades = vec![Upgrade::Elite];
    r.groups[0].elements[2].upgrades = vec![Upgrade::Grenadiers];
    r.groups[0].elements[3].upgrades = vec![Upgrade::Grenadiers];
    r.groups[1].elements[0].upgrades = vec![Upgrade::Riflemen];
    r.groups[1].elements[1].upgrades = vec![Upgrade::Riflemen];
    let rep = validate(&cat(), &r);
    assert!(rep.legal, "{:#?}", rep.findings);
}

#[test]
fn uncapped_upgrades_may_fill_the_force() {
    for u in [
        Upgrade::LightInfantry,
        Upgrade::Rangers,
        Upgrade::Militia,
        Upgrade::Indians,
        Upgrade::Hessians,
    ] {
        let mut r = force_of(4);
        give(&mut r, u, 4);
        let rep = validate(&cat(), &r);
        assert!(!rep.has(FindingCode::UpgradeCapExceeded), "{u}");
    }
}

#[test]
fn caps_are_warnings_in_historical_mode_m1() {
    let mut r = force_of(4);
    give(&mut r, Upgrade::Elite, 3);
    r.mode = Mode::Historical;
    let rep = validate(&cat(), &r);
    assert_eq!(
        rep.with_code(FindingCode::UpgradeCapExceeded)[0].severity,
        Severity::Warning
    );
    assert!(rep.legal);
}

// ---------------------------------------------------------------------------
// R-5 in both its forms.

#[test]
fn rifled_musket_with_an_upgrade_that_grants_rifles_is_an_error() {
    for u in [Upgrade::Riflemen, Upgrade::MilitiaRiflemen] {
        let mut r = plain_force(&[4, 4]);
        r.groups[0].elements[0] =
            with_weapon(with_upgrades(inf("Jaegers", Medium), &[u]), Weapon::Rifled);
        let rep = validate(&cat(), &r);
        let f = rep.with_code(FindingCode::RifledWithRiflesUpgrade);
        assert_eq!(f.len(), 1, "{u}");
        assert!(!rep.has(FindingCode::RifledWithMixedWeaponsUpgrade));
        assert!(!rep.legal);
    }
}

#[test]
fn rifled_musket_with_an_upgrade_that_grants_mixed_weapons_is_an_error() {
    for u in [Upgrade::Indians, Upgrade::LightDragoons] {
        let mut r = plain_force(&[4, 4]);
        r.groups[0].elements[0] =
            with_weapon(with_upgrades(inf("Scouts", Medium), &[u]), Weapon::Rifled);
        let rep = validate(&cat(), &r);
        let f = rep.with_code(FindingCode::RifledWithMixedWeaponsUpgrade);
        assert_eq!(f.len(), 1, "{u}");
        assert!(f[0].message.contains("6\""), "{}", f[0].message);
        assert!(!rep.has(FindingCode::RifledWithRiflesUpgrade));
        assert!(!rep.legal);
    }
}

#[test]
fn rifled_musket_combines_with_other_upgrades() {
    for u in [
        Upgrade::Elite,
        Upgrade::Grenadiers,
        Upgrade::Hessians,
        Upgrade::LightInfantry,
        Upgrade::Militia,
        Upgrade::Minutemen,
        Upgrade::Rangers,
    ] {
        let mut r = plain_force(&[4, 4]);
        r.groups[0].elements[0] =
            with_weapon(with_upgrades(inf("x", Medium), &[u]), Weapon::Rifled);
        let rep = validate(&cat(), &r);
        assert!(rep.legal, "{u}: {:#?}", rep.findings);
    }
}

// ---------------------------------------------------------------------------
// Nations, historical entries, R-25/R-26 flags, ids.

#[test]
fn a_nation_outside_the_war_is_only_a_warning() {
    let mut r = plain_force(&[2, 2]);
    r.war = War::FrenchIndianWar;
    r.nation = Nation::Hessian;
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::NationNotInWar);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(
        f[0].message.contains("British or French"),
        "{}",
        f[0].message
    );
    assert!(rep.legal);
    r.war = War::AmericanRevolution;
    assert!(!validate(&cat(), &r).has(FindingCode::NationNotInWar));
}

#[test]
fn historical_entries_are_looked_up_by_id_or_name() {
    let mut r = plain_force(&[2, 2]);
    r.groups[0].elements[0].historical_entry = Some("british_grenadiers".into());
    r.groups[0].elements[1].historical_entry = Some("Queen's Rangers".into());
    // An ally's entry in the same war is known too (M-7).
    r.groups[1].elements[0].historical_entry = Some("hessian_musketeers".into());
    let rep = validate(&cat(), &r);
    assert!(rep.findings.is_empty(), "{:#?}", rep.findings);

    r.groups[1].elements[1].historical_entry = Some("Zouaves".into());
    r.groups[1].elements[0].historical_entry = Some("british_artillery".into());
    let rep = validate(&cat(), &r);
    let unknown = rep.with_code(FindingCode::HistoricalEntryUnknown);
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].severity, Severity::Warning);
    assert_eq!(unknown[0].path, "groups[1].elements[1]");
    let mismatch = rep.with_code(FindingCode::HistoricalEntryTypeMismatch);
    assert_eq!(mismatch.len(), 1);
    assert!(rep.legal);
}

#[test]
fn assumed_sizes_and_gun_classes_warn_r25_r26() {
    let mut r = plain_force(&[2, 2]);
    r.mode = Mode::Historical;
    r.groups[0].elements[0].size_assumed = true;
    let mut guns = el("Howitzer battery", Artillery, Small);
    guns.gun_class_assumed = true;
    r.groups[1].elements[0] = guns;
    let rep = validate(&cat(), &r);
    assert_eq!(rep.with_code(FindingCode::SizeAssumed).len(), 1);
    let g = rep.with_code(FindingCode::GunClassAssumed);
    assert_eq!(g.len(), 1);
    assert!(g[0].message.contains("light gun"), "{}", g[0].message);
    assert!(rep.legal);
}

#[test]
fn an_artillery_company_listed_as_infantry_loads_with_a_warning_r25() {
    let mut r = plain_force(&[2, 2]);
    r.mode = Mode::Historical;
    r.groups[0].elements[0].name = "2nd Company, State Artillery".into();
    let rep = validate(&cat(), &r);
    assert_eq!(rep.with_code(FindingCode::TypeDiffersFromName).len(), 1);
    assert!(rep.legal);
}

#[test]
fn duplicate_ids_warn() {
    let mut r = plain_force(&[2, 2]);
    r.groups[0].elements[0].id = Some("e1".into());
    r.groups[1].elements[1].id = Some("e1".into());
    let rep = validate(&cat(), &r);
    let f = rep.with_code(FindingCode::DuplicateId);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].path, "groups[1].elements[1]");
    r.assign_missing_ids();
    assert!(!validate(&cat(), &r).has(FindingCode::DuplicateId));
}

#[test]
fn an_old_catalogue_version_warns() {
    let mut r = plain_force(&[2, 2]);
    r.catalogue_version = Some("lotf-1999.1".into());
    let rep = validate(&cat(), &r);
    assert!(rep.has(FindingCode::CatalogueVersionMismatch));
    assert!(rep.legal);
    r.catalogue_version = Some(cat().version().to_string());
    assert!(validate(&cat(), &r).findings.is_empty());
}

#[test]
fn every_finding_is_reported_at_once() {
    let mut r = plain_force(&[1]);
    r.points_limit = Some(1);
    r.groups[0].elements[0] = with_upgrades(el("guns", Artillery, Tiny), &[Upgrade::Elite]);
    let rep = validate(&cat(), &r);
    let c = codes(&rep);
    for code in [
        "too_few_groups",
        "too_few_elements",
        "size_not_allowed_for_type",
        "upgrade_not_allowed_for_type",
        "points_over_limit",
    ] {
        assert!(c.contains(&code), "{code} missing from {c:?}");
    }
}

#[test]
fn report_serialises_to_the_documented_shape() {
    let mut r = plain_force(&[2, 2]);
    r.points_limit = Some(99);
    let v = serde_json::to_value(validate(&cat(), &r)).expect("serialises");
    assert_eq!(v["legal"], false);
    assert_eq!(v["points"]["total"], 100);
    assert_eq!(v["points"]["limit"], 99);
    assert_eq!(v["points"]["by_group"][0]["points"], 50);
    assert_eq!(
        v["points"]["by_element"][0]["path"],
        "groups[0].elements[0]"
    );
    assert_eq!(v["findings"][0]["code"], "points_over_limit");
    assert_eq!(v["findings"][0]["severity"], "error");
    assert_eq!(v["findings"][0]["path"], "points_limit");
}
