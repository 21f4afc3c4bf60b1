//! The roster sheet: the order of battle on one page in the game's own tracks and measures:
//! each unit's figures grouped by base with the half-strength mark, boxes for disorder, rout and
//! the first volley, each brigadier's ability with a "killed" box, and the army's count of units
//! lost toward its break (Muster's rule W-31).

use super::cards::{self, BaseGroup};
use crate::rules::systems::awi::catalogue::Catalogue;
use crate::rules::systems::awi::roster::RosterDoc;
use crate::rules::systems::awi::types::TroopType;
use crate::rules::systems::awi::validate;

pub struct SheetUnit {
    pub name: String,
    /// "Trained infantry · close order · musket".
    pub profile: String,
    pub tally: Vec<BaseGroup>,
    pub first_volley: bool,
    pub is_gun: bool,
}

pub struct SheetBrigade {
    pub title: String,
    pub brigadier: String,
    /// The ability, or empty to be written in once rolled.
    pub ability: String,
    pub units: Vec<SheetUnit>,
}

pub struct Sheet {
    pub name: String,
    pub side_label: String,
    pub side: &'static str,
    pub cinc: String,
    pub legal: bool,
    pub army_units: u32,
    pub guns: u32,
    pub bases: u32,
    pub men: u32,
    pub break_threshold: u32,
    /// Boxes for units lost (guns not counted); `true` marks the one that breaks the army.
    pub lost_boxes: Vec<(u32, bool)>,
    pub brigades: Vec<SheetBrigade>,
    pub findings: Vec<(String, String)>,
    pub catalogue_version: String,
    pub printed_on: String,
    /// The victory points of W-31, in one line.
    pub vp_line: String,
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, side: &'static str, today: &str) -> Sheet {
    let report = validate::validate(cat, doc);
    let all_cards = cards::build(cat, doc);
    let mut next = all_cards.into_iter();
    let brigades = doc
        .brigades
        .iter()
        .enumerate()
        .map(|(bi, b)| SheetBrigade {
            title: if b.name.trim().is_empty() {
                format!("Brigade {}", bi + 1)
            } else {
                b.name.clone()
            },
            brigadier: b
                .brigadier
                .as_ref()
                .map_or_else(|| "(none)".to_string(), |g| g.name.clone()),
            ability: b
                .brigadier
                .as_ref()
                .and_then(|g| g.ability_value())
                .map(|a| a.to_string())
                .unwrap_or_default(),
            units: b
                .units
                .iter()
                .filter_map(|u| {
                    let spec = u.spec()?;
                    // Cards come in the same order, one per readable unit.
                    let c = next.next()?;
                    Some(SheetUnit {
                        name: c.name,
                        profile: format!(
                            "{} · {}",
                            c.type_line,
                            spec.gun.map_or_else(
                                || spec.arms.map_or("no firearms", |a| a.label()).to_string(),
                                |g| g.label().to_string()
                            )
                        ),
                        tally: c.tally,
                        first_volley: c.first_volley,
                        is_gun: spec.troop_type == TroopType::Artillery,
                    })
                })
                .collect(),
        })
        .collect();
    let v = &cat.victory;
    Sheet {
        name: doc.name.clone(),
        side_label: doc.side.clone().unwrap_or_default(),
        side,
        cinc: doc.cinc.as_ref().map(|c| c.name.clone()).unwrap_or_default(),
        legal: report.legal,
        army_units: report.army_units,
        guns: report.guns,
        bases: report.bases,
        men: report.men,
        break_threshold: report.break_threshold,
        lost_boxes: (1..=report.army_units)
            .map(|n| (n, n == report.break_threshold))
            .collect(),
        brigades,
        findings: report
            .findings
            .iter()
            .filter(|f| f.severity == crate::rules::system::Severity::Error)
            .map(|f| ("Error".to_string(), f.message.clone()))
            .collect(),
        catalogue_version: cat.version().to_string(),
        printed_on: today.to_string(),
        vp_line: format!(
            "Muster's victory points (W-31, not in the rules): on enemy units, {} a unit destroyed or routed off the table, {} a unit routing at the end, {} a unit at or below half strength, {} a gun lost, {} if the enemy army broke. A difference of {} or less is a draw, up to {} a minor victory, more a major one. The battle ends when an army breaks or after {} turns (W-32).",
            v.destroyed_or_routed_off, v.routing_at_end, v.at_or_below_half, v.gun_lost,
            v.enemy_broke, v.draw_max, v.minor_max, v.turns
        ),
    }
}
