//! A One if by Land order of battle prepared for pages and the plain text: each brigade with its
//! commander and rating X, each unit in the game's words (class, quality and Morale Number,
//! stands × figures a stand, weapon and range, formations with the scenario's grants marked),
//! findings beside what they concern, and the derived counts shown but not judged.

use super::print::reference::inches;
use crate::rules::system::{Finding, Severity};
use crate::rules::systems::oibl::catalogue::Catalogue;
use crate::rules::systems::oibl::roster::{CommanderDoc, RosterDoc, UnitDoc};
use crate::rules::systems::oibl::types::{Formation, GunClass, Quality};
use crate::rules::systems::oibl::unit::allowed_formations;
use crate::rules::systems::oibl::validate::Report;

#[derive(Debug, Clone)]
pub struct FindingView {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Where on the page it belongs: `#b-<id>`, `#u-<id>` or `#army`.
    pub anchor: String,
}

#[derive(Debug, Clone)]
pub struct UnitView {
    pub id: String,
    pub name: String,
    /// As stored (ids), for the editor's selects.
    pub class: String,
    pub quality: String,
    pub basing: String,
    pub weapon: String,
    pub gun: String,
    /// Words: "Continental infantry", or the stored id when the catalogue does not know it.
    pub class_name: String,
    pub quality_name: String,
    /// "8", or "—" for a quality the game does not have.
    pub morale_number: String,
    pub stands: u32,
    /// Figures now, and the full strength of its stands.
    pub figures: u32,
    pub full_figures: u32,
    /// Whether the document gives figures (else they follow the stands).
    pub figures_given: bool,
    /// "6 stands × 3 figures"; for guns "2 medium cannon, 3 crew each".
    pub size_line: String,
    pub basing_name: String,
    pub weapon_name: String,
    pub bayonets: bool,
    /// The document's own choice for the editor: "", "yes" or "no".
    pub bayonets_choice: String,
    /// "no bayonets", "bayonets", "hatchets".
    pub arms_line: String,
    /// Formations it may use; grants marked "(scenario)".
    pub formations: String,
    pub authorizations: Vec<String>,
    pub marksmen: bool,
    pub light_infantry: bool,
    pub grenadiers: bool,
    pub legion: bool,
    pub discharged_continentals: bool,
    pub is_artillery: bool,
    pub guns: u32,
    pub crew: String,
    pub findings: Vec<FindingView>,
}

impl UnitView {
    pub fn authorized(&self, formation: &str) -> bool {
        self.authorizations.iter().any(|a| a == formation)
    }

    /// The flags set, in words, for the roster page.
    pub fn flag_words(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.marksmen {
            out.push("Marksmen");
        }
        if self.light_infantry {
            out.push("converged light infantry");
        }
        if self.grenadiers {
            out.push("converged grenadiers");
        }
        if self.legion {
            out.push("Legion infantry");
        }
        if self.discharged_continentals {
            out.push("discharged Continentals");
        }
        out
    }
}

#[derive(Debug, Clone)]
pub struct BrigadeView {
    pub id: String,
    pub number: usize,
    /// The name, or "Brigade n".
    pub title: String,
    pub name: String,
    pub has_commander: bool,
    pub commander: String,
    /// The rating X as the document gives it, or the default (B-8).
    pub rating: i32,
    pub findings: Vec<FindingView>,
    pub units: Vec<UnitView>,
    pub figures: u32,
}

#[derive(Debug, Clone)]
pub struct RosterView {
    pub name: String,
    pub nation: String,
    pub nation_label: String,
    pub scenario: String,
    pub army_commander: String,
    pub army_rating: i32,
    pub has_army_commander: bool,
    pub legal: bool,
    pub errors: usize,
    pub warnings: usize,
    pub army_findings: Vec<FindingView>,
    pub findings: Vec<FindingView>,
    pub brigades: Vec<BrigadeView>,
    pub units: u32,
    pub figures: u32,
    pub guns: u32,
    pub cards: u32,
    pub saved_with: String,
    pub checked_with: String,
}

impl RosterView {
    pub fn catalogue_changed(&self) -> bool {
        !self.saved_with.is_empty() && self.saved_with != self.checked_with
    }
}

/// A nation's name in words; the stored value when it is none of the game's.
pub fn nation_label(nation: &str) -> String {
    match nation {
        "american" => "American",
        "british" => "British",
        "loyalist" => "Loyalist",
        "german" => "German",
        "french" => "French",
        "indian" => "Indian",
        "" => "No side given",
        other => other,
    }
    .to_string()
}

/// Indices out of a path such as `brigades[1].units[3].quality`.
fn indices(path: &str) -> (Option<usize>, Option<usize>) {
    let grab = |key: &str| -> Option<usize> {
        let start = path.find(key)? + key.len();
        let end = path[start..].find(']')? + start;
        path[start..end].parse().ok()
    };
    (grab("brigades["), grab("units["))
}

fn finding_view(f: &Finding, doc: &RosterDoc) -> FindingView {
    let (b, u) = indices(&f.path);
    let brigade = b.and_then(|b| doc.brigades.get(b));
    let anchor = match (brigade, u) {
        (Some(brigade), Some(u)) => brigade
            .units
            .get(u)
            .and_then(|unit| unit.id.clone())
            .map(|id| format!("#u-{id}")),
        (Some(brigade), None) => brigade.id.clone().map(|id| format!("#b-{id}")),
        _ => None,
    }
    .unwrap_or_else(|| "#army".into());
    FindingView {
        severity: match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        },
        code: f.code.clone(),
        message: f.message.clone(),
        anchor,
    }
}

fn unit_view(cat: &Catalogue, unit: &UnitDoc, findings: Vec<FindingView>) -> UnitView {
    let class = cat.class(&unit.class);
    let basing_id = unit
        .basing
        .clone()
        .or_else(|| class.map(|c| c.basing.clone()))
        .unwrap_or_default();
    let basing = cat.basing(&basing_id);
    let weapon_id = unit
        .weapon
        .clone()
        .or_else(|| class.and_then(|c| c.weapons.first().cloned()))
        .unwrap_or_default();
    let weapon = cat.weapon(&weapon_id);
    let quality = Quality::from_id(&unit.quality);
    let is_artillery =
        class.is_some_and(|c| c.kind == crate::rules::systems::oibl::Kind::Artillery);
    let per_stand = basing.map_or(0, |b| b.figures_per_stand);
    let gun = unit.gun.as_deref().and_then(GunClass::from_id);
    let guns = unit.guns.unwrap_or(1);
    let crew_each = unit
        .crew
        .or_else(|| gun.map(|g| cat.gun(g).default_crew))
        .unwrap_or(0);
    let full = if is_artillery {
        guns.saturating_mul(crew_each)
    } else {
        unit.stands.saturating_mul(per_stand)
    };
    let bayonets = unit
        .bayonets
        .unwrap_or_else(|| class.is_some_and(|c| c.bayonets));
    let defaults: Vec<Formation> = class.map(|c| c.formations.clone()).unwrap_or_default();
    let formations = allowed_formations(cat, unit)
        .into_iter()
        .map(|f| {
            if defaults.contains(&f) {
                f.words().to_string()
            } else {
                format!("{} (scenario)", f.words())
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let size_line = if is_artillery {
        let gun_name = gun.map_or_else(
            || "cannon of no class".to_string(),
            |g| cat.gun(g).name.to_lowercase(),
        );
        format!("{guns} × {gun_name}, {crew_each} crew each")
    } else {
        format!(
            "{} stand{} × {} figure{}",
            unit.stands,
            if unit.stands == 1 { "" } else { "s" },
            per_stand,
            if per_stand == 1 { "" } else { "s" }
        )
    };
    let kind = class.map(|c| c.kind);
    let arms_line = match kind {
        Some(crate::rules::systems::oibl::Kind::Indian) => "hatchets",
        Some(crate::rules::systems::oibl::Kind::Cavalry) => "sabres",
        _ if bayonets => "bayonets",
        _ => "no bayonets",
    }
    .to_string();
    UnitView {
        id: unit.id.clone().unwrap_or_default(),
        name: if unit.name.is_empty() {
            class.map_or_else(|| "Unnamed unit".to_string(), |c| c.name.clone())
        } else {
            unit.name.clone()
        },
        class: unit.class.clone(),
        quality: unit.quality.clone(),
        basing: unit.basing.clone().unwrap_or_default(),
        weapon: unit.weapon.clone().unwrap_or_default(),
        gun: unit.gun.clone().unwrap_or_default(),
        class_name: class.map_or_else(
            || format!("unknown class '{}'", unit.class),
            |c| c.name.clone(),
        ),
        quality_name: quality.map_or_else(
            || format!("unknown quality '{}'", unit.quality),
            |q| cat.quality(q).name.clone(),
        ),
        morale_number: quality
            .map_or_else(|| "—".to_string(), |q| cat.morale_number(q).to_string()),
        stands: unit.stands,
        figures: unit.figures.unwrap_or(full),
        full_figures: full,
        figures_given: unit.figures.is_some(),
        size_line,
        basing_name: basing.map_or_else(|| basing_id.clone(), |b| b.name.clone()),
        weapon_name: match weapon {
            Some(w) => format!("{} ({})", w.name, inches(w.range)),
            None => weapon_id.clone(),
        },
        bayonets,
        bayonets_choice: match unit.bayonets {
            Some(true) => "yes".into(),
            Some(false) => "no".into(),
            None => String::new(),
        },
        arms_line,
        formations,
        authorizations: unit.authorizations.clone(),
        marksmen: unit.marksmen,
        light_infantry: unit.light_infantry,
        grenadiers: unit.grenadiers,
        legion: unit.legion,
        discharged_continentals: unit.discharged_continentals,
        is_artillery,
        guns,
        crew: unit.crew.map(|c| c.to_string()).unwrap_or_default(),
        findings,
    }
}

fn commander_parts(c: Option<&CommanderDoc>) -> (bool, String, i32) {
    match c {
        Some(c) => (true, c.name.clone(), c.rating_or_default()),
        None => (false, String::new(), 1),
    }
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, report: &Report) -> RosterView {
    let all: Vec<FindingView> = report
        .findings
        .iter()
        .map(|f| finding_view(f, doc))
        .collect();
    let by_anchor = |anchor: &str| -> Vec<FindingView> {
        all.iter().filter(|f| f.anchor == anchor).cloned().collect()
    };
    let brigades = doc
        .brigades
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let id = b.id.clone().unwrap_or_default();
            let units: Vec<UnitView> = b
                .units
                .iter()
                .map(|u| {
                    let anchor = format!("#u-{}", u.id.clone().unwrap_or_default());
                    unit_view(cat, u, by_anchor(&anchor))
                })
                .collect();
            let (has_commander, commander, rating) = commander_parts(b.commander.as_ref());
            BrigadeView {
                number: i + 1,
                title: if b.name.is_empty() {
                    format!("Brigade {}", i + 1)
                } else {
                    b.name.clone()
                },
                name: b.name.clone(),
                has_commander,
                commander,
                rating,
                findings: by_anchor(&format!("#b-{id}")),
                figures: units.iter().map(|u| u.figures).sum(),
                units,
                id,
            }
        })
        .collect();
    let (has_army_commander, army_commander, army_rating) =
        commander_parts(doc.army_commander.as_ref());
    let errors = all.iter().filter(|f| f.severity == "error").count();
    RosterView {
        name: doc.name.clone(),
        nation: doc.nation.clone(),
        nation_label: nation_label(&doc.nation),
        scenario: doc.scenario.clone(),
        army_commander,
        army_rating,
        has_army_commander,
        legal: report.legal,
        errors,
        warnings: all.len() - errors,
        army_findings: by_anchor("#army"),
        brigades,
        units: report.units,
        figures: report.figures,
        guns: report.guns,
        cards: report.cards,
        saved_with: doc.catalogue_version.clone().unwrap_or_default(),
        checked_with: cat.version().to_string(),
        findings: all,
    }
}

/// The order of battle as plain text, for forums and e-mail.
pub fn text(view: &RosterView) -> String {
    let mut out = format!("{} — One if by Land, {}\n", view.name, view.nation_label);
    if !view.scenario.is_empty() {
        out.push_str(&format!("Scenario: {}\n", view.scenario));
    }
    if view.has_army_commander {
        out.push_str(&format!(
            "Army commander: {} (rating {})\n",
            if view.army_commander.is_empty() {
                "not named"
            } else {
                &view.army_commander
            },
            view.army_rating
        ));
    }
    out.push_str(&format!(
        "{} units, {} figures, {} guns in {} brigades ({} cards) · {}\n",
        view.units,
        view.figures,
        view.guns,
        view.brigades.len(),
        view.cards,
        if view.legal {
            "legal".to_string()
        } else {
            format!("{} errors", view.errors)
        }
    ));
    for b in &view.brigades {
        out.push_str(&format!("\n{}", b.title));
        if b.has_commander {
            let name = if b.commander.is_empty() {
                "commander not named"
            } else {
                &b.commander
            };
            out.push_str(&format!(" — {name}, rating {}", b.rating));
        } else {
            out.push_str(" — no commander");
        }
        out.push('\n');
        for u in &b.units {
            out.push_str(&format!(
                "  {}: {}, {} (Morale Number {}), {}, {} figures, {}, {}; {}",
                u.name,
                u.class_name,
                u.quality_name,
                u.morale_number,
                u.size_line,
                u.figures,
                u.weapon_name,
                u.arms_line,
                u.formations
            ));
            let flags = u.flag_words();
            if !flags.is_empty() {
                out.push_str(&format!("; {}", flags.join(", ")));
            }
            out.push('\n');
        }
    }
    for f in &view.findings {
        out.push_str(&format!(
            "{}: {}\n",
            if f.severity == "error" {
                "Error"
            } else {
                "Warning"
            },
            f.message
        ));
    }
    out
}
