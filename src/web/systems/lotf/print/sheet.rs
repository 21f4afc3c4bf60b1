//! The roster sheet, made to play from (issue 18): commanders with their rolled ratings (or
//! spaces to write them) and command-point boxes for each turn; each group's elements with their
//! stat line, range, hit and disorder boxes and the discipline track; points, totals and the
//! legality stamp. An ordinary force fits one page.

use super::cards::{discipline_track, DISORDER_BOXES};
use super::{side_colour, ForceState};
use crate::rules::systems::lotf::{self, profile, Catalogue, RosterDoc};
use crate::web::systems::lotf::view::{self, FindingView};

#[derive(Debug, Clone)]
pub struct CommanderLine {
    pub role: String,
    pub name: String,
    /// Filled in when the force's state knows them; blank spaces to write in otherwise.
    pub rating: String,
    pub morale: String,
    pub spi: String,
    pub command_points: String,
}

#[derive(Debug, Clone)]
pub struct SheetElement {
    pub name: String,
    pub troops: String,
    pub upgrades: String,
    pub points: u32,
    pub history: String,
    pub maneuver: u8,
    pub combat: u8,
    pub discipline: u8,
    /// As the book prints it: "7+".
    pub morale: String,
    pub action: u8,
    /// "12\"" or "6–24\""; the threat zone beside it.
    pub range: String,
    pub threat_zone: u8,
    /// One box per point of Discipline (hits), as on the card.
    pub hit_boxes: Vec<u8>,
    /// The discipline track: (level, is the starting level), as on the card.
    pub track: Vec<(String, bool)>,
}

#[derive(Debug, Clone)]
pub struct SheetGroup {
    pub title: String,
    pub commander: CommanderLine,
    pub elements: Vec<SheetElement>,
    pub points: u32,
}

pub struct Sheet {
    pub name: String,
    pub subtitle: String,
    pub state_label: String,
    pub force_commander: CommanderLine,
    pub groups: Vec<SheetGroup>,
    pub total: u32,
    pub limit_text: String,
    pub legal: bool,
    pub findings: Vec<FindingView>,
    pub element_count: usize,
    pub catalogue_version: String,
    pub printed_on: String,
    /// Turn numbers for the command-point boxes.
    pub turns: Vec<u8>,
    /// Boxes for Disorder Markers on each element's line.
    pub disorder_boxes: Vec<u8>,
    /// The side's colour class for the sheet's head.
    pub side: &'static str,
}

fn commander_line(
    role: String,
    name: &str,
    state: Option<&super::CommanderState>,
) -> CommanderLine {
    let s = state.cloned().unwrap_or_default();
    CommanderLine {
        role,
        name: name.to_string(),
        rating: s.rating.unwrap_or_default(),
        morale: s.morale.map(|m| m.to_string()).unwrap_or_default(),
        spi: s.spi.map(|m| format!("{m}\"")).unwrap_or_default(),
        command_points: s.command_points.unwrap_or_default(),
    }
}

pub fn build(
    cat: &Catalogue,
    original: &RosterDoc,
    state: Option<&ForceState>,
    today: &str,
) -> Sheet {
    let doc = state
        .map(|s| s.apply(original))
        .unwrap_or_else(|| original.clone());
    let report = lotf::validate(cat, &doc);
    let v = view::build(cat, &doc, &report);
    let mut findings = v.findings.clone();
    if state.is_some_and(|s| s.after_casualties) {
        for f in findings
            .iter_mut()
            .filter(|f| f.code == "too_few_groups" || f.code == "too_few_elements")
        {
            f.severity = "warning";
            f.message = format!(
                "{} Losses in battle may leave a campaign force short; it stays legal (M-90).",
                f.message
            );
        }
    }
    let fc = doc.force_commander.clone().unwrap_or_default();
    let groups = doc
        .groups
        .iter()
        .zip(&v.groups)
        .map(|(g, gv)| {
            let c = g.commander.clone().unwrap_or_default();
            SheetGroup {
                title: if gv.name.is_empty() {
                    format!("Group {}", gv.number)
                } else {
                    gv.name.clone()
                },
                commander: commander_line(
                    format!("Group {}", gv.number),
                    &c.name,
                    state.and_then(|s| s.commander(c.id.as_ref())),
                ),
                elements: g
                    .elements
                    .iter()
                    .zip(&gv.elements)
                    .map(|(e, ev)| {
                        let p = profile(cat, e);
                        SheetElement {
                            name: ev.name.clone(),
                            troops: format!(
                                "{} {}, {}",
                                ev.size_label,
                                ev.type_label.to_lowercase(),
                                ev.weapon_label
                            ),
                            upgrades: ev.upgrades_label.clone(),
                            points: ev.points,
                            history: state
                                .and_then(|s| s.element(e.id.as_ref()))
                                .map(|s| s.history.join("; "))
                                .unwrap_or_default(),
                            maneuver: p.maneuver,
                            combat: p.combat,
                            discipline: p.discipline,
                            morale: format!("{}+", p.morale),
                            action: p.action,
                            range: match p.range.min {
                                Some(min) => format!("{min}–{}\"", p.range.max),
                                None => format!("{}\"", p.range.max),
                            },
                            threat_zone: p.threat_zone,
                            hit_boxes: (1..=p.discipline).collect(),
                            track: discipline_track(cat, p.starting_discipline),
                        }
                    })
                    .collect(),
                points: gv.points,
            }
        })
        .collect();
    Sheet {
        name: v.name.clone(),
        subtitle: format!(
            "{} · {} · {} mode",
            v.war_label, v.nation_label, v.mode_label
        ),
        state_label: state.and_then(|s| s.label.clone()).unwrap_or_default(),
        force_commander: commander_line(
            "Force Commander".into(),
            &fc.name,
            state.and_then(|s| s.commander(fc.id.as_ref())),
        ),
        groups,
        total: v.total,
        limit_text: v.limit_text(),
        legal: findings.iter().all(|f| f.severity != "error"),
        findings,
        element_count: v.element_count,
        catalogue_version: cat.version().to_string(),
        printed_on: today.to_string(),
        turns: (1..=cat.tables().game_length_turns).collect(),
        disorder_boxes: (1..=DISORDER_BOXES).collect(),
        side: side_colour(doc.nation).class(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::{
        CommanderDoc, ElementDoc, ElementType, GroupDoc, Nation, RosterDoc, Size, War,
    };

    /// Two groups, the second left with one element.
    fn short_force() -> RosterDoc {
        let mut d = RosterDoc::new("Crown", War::AmericanRevolution, Nation::British, Some(150));
        d.force_commander = Some(CommanderDoc::default());
        let mut first = GroupDoc {
            commander: Some(CommanderDoc::default()),
            ..GroupDoc::default()
        };
        for name in ["Foot A", "Foot B", "Foot C"] {
            first
                .elements
                .push(ElementDoc::new(name, ElementType::Infantry, Size::Medium));
        }
        let mut second = GroupDoc {
            commander: Some(CommanderDoc::default()),
            ..GroupDoc::default()
        };
        second.elements.push(ElementDoc::new(
            "Foot D",
            ElementType::Infantry,
            Size::Medium,
        ));
        d.groups = vec![first, second];
        d
    }

    #[test]
    fn a_campaign_force_short_after_its_losses_prints_as_legal_with_a_warning() {
        let cat = Catalogue::builtin().unwrap();
        let plain = build(&cat, &short_force(), None, "2026-11-25");
        assert!(!plain.legal, "a roster with a one-element group is illegal");
        let state = ForceState {
            after_casualties: true,
            ..ForceState::default()
        };
        let campaign = build(&cat, &short_force(), Some(&state), "2026-11-25");
        let errors: Vec<_> = campaign
            .findings
            .iter()
            .filter(|f| f.severity == "error")
            .map(|f| format!("{} {}", f.code, f.message))
            .collect();
        assert!(
            campaign.legal,
            "M-90: losses leave a campaign force legal: {errors:?}"
        );
        let warning = campaign
            .findings
            .iter()
            .find(|f| f.code == "too_few_elements")
            .expect("the short group is still mentioned");
        assert_eq!(warning.severity, "warning");
        assert!(warning.message.contains("M-90"), "{}", warning.message);
    }
}
