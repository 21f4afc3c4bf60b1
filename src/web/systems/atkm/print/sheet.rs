//! The roster sheet: the army on one page in the game's own tracks and measures — each unit's
//! rank and file as tally boxes with its break point marked, officer and ensign boxes and a
//! resolve track; the generals with their ratings, radii and a command point tally; the army's
//! starting units with the count at which it collapses.

use super::cards::TallyBox;
use crate::rules::systems::atkm::catalogue::Catalogue;
use crate::rules::systems::atkm::roster::RosterDoc;
use crate::rules::systems::atkm::types::Role;
use crate::rules::systems::atkm::validate::{profile, validate};
use crate::web::systems::atkm::view;

pub struct SheetUnit {
    pub name: String,
    pub type_name: String,
    pub detail: String,
    pub general: String,
    pub tally: Vec<TallyBox>,
    pub break_point: u32,
    pub officer: bool,
    pub ensign: bool,
    pub reinforcement: bool,
}

pub struct SheetGeneral {
    pub name: String,
    pub role: String,
    pub rating: u32,
    pub radius: u32,
}

pub struct Sheet {
    pub name: String,
    pub period: String,
    pub commanding: String,
    pub rules_in_use: String,
    pub legal: bool,
    pub findings: Vec<String>,
    pub start_units: u32,
    pub collapse_at: u32,
    /// One box per starting unit, the collapse point marked.
    pub army_boxes: Vec<TallyBox>,
    pub generals: Vec<SheetGeneral>,
    pub units: Vec<SheetUnit>,
    pub most_cp: u32,
    pub date: String,
    pub version: String,
    /// Where the sheet is used, e.g. "Attacker in battle 4: …" (the battle pack); empty alone.
    pub state_label: String,
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, today: &str) -> Sheet {
    let report = validate(cat, doc);
    let roster_view = view::build(cat, doc, &report);
    let general_name = |id: &Option<String>| -> String {
        doc.generals
            .iter()
            .find(|g| g.id.is_some() && g.id == *id)
            .map_or_else(|| "no general".into(), |g| g.name.clone())
    };
    let units = doc
        .units
        .iter()
        .filter_map(|u| {
            let p = profile(cat, u)?;
            let row = cat.unit(p.unit_type);
            let mut detail = vec![format!("{} {}", p.rank_and_file, row.men)];
            if let Some(g) = p.gun {
                detail.push(cat.gun(g).name.clone());
            }
            if doc.uses(crate::rules::systems::atkm::types::AdvancedRule::EliteMilitia)
                || u.quality.is_some()
            {
                detail.push(cat.quality(p.quality).name.clone());
            }
            Some(SheetUnit {
                name: if u.name.trim().is_empty() {
                    row.name.clone()
                } else {
                    u.name.clone()
                },
                type_name: row.name.clone(),
                detail: detail.join(" · "),
                general: general_name(&u.general),
                tally: (1..=p.rank_and_file)
                    .map(|n| TallyBox {
                        n,
                        breaks: n <= p.break_point,
                    })
                    .collect(),
                break_point: p.break_point,
                officer: p.officer,
                ensign: p.ensign,
                reinforcement: u.arrives != "start",
            })
        })
        .collect();
    let generals = doc
        .generals
        .iter()
        .map(|g| SheetGeneral {
            name: g.name.clone(),
            role: Role::from_id(&g.role).map_or(g.role.clone(), |r| r.label().to_string()),
            rating: u32::try_from(g.rating).unwrap_or(0),
            radius: g
                .command_radius
                .unwrap_or(cat.tables.command.default_radius),
        })
        .collect();
    Sheet {
        state_label: String::new(),
        name: roster_view.name.clone(),
        period: roster_view.period_label.clone(),
        commanding: doc
            .generals
            .iter()
            .find(|g| g.role == Role::Commanding.id())
            .map(|g| g.name.clone())
            .unwrap_or_default(),
        rules_in_use: roster_view.rules_in_use.clone(),
        legal: report.legal,
        findings: roster_view
            .findings
            .iter()
            .map(|f| {
                format!(
                    "{}: {}",
                    if f.severity == "error" {
                        "Error"
                    } else {
                        "Warning"
                    },
                    f.message
                )
            })
            .collect(),
        start_units: report.units,
        collapse_at: report.army_breaks_at,
        army_boxes: (1..=report.units)
            .map(|n| TallyBox {
                n,
                breaks: n <= report.army_breaks_at,
            })
            .collect(),
        generals,
        units,
        most_cp: 6,
        date: today.to_string(),
        version: cat.version().to_string(),
    }
}
