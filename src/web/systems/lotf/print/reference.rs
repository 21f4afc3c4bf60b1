//! The Land of the Free quick-reference sheet, drawn entirely from the catalogue.

use crate::rules::systems::lotf::combat::charges;
use crate::rules::systems::lotf::record::objective_count;
use crate::rules::systems::lotf::{Catalogue, ElementType, ScenarioId, Size};

pub struct StatRow {
    pub type_label: String,
    pub size_label: String,
    pub maneuver: u8,
    pub combat: u8,
    pub discipline: u8,
    pub morale: u8,
    pub action: u8,
    pub points: i32,
}

pub struct UpgradeRow {
    pub name: String,
    pub points: String,
    pub restriction: String,
    pub skills: String,
}

pub struct OrderRow {
    pub type_label: String,
    pub maneuver: String,
    pub combat: String,
}

pub struct Reference {
    pub version: String,
    pub stats: Vec<StatRow>,
    pub upgrades: Vec<UpgradeRow>,
    pub orders: Vec<OrderRow>,
    pub weapons: Vec<(String, String, String)>,
    /// Which sizes each size may charge, from the rules core.
    pub charge_sizes: String,
    /// How many objectives each scenario has, as the recorder counts them (R-32, M-23).
    pub objectives: String,
}

fn signed(points: i32) -> String {
    if points >= 0 {
        format!("+{points}")
    } else {
        format!("−{}", points.abs())
    }
}

pub fn build(cat: &Catalogue) -> Reference {
    let stats = cat
        .element_types()
        .iter()
        .flat_map(|t| {
            t.sizes.iter().map(move |s| StatRow {
                type_label: t.name.clone(),
                size_label: s.size.label().to_string(),
                maneuver: s.maneuver,
                combat: s.combat,
                discipline: s.discipline,
                morale: s.morale,
                action: s.action,
                points: s.points,
            })
        })
        .collect();
    let upgrades = cat
        .upgrades()
        .iter()
        .map(|u| {
            let types: Vec<&str> = u.types.iter().map(|t| t.label()).collect();
            let mut restriction = if u.types.len() == ElementType::ALL.len() {
                "any type".to_string()
            } else {
                types.join(", ").to_lowercase()
            };
            if let Some(sizes) = &u.sizes {
                let sizes: Vec<&str> = sizes.iter().map(|s| s.label()).collect();
                restriction.push_str(&format!("; {} only", sizes.join(", ").to_lowercase()));
            }
            if u.cap {
                restriction.push_str(&format!("; ≤{}% of elements (R-6)", cat.cap_percent()));
            }
            let skills: Vec<String> = u
                .skills
                .iter()
                .map(|s| {
                    cat.skill(s)
                        .map(|d| d.name.clone())
                        .unwrap_or_else(|| s.clone())
                })
                .collect();
            UpgradeRow {
                name: u.name.clone(),
                points: signed(u.points),
                restriction,
                skills: skills.join(", "),
            }
        })
        .collect();
    let orders = cat
        .tables()
        .orders
        .iter()
        .map(|o| OrderRow {
            type_label: o.element_type.label().to_string(),
            maneuver: o.maneuver.join(", "),
            combat: o.combat.join(", "),
        })
        .collect();
    let weapons = cat
        .weapons()
        .iter()
        .map(|w| {
            let range = match w.min_range {
                Some(min) => format!("{min}–{}\"", w.range),
                None => format!("{}\"", w.range),
            };
            (w.name.clone(), range, signed(w.points))
        })
        .collect();
    let charge_sizes = Size::ALL
        .iter()
        .map(|s| {
            format!(
                "{} may charge {}",
                s.id(),
                charges::charge_sizes_in_words(*s)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let mut by_points = Vec::new();
    let mut with_objectives = Vec::new();
    for sc in &cat.tables().scenarios {
        match ScenarioId::from_id(&sc.id).map(objective_count) {
            Some(n) if n > 0 => with_objectives.push(format!("{}: {n} objectives", sc.name)),
            _ => by_points.push(sc.name.clone()),
        }
    }
    let objectives = format!(
        "{}; {} are decided by victory points (R-22, R-32).",
        with_objectives.join("; "),
        by_points.join(", ")
    );
    Reference {
        version: cat.version().to_string(),
        stats,
        upgrades,
        orders,
        weapons,
        objectives,
        charge_sizes: format!(
            "Charge sizes: {charge_sizes}; the same for counter-charges; artillery never charges (R-28)."
        ),
    }
}
