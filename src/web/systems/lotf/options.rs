//! What the catalogue allows, as choices for forms, each with its cost.

use crate::rules::systems::lotf::{
    validate::sizes_for, Catalogue, ElementType, Mode, Nation, Size, Upgrade, War, Weapon,
};

/// One `<option>`: value, label, and for element choices the types and sizes it applies to
/// (the script hides the others; the server checks them anyway).
#[derive(Debug, Clone)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub types: String,
    pub sizes: String,
    /// For nations: the wars whose lists name it (the script offers only those for the war
    /// chosen; any pairing stays valid on the server).
    pub wars: String,
}

impl Choice {
    /// Whether this option is the current value (templates compare through this).
    pub fn selected(&self, current: &str) -> bool {
        self.value == current
    }
}

fn choice(value: &str, label: String) -> Choice {
    Choice {
        value: value.to_string(),
        label,
        types: String::new(),
        sizes: String::new(),
        wars: String::new(),
    }
}

fn signed(points: i32) -> String {
    if points >= 0 {
        format!("+{points}")
    } else {
        format!("−{}", points.abs())
    }
}

pub fn wars(cat: &Catalogue) -> Vec<Choice> {
    cat.wars()
        .iter()
        .map(|w| choice(w.id.id(), format!("{} ({})", w.name, w.years)))
        .collect()
}

pub fn nations(cat: &Catalogue) -> Vec<Choice> {
    cat.nations()
        .iter()
        .map(|n| Choice {
            wars: cat
                .wars()
                .iter()
                .filter(|w| w.nations.iter().any(|l| l.nation == n.id))
                .map(|w| w.id.id())
                .collect::<Vec<_>>()
                .join(" "),
            ..choice(n.id.id(), n.name.clone())
        })
        .collect()
}

pub fn modes() -> Vec<Choice> {
    vec![
        choice(
            Mode::Standard.id(),
            "Standard (points and organisation limits apply)".into(),
        ),
        choice(
            Mode::Historical.id(),
            "Historical (limits are only warnings)".into(),
        ),
    ]
}

pub fn types(cat: &Catalogue) -> Vec<Choice> {
    cat.element_types()
        .iter()
        .map(|t| choice(t.id.id(), t.name.clone()))
        .collect()
}

/// Sizes with the base points of each type, e.g. "Large (infantry 35, cavalry 45, artillery 40)".
pub fn sizes(cat: &Catalogue) -> Vec<Choice> {
    Size::ALL
        .iter()
        .map(|&size| {
            let costs: Vec<String> = cat
                .element_types()
                .iter()
                .filter_map(|t| {
                    cat.stats(t.id, size)
                        .map(|s| format!("{} {}", t.name.to_lowercase(), s.points))
                })
                .collect();
            let types: Vec<&str> = cat
                .element_types()
                .iter()
                .filter(|t| cat.stats(t.id, size).is_some())
                .map(|t| t.id.id())
                .collect();
            Choice {
                value: size.id().to_string(),
                label: format!("{} ({})", size.label(), costs.join(", ")),
                types: types.join(" "),
                sizes: String::new(),
                wars: String::new(),
            }
        })
        .collect()
}

/// Weapons: "" means the type's standard weapon.
pub fn weapons(cat: &Catalogue, war: War) -> Vec<Choice> {
    let mut out = vec![choice(
        "",
        "Standard for the type (musket, mixed arms or light gun)".into(),
    )];
    for w in cat.weapons() {
        if w.wars.as_ref().is_some_and(|ws| !ws.contains(&war)) {
            continue;
        }
        let types: Vec<&str> = cat
            .element_types()
            .iter()
            .filter(|t| t.weapons.contains(&w.id))
            .map(|t| t.id.id())
            .collect();
        let range = match w.min_range {
            Some(min) => format!("{min}–{}\"", w.range),
            None => format!("{}\"", w.range),
        };
        out.push(Choice {
            value: w.id.id().to_string(),
            label: format!("{} ({range}, {} pts)", w.name, signed(w.points)),
            types: types.join(" "),
            sizes: String::new(),
            wars: String::new(),
        });
    }
    out
}

/// Weapons of every war, for tools not tied to one (the odds calculator): a roster's element
/// keeps its weapon whatever its war.
pub fn all_weapons(cat: &Catalogue) -> Vec<Choice> {
    let mut out: Vec<Choice> = Vec::new();
    for war in cat.wars().iter().map(|w| w.id) {
        for c in weapons(cat, war) {
            if !out.iter().any(|o| o.value == c.value) {
                out.push(c);
            }
        }
    }
    out
}

/// Upgrade choices: none, each single upgrade, and the allowed combinations.
pub fn upgrades(cat: &Catalogue) -> Vec<Choice> {
    let mut out = vec![choice("", "No upgrade".into())];
    for u in cat.upgrades() {
        out.push(Choice {
            value: u.id.id().to_string(),
            label: format!("{} ({} pts)", u.name, signed(u.points)),
            types: u.types.iter().map(|t| t.id()).collect::<Vec<_>>().join(" "),
            sizes: u
                .sizes
                .as_ref()
                .map(|s| s.iter().map(|z| z.id()).collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            wars: String::new(),
        });
    }
    for combo in cat.upgrade_combinations() {
        let parts: Vec<_> = combo
            .upgrades
            .iter()
            .filter_map(|u| cat.upgrade(*u))
            .collect();
        if parts.len() != combo.upgrades.len() {
            continue;
        }
        let points: i32 = parts.iter().map(|p| p.points).sum();
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        let allowed_types: Vec<&str> = ElementType::ALL
            .iter()
            .filter(|t| parts.iter().all(|p| p.types.contains(t)))
            .map(|t| t.id())
            .collect();
        out.push(Choice {
            value: combo
                .upgrades
                .iter()
                .map(|u| u.id())
                .collect::<Vec<_>>()
                .join("+"),
            label: format!("{} ({} pts)", names.join(" + "), signed(points)),
            types: allowed_types.join(" "),
            sizes: String::new(),
            wars: String::new(),
        });
    }
    out
}

/// The select value of an element's upgrades: a combination in the catalogue's order, which
/// is the order [`upgrades`] offers it in, so a roster that lists the two the other way round
/// still finds its choice selected (and a form sent again keeps them).
pub fn upgrade_value(cat: &Catalogue, upgrades: &[Upgrade]) -> String {
    let ordered = cat
        .upgrade_combinations()
        .iter()
        .find(|c| {
            upgrades.len() > 1
                && c.upgrades.len() == upgrades.len()
                && c.upgrades.iter().all(|u| upgrades.contains(u))
        })
        .map_or(upgrades, |c| c.upgrades.as_slice());
    ordered.iter().map(|u| u.id()).collect::<Vec<_>>().join("+")
}

/// A valid element choice: type, size, weapon (None = the type's standard one), upgrades.
pub type ElementChoice = (ElementType, Size, Option<Weapon>, Vec<Upgrade>);
/// Problems with a choice: (field, message).
pub type ChoiceErrors = Vec<(&'static str, String)>;

/// Reads a type, size, weapon and upgrade choice, refusing what the catalogue does not allow
/// for that type and size. Points, caps and organisation are left to the validator.
pub fn check_element_choice(
    cat: &Catalogue,
    war: War,
    type_id: &str,
    size_id: &str,
    weapon_id: &str,
    upgrade_value: &str,
) -> Result<ElementChoice, ChoiceErrors> {
    let mut errors = Vec::new();
    let element_type = ElementType::from_id(type_id);
    if element_type.is_none() {
        errors.push(("type", "Choose infantry, cavalry or artillery.".to_string()));
    }
    let size = Size::from_id(size_id);
    if size.is_none() {
        errors.push(("size", "Choose a size.".to_string()));
    }
    let (Some(t), Some(size)) = (element_type, size) else {
        return Err(errors);
    };
    let type_name = cat
        .element_type(t)
        .map(|d| d.name.clone())
        .unwrap_or_default();
    if !sizes_for(cat, t).contains(&size) {
        let allowed: Vec<&str> = sizes_for(cat, t).iter().map(|s| s.label()).collect();
        errors.push((
            "size",
            format!(
                "{type_name} comes only {} (R-2).",
                allowed.join(", ").to_lowercase()
            ),
        ));
    }
    let weapon = match weapon_id {
        "" => None,
        id => match Weapon::from_id(id) {
            Some(w) if cat.element_type(t).is_some_and(|d| d.weapons.contains(&w)) => {
                if cat
                    .weapon(w)
                    .and_then(|d| d.wars.as_ref())
                    .is_some_and(|ws| !ws.contains(&war))
                {
                    errors.push((
                        "weapon",
                        format!("{} cannot be fielded in this war.", Weapon::label(w)),
                    ));
                }
                Some(w)
            }
            _ => {
                errors.push(("weapon", format!("{type_name} cannot carry that weapon.")));
                None
            }
        },
    };
    let mut upgrades = Vec::new();
    for part in upgrade_value.split('+').filter(|p| !p.is_empty()) {
        match Upgrade::from_id(part).and_then(|u| cat.upgrade(u)) {
            Some(u) if !u.types.contains(&t) => errors.push((
                "upgrade",
                format!(
                    "{} is not open to {} (R-7).",
                    u.name,
                    type_name.to_lowercase()
                ),
            )),
            Some(u) if u.sizes.as_ref().is_some_and(|s| !s.contains(&size)) => errors.push((
                "upgrade",
                format!(
                    "{} is not open to {} elements (R-7).",
                    u.name,
                    size.label().to_lowercase()
                ),
            )),
            Some(u) => upgrades.push(u.id),
            None => errors.push(("upgrade", "Choose an upgrade from the list.".to_string())),
        }
    }
    if upgrades.len() > 1
        && !cat.upgrade_combinations().iter().any(|c| {
            c.upgrades.len() == upgrades.len() && c.upgrades.iter().all(|u| upgrades.contains(u))
        })
    {
        errors.push((
            "upgrade",
            "Those upgrades cannot be combined (R-4).".to_string(),
        ));
    }
    if errors.is_empty() {
        Ok((t, size, weapon, upgrades))
    } else {
        Err(errors)
    }
}

pub fn parse_war(id: &str) -> Option<War> {
    War::from_id(id)
}

pub fn parse_nation(id: &str) -> Option<Nation> {
    Nation::from_id(id)
}

#[cfg(test)]
mod upgrade_value_tests {
    use super::*;

    #[test]
    fn a_pair_listed_the_other_way_round_still_matches_the_offered_choice() {
        let cat = Catalogue::builtin().expect("catalogue");
        let offered: Vec<String> = upgrades(&cat).into_iter().map(|c| c.value).collect();
        for pair in [
            [Upgrade::Grenadiers, Upgrade::Hessians],
            [Upgrade::Hessians, Upgrade::Grenadiers],
        ] {
            let value = upgrade_value(&cat, &pair);
            assert!(offered.contains(&value), "{value} is one of {offered:?}");
        }
        assert_eq!(upgrade_value(&cat, &[Upgrade::Elite]), "elite");
        assert_eq!(upgrade_value(&cat, &[]), "");
    }
}
