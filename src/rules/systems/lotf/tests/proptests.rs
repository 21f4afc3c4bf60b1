//! The validator, pricing, profile and parser never panic on any input.

use proptest::prelude::*;

use super::support::*;
use crate::rules::systems::lotf::*;

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    (0..all.len()).prop_map(move |i| all[i])
}

fn element() -> impl Strategy<Value = ElementDoc> {
    (
        pick(ElementType::ALL),
        pick(Size::ALL),
        proptest::option::of(pick(Weapon::ALL)),
        proptest::collection::vec(pick(Upgrade::ALL), 0..4),
        proptest::option::of("[a-z ]{0,12}"),
        proptest::option::of("[a-e0-9]{0,3}"),
        any::<bool>(),
        any::<bool>(),
        ".{0,10}",
    )
        .prop_map(|(t, s, w, ups, entry, id, sa, ga, name)| {
            let mut e = ElementDoc::new(&name, t, s);
            e.weapon = w;
            e.upgrades = ups;
            e.historical_entry = entry;
            e.id = id;
            e.size_assumed = sa;
            e.gun_class_assumed = ga;
            e
        })
}

fn roster_strategy() -> impl Strategy<Value = RosterDoc> {
    (
        pick(War::ALL),
        pick(Nation::ALL),
        proptest::option::of(0..=MAX_POINTS_LIMIT),
        pick(Mode::ALL),
        any::<bool>(),
        proptest::collection::vec(
            (any::<bool>(), proptest::collection::vec(element(), 0..9)),
            0..9,
        ),
        proptest::option::of("[a-z0-9.-]{0,12}"),
    )
        .prop_map(|(war, nation, limit, mode, fc, groups, version)| {
            let mut r = RosterDoc::new("random", war, nation, limit);
            r.mode = mode;
            r.catalogue_version = version;
            if !fc {
                r.force_commander = None;
            }
            r.groups = groups
                .into_iter()
                .map(|(has_cmd, elements)| GroupDoc {
                    id: None,
                    name: String::new(),
                    commander: has_cmd.then(CommanderDoc::default),
                    elements,
                })
                .collect();
            r
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn validate_never_panics_and_is_consistent(r in roster_strategy()) {
        let c = cat();
        let rep = validate(&c, &r);
        // legal means exactly: no error finding.
        prop_assert_eq!(rep.legal, rep.error_count() == 0);
        // The breakdown adds up.
        let sum: u64 = rep.points.by_element.iter().map(|e| u64::from(e.points)).sum();
        prop_assert_eq!(u64::from(rep.points.total), sum.min(u64::from(u32::MAX)));
        prop_assert_eq!(rep.points.by_element.len(), r.element_count());
        // Historical mode never reports organisation or points errors.
        if r.mode == Mode::Historical {
            for f in &rep.findings {
                if matches!(f.code, FindingCode::TooFewGroups | FindingCode::TooManyGroups
                    | FindingCode::TooFewElements | FindingCode::TooManyElements
                    | FindingCode::PointsOverLimit | FindingCode::UpgradeCapExceeded) {
                    prop_assert_eq!(f.severity, Severity::Warning);
                }
            }
        }
        // Every profile can be computed.
        for g in &r.groups {
            for e in &g.elements {
                let p = profile(&c, e);
                prop_assert_eq!(p.points, price_element(&c, e));
            }
        }
        // Serialises and round-trips through the parser.
        let json = serde_json::to_string(&r).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = parse_roster(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, r);
    }

    #[test]
    fn parse_roster_never_panics_on_arbitrary_text(s in ".{0,200}") {
        let _ = parse_roster(&s);
    }

    #[test]
    fn parse_roster_never_panics_on_damaged_documents(cut in 0usize..400, insert in ".{0,6}") {
        let good = plain_force(&[2, 3]).to_json_pretty();
        let mut at = cut.min(good.len());
        while !good.is_char_boundary(at) {
            at -= 1;
        }
        let damaged = format!("{}{}{}", &good[..at], insert, &good[at..]);
        if let Err(e) = parse_roster(&damaged) {
            prop_assert!(!e.message.is_empty());
        }
        let truncated = &good[..at];
        let _ = parse_roster(truncated);
    }

    #[test]
    fn assigned_ids_are_unique(r in roster_strategy()) {
        let mut r = r;
        r.assign_missing_ids();
        let rep = validate(&cat(), &r);
        prop_assert!(!rep.has(FindingCode::DuplicateId));
    }
}
