//! Builders shared by the tests.

use crate::rules::systems::lotf::*;

pub fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue loads")
}

pub fn el(name: &str, t: ElementType, s: Size) -> ElementDoc {
    ElementDoc::new(name, t, s)
}

pub fn inf(name: &str, s: Size) -> ElementDoc {
    el(name, ElementType::Infantry, s)
}

pub fn with_upgrades(mut e: ElementDoc, ups: &[Upgrade]) -> ElementDoc {
    e.upgrades = ups.to_vec();
    e
}

pub fn with_weapon(mut e: ElementDoc, w: Weapon) -> ElementDoc {
    e.weapon = Some(w);
    e
}

/// A standard-mode roster with named group commanders.
pub fn roster(
    war: War,
    nation: Nation,
    limit: u32,
    groups: Vec<(&str, Vec<ElementDoc>)>,
) -> RosterDoc {
    let mut r = RosterDoc::new("test force", war, nation, Some(limit));
    r.force_commander = Some(CommanderDoc {
        id: None,
        name: "Force Commander".into(),
    });
    r.groups = groups
        .into_iter()
        .map(|(cmd, elements)| GroupDoc {
            id: None,
            name: String::new(),
            commander: Some(CommanderDoc {
                id: None,
                name: cmd.to_string(),
            }),
            elements,
        })
        .collect();
    r
}

/// A legal frame: groups of plain medium infantry with the given sizes.
pub fn plain_force(group_sizes: &[usize]) -> RosterDoc {
    let groups = group_sizes
        .iter()
        .enumerate()
        .map(|(gi, n)| {
            let elements = (0..*n)
                .map(|ei| inf(&format!("Regiment {}-{}", gi + 1, ei + 1), Size::Medium))
                .collect();
            ("Colonel", elements)
        })
        .collect();
    roster(War::AmericanRevolution, Nation::British, 10_000, groups)
}

pub fn codes(r: &Report) -> Vec<&'static str> {
    r.findings.iter().map(|f| f.code.as_str()).collect()
}
