//! The roster sheet: the whole order of battle on one page, in the game's own tracks and
//! measures (figures lost with the loss bands marked, Panic Marker, failed by 1, routing and
//! reforming boxes, each commander's rating X and his wounds), the units lost towards Muster's
//! army morale (B-34) and the turns of B-35.

use super::cards::{brigade_label, loss_tally, side_colour, TallyBox};
use super::reference::inches;
use super::ForceState;
use crate::rules::systems::oibl::catalogue::Catalogue;
use crate::rules::systems::oibl::roster::RosterDoc;
use crate::rules::systems::oibl::types::Kind;
use crate::rules::systems::oibl::unit::stats;

pub struct SheetUnit {
    pub name: String,
    /// "Continental infantry · Veteran, MN 8 · 6 × 3 = 18 figures · Musket 7"".
    pub profile: String,
    pub tally: Vec<TallyBox>,
    pub history: String,
}

pub struct SheetBrigade {
    pub title: String,
    pub units: Vec<SheetUnit>,
    pub has_commander: bool,
    pub commander_history: String,
}

pub struct Sheet {
    pub name: String,
    pub side: &'static str,
    /// "American · scenario Cowpens · army commander Greene (X 2)".
    pub subtitle: String,
    pub state_label: String,
    pub legal: bool,
    pub unit_count: usize,
    /// Units lost at which the side is beaten (B-34).
    pub beaten_at: usize,
    /// Numbered boxes 1..=units, the B-34 one marked.
    pub lost_boxes: Vec<(usize, bool)>,
    pub turns: Vec<u32>,
    pub brigades: Vec<SheetBrigade>,
    pub findings: Vec<(bool, String)>,
    pub catalogue_version: String,
    pub printed_on: String,
}

fn nation_words(nation: &str) -> String {
    let mut chars = nation.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "No nation given".to_string(),
    }
}

pub fn build(
    cat: &Catalogue,
    doc: &RosterDoc,
    force: Option<&ForceState>,
    findings: Vec<(bool, String)>,
    printed_on: &str,
) -> Sheet {
    let mut brigades = Vec::new();
    let mut unit_count = 0;
    for (b, brigade) in doc.brigades.iter().enumerate() {
        let mut units = Vec::new();
        for (u, unit) in brigade.units.iter().enumerate() {
            unit_count += 1;
            let history = ForceState::history_of(force, unit.id.as_ref()).join("; ");
            let Some(s) = stats(cat, unit, &format!("b{b}u{u}")) else {
                units.push(SheetUnit {
                    name: if unit.name.is_empty() {
                        "Unnamed unit".to_string()
                    } else {
                        unit.name.clone()
                    },
                    profile: "cannot be read against the catalogue: see the findings".to_string(),
                    tally: Vec::new(),
                    history,
                });
                continue;
            };
            let weapon = cat
                .weapon(&s.weapon)
                .map_or_else(|| s.weapon.clone(), |w| w.name.clone());
            let size = if s.kind == Kind::Artillery {
                let gun = s.gun.map(|g| cat.gun(g).name.clone()).unwrap_or_default();
                format!("{} × {gun}, {} crew", s.guns, s.figures)
            } else {
                format!(
                    "{} × {} = {} figures",
                    s.stands, s.figures_per_stand, s.figures
                )
            };
            units.push(SheetUnit {
                name: s.name.clone(),
                profile: format!(
                    "{} · {}, MN {} · {size} · {weapon} {}",
                    s.class_name,
                    cat.quality(s.quality).name,
                    s.morale_number,
                    inches(s.range)
                ),
                tally: loss_tally(cat, s.figures),
                history,
            });
        }
        let commander_history = brigade
            .commander
            .as_ref()
            .map(|c| ForceState::history_of(force, c.id.as_ref()).join("; "))
            .unwrap_or_default();
        brigades.push(SheetBrigade {
            title: brigade_label(doc, b),
            units,
            has_commander: brigade.commander.is_some(),
            commander_history,
        });
    }
    let v = &cat.victory;
    // B-34: beaten when lost units × den ≥ starting units × num.
    let beaten_at =
        (unit_count * v.lost_share_num as usize).div_ceil(v.lost_share_den.max(1) as usize);
    let mut subtitle = vec![nation_words(&doc.nation)];
    if !doc.scenario.is_empty() {
        subtitle.push(format!("scenario {}", doc.scenario));
    }
    if let Some(c) = &doc.army_commander {
        subtitle.push(format!(
            "army commander {} (X {})",
            if c.name.is_empty() {
                "not named"
            } else {
                &c.name
            },
            c.rating_or_default()
        ));
    }
    Sheet {
        name: doc.name.clone(),
        side: side_colour(&doc.nation).class(),
        subtitle: subtitle.join(" · "),
        state_label: force.and_then(|f| f.label.clone()).unwrap_or_default(),
        legal: !findings.iter().any(|(error, _)| *error),
        unit_count,
        beaten_at,
        lost_boxes: (1..=unit_count).map(|n| (n, n == beaten_at)).collect(),
        turns: (1..=v.turns).collect(),
        brigades,
        findings,
        catalogue_version: cat.version().to_string(),
        printed_on: printed_on.to_string(),
    }
}
