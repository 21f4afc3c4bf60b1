//! The roster sheet in the game's own tracks: per unit a hit track with W/S/AB marked, boxes for
//! disorder and under-fire markers and ROUTING; per brigade its General with a killed box; the
//! C-in-C's Command Points (brigades + D3) and the army's break point.

use super::cards::{brigade_label, hit_track, unit_name, TrackBox};
use super::ForceState;
use crate::rules::system::Severity;
use crate::rules::systems::lod::battle::break_point;
use crate::rules::systems::lod::validate::{units, validate, Setting};
use crate::rules::systems::lod::{ArmyList, Catalogue, RosterDoc};

/// Marker boxes per unit on the sheet.
pub const SHEET_MARKER_BOXES: u8 = 3;

#[derive(Debug, Clone)]
pub struct SheetUnit {
    pub name: String,
    /// "Continental Regiment, 4 bases (8/16/24)", or the entry as written when unreadable.
    pub profile: String,
    pub track: Vec<TrackBox>,
    pub history: String,
}

#[derive(Debug, Clone)]
pub struct SheetBrigade {
    pub title: String,
    pub general: String,
    pub general_history: String,
    pub units: Vec<SheetUnit>,
}

pub struct Sheet {
    pub name: String,
    /// The side's colour class for the sheet's head.
    pub side: &'static str,
    pub army: String,
    pub c_in_c: String,
    pub state_label: String,
    pub brigades: Vec<SheetBrigade>,
    pub unit_count: u32,
    pub break_point: u32,
    /// One box per unit that may be lost, the break point's box marked.
    pub lost_boxes: Vec<(u32, bool)>,
    pub cp_brigades: u32,
    /// The C-in-C's part of the pool as the tables write it ("D3").
    pub cp_dice: String,
    /// Boxes for the whole pool: the brigades' and the most the dice can add.
    pub cp_boxes: Vec<bool>,
    pub vp_line: String,
    pub legal: bool,
    pub findings: Vec<(bool, String)>,
    pub marker_boxes: Vec<u8>,
    pub catalogue_version: String,
    pub printed_on: String,
}

pub fn build(
    cat: &Catalogue,
    doc: &RosterDoc,
    state: Option<&ForceState>,
    setting: Setting,
    today: &str,
) -> Sheet {
    let report = validate(cat, doc, setting);
    let views = units(cat, doc);
    let mut brigades: Vec<SheetBrigade> = doc
        .brigades
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let general = b.general.as_ref();
            SheetBrigade {
                title: brigade_label(&b.name, i + 1, None),
                general: general.map(|g| g.name.clone()).unwrap_or_default(),
                general_history: ForceState::history_of(state, general.and_then(|g| g.id.as_ref()))
                    .join("; "),
                units: Vec::new(),
            }
        })
        .collect();
    for (view, (b, _, unit)) in views.iter().zip(doc.units()) {
        let p = view.profile.as_ref();
        brigades[b].units.push(SheetUnit {
            name: unit_name(&unit.name, p, &unit.entry),
            profile: p.map_or_else(
                || format!("{}, {} bases (not in the lists)", unit.entry, unit.bases),
                |p| p.describe(),
            ),
            track: p.map_or_else(Vec::new, |p| {
                hit_track(p.size.worn, p.size.shaken, p.size.auto_broken)
            }),
            history: ForceState::history_of(state, unit.id.as_ref()).join("; "),
        });
    }
    let count = report.units;
    let bp = break_point(count);
    let most_from_dice = cat
        .tables
        .command_points
        .c_in_c
        .outcomes()
        .iter()
        .map(|(v, _)| *v)
        .max()
        .unwrap_or(0)
        .max(0) as u32;
    let cp_brigades = report.command_points_before_d3;
    let vp = &cat.tables.victory.vp;
    Sheet {
        name: doc.name.clone(),
        side: super::side_colour(&doc.army_list).class(),
        army: ArmyList::from_id(&doc.army_list).map_or_else(
            || doc.army_list.clone(),
            |l| format!("{} army", cat.list(l).name),
        ),
        c_in_c: doc.c_in_c.name.clone(),
        state_label: state.and_then(|s| s.label.clone()).unwrap_or_default(),
        brigades,
        unit_count: count,
        break_point: bp,
        lost_boxes: (1..=count).map(|n| (n, n == bp)).collect(),
        cp_brigades,
        cp_dice: cat.tables.command_points.c_in_c.label().to_string(),
        cp_boxes: (0..cp_brigades)
            .map(|_| true)
            .chain((0..most_from_dice).map(|_| false))
            .collect(),
        vp_line: format!(
            "Each enemy unit scores once by its end state: BROKEN {}, SHAKEN {}, WORN {}; +{} for breaking the enemy army.",
            vp.broken, vp.shaken, vp.worn, vp.enemy_broke
        ),
        legal: report.legal,
        findings: report
            .findings
            .iter()
            .map(|f| (f.severity == Severity::Error, f.message.clone()))
            .collect(),
        marker_boxes: (1..=SHEET_MARKER_BOXES).collect(),
        catalogue_version: cat.version().to_string(),
        printed_on: today.to_string(),
    }
}
