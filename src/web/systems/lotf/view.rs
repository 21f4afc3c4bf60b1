//! A roster prepared for pages: points and findings attached to what they concern.

use crate::rules::systems::lotf::{
    effective_weapon, Catalogue, Finding, Report, RosterDoc, Severity,
};

#[derive(Debug, Clone)]
pub struct FindingView {
    /// `error` or `warning`.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    /// Where on the page it belongs: `#g-<id>`, `#e-<id>` or `#force`.
    pub anchor: String,
}

#[derive(Debug, Clone)]
pub struct ElementView {
    pub id: String,
    pub name: String,
    pub type_id: &'static str,
    pub type_label: &'static str,
    pub size_id: &'static str,
    pub size_label: &'static str,
    /// The weapon as chosen (`""` = the type's standard one).
    pub weapon_value: String,
    pub weapon_label: String,
    pub upgrade_value: String,
    pub upgrades_label: String,
    pub points: u32,
    pub note: String,
    pub findings: Vec<FindingView>,
}

#[derive(Debug, Clone)]
pub struct GroupView {
    pub id: String,
    pub number: usize,
    pub name: String,
    pub commander: String,
    pub points: u32,
    pub findings: Vec<FindingView>,
    pub elements: Vec<ElementView>,
}

#[derive(Debug, Clone)]
pub struct RosterView {
    pub name: String,
    pub war_id: &'static str,
    pub war_label: String,
    pub nation_id: &'static str,
    pub nation_label: String,
    pub mode_id: &'static str,
    pub mode_label: &'static str,
    pub limit: Option<u32>,
    pub total: u32,
    pub legal: bool,
    pub errors: usize,
    pub warnings: usize,
    pub force_commander: String,
    pub force_findings: Vec<FindingView>,
    pub findings: Vec<FindingView>,
    pub groups: Vec<GroupView>,
    pub element_count: usize,
    /// The catalogue the roster was last saved with, and the one that checked it now.
    pub saved_with: String,
    pub checked_with: String,
}

impl RosterView {
    pub fn limit_text(&self) -> String {
        self.limit
            .map(|l| l.to_string())
            .unwrap_or_else(|| "no limit".into())
    }
    pub fn over_limit(&self) -> bool {
        self.limit.is_some_and(|l| self.total > l)
    }
    pub fn limit_value(&self) -> String {
        self.limit.map(|l| l.to_string()).unwrap_or_default()
    }
    /// The posts whose commander has no name yet ("Force Commander", "the commander of Group 2"). R-1 asks for
    /// the commanders, not their names, so this is a reminder beside the legality, not a
    /// finding (M-103); a missing commander is the validator's error instead.
    pub fn unnamed_commanders(&self) -> Vec<String> {
        let missing =
            |findings: &[FindingView], code: &str| findings.iter().any(|f| f.code == code);
        let mut posts = Vec::new();
        if self.force_commander.is_empty()
            && !missing(&self.force_findings, "missing_force_commander")
            && !missing(&self.findings, "missing_force_commander")
        {
            posts.push("Force Commander".to_string());
        }
        for g in &self.groups {
            if g.commander.is_empty() && !missing(&g.findings, "missing_group_commander") {
                let title = if g.name.is_empty() {
                    format!("Group {}", g.number)
                } else {
                    g.name.clone()
                };
                posts.push(format!("the commander of {title}"));
            }
        }
        posts
    }
    pub fn catalogue_changed(&self) -> bool {
        !self.saved_with.is_empty() && self.saved_with != self.checked_with
    }
}

/// Indices out of a path such as `groups[1].elements[3].size`.
fn indices(path: &str) -> (Option<usize>, Option<usize>) {
    let grab = |key: &str| -> Option<usize> {
        let start = path.find(key)? + key.len();
        let end = path[start..].find(']')? + start;
        path[start..end].parse().ok()
    };
    (grab("groups["), grab("elements["))
}

fn finding_view(f: &Finding, doc: &RosterDoc) -> FindingView {
    let (g, e) = indices(&f.path);
    let group = g.and_then(|g| doc.groups.get(g));
    let anchor = match (group, e) {
        (Some(group), Some(e)) => group
            .elements
            .get(e)
            .and_then(|el| el.id.clone())
            .map(|id| format!("#e-{id}"))
            .unwrap_or_else(|| "#force".into()),
        (Some(group), None) => group
            .id
            .clone()
            .map(|id| format!("#g-{id}"))
            .unwrap_or_else(|| "#force".into()),
        _ => "#force".into(),
    };
    FindingView {
        severity: if f.severity == Severity::Error {
            "error"
        } else {
            "warning"
        },
        code: f.code.as_str().to_string(),
        message: f.message.clone(),
        anchor,
    }
}

pub fn build(cat: &Catalogue, doc: &RosterDoc, report: &Report) -> RosterView {
    let all: Vec<(Option<usize>, Option<usize>, FindingView)> = report
        .findings
        .iter()
        .map(|f| {
            let (g, e) = indices(&f.path);
            (g, e, finding_view(f, doc))
        })
        .collect();
    let groups = doc
        .groups
        .iter()
        .enumerate()
        .map(|(gi, g)| GroupView {
            id: g.id.clone().unwrap_or_default(),
            number: gi + 1,
            name: g.name.clone(),
            commander: g
                .commander
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_default(),
            points: report
                .points
                .by_group
                .get(gi)
                .map(|p| p.points)
                .unwrap_or(0),
            findings: all
                .iter()
                .filter(|(fg, fe, _)| *fg == Some(gi) && fe.is_none())
                .map(|(_, _, f)| f.clone())
                .collect(),
            elements: g
                .elements
                .iter()
                .enumerate()
                .map(|(ei, e)| {
                    let weapon = effective_weapon(cat, e);
                    let weapon_label = cat
                        .weapon(weapon)
                        .map(|w| w.name.clone())
                        .unwrap_or_else(|| weapon.label().to_string());
                    let upgrades: Vec<String> = e
                        .upgrades
                        .iter()
                        .map(|u| {
                            cat.upgrade(*u)
                                .map(|d| d.name.clone())
                                .unwrap_or_else(|| u.label().into())
                        })
                        .collect();
                    let path = format!("groups[{gi}].elements[{ei}]");
                    ElementView {
                        id: e.id.clone().unwrap_or_default(),
                        name: e.name.clone(),
                        type_id: e.element_type.id(),
                        type_label: e.element_type.label(),
                        size_id: e.size.id(),
                        size_label: e.size.label(),
                        weapon_value: e.weapon.map(|w| w.id().to_string()).unwrap_or_default(),
                        weapon_label,
                        upgrade_value: super::options::upgrade_value(cat, &e.upgrades),
                        upgrades_label: upgrades.join(" + "),
                        points: report
                            .points
                            .by_element
                            .iter()
                            .find(|p| p.path == path)
                            .map(|p| p.points)
                            .unwrap_or(0),
                        note: e.note.clone().unwrap_or_default(),
                        findings: all
                            .iter()
                            .filter(|(fg, fe, _)| *fg == Some(gi) && *fe == Some(ei))
                            .map(|(_, _, f)| f.clone())
                            .collect(),
                    }
                })
                .collect(),
        })
        .collect();
    let errors = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    RosterView {
        name: doc.name.clone(),
        war_id: doc.war.id(),
        war_label: cat
            .war(doc.war)
            .map(|w| w.name.clone())
            .unwrap_or_else(|| doc.war.label().into()),
        nation_id: doc.nation.id(),
        nation_label: cat
            .nation(doc.nation)
            .map(|n| n.name.clone())
            .unwrap_or_else(|| doc.nation.label().into()),
        mode_id: doc.mode.id(),
        mode_label: doc.mode.label(),
        // 0 is "no limit" (M-2: historical mode reads a missing limit or 0 so).
        limit: report.points.limit.filter(|&l| l > 0),
        total: report.points.total,
        legal: report.legal,
        errors,
        warnings: report.findings.len() - errors,
        force_commander: doc
            .force_commander
            .as_ref()
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        force_findings: all
            .iter()
            .filter(|(g, _, _)| g.is_none())
            .map(|(_, _, f)| f.clone())
            .collect(),
        findings: all.into_iter().map(|(_, _, f)| f).collect(),
        groups,
        element_count: doc.element_count(),
        saved_with: doc.catalogue_version.clone().unwrap_or_default(),
        checked_with: cat.version().to_string(),
    }
}
