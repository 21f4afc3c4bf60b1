//! The plain-text export for forums and e-mail.

use super::view::RosterView;

pub fn render(view: &RosterView) -> String {
    let mut out = String::new();
    let limit = view.limit.map(|l| format!(" / {l}")).unwrap_or_default();
    out.push_str(&format!("{}\n", view.name));
    out.push_str(&format!(
        "{}, {} — {} points{} ({})\n",
        view.war_label,
        view.nation_label,
        view.total,
        limit,
        view.mode_label.to_lowercase()
    ));
    if !view.force_commander.is_empty() {
        out.push_str(&format!("Force Commander: {}\n", view.force_commander));
    }
    for g in &view.groups {
        let title = if g.name.is_empty() {
            format!("Group {}", g.number)
        } else {
            g.name.clone()
        };
        let commander = if g.commander.is_empty() {
            String::new()
        } else {
            format!(" — {}", g.commander)
        };
        out.push_str(&format!("\n{title}{commander} ({} pts)\n", g.points));
        for e in &g.elements {
            let upgrades = if e.upgrades_label.is_empty() {
                String::new()
            } else {
                format!(", {}", e.upgrades_label)
            };
            out.push_str(&format!(
                "  - {}: {} {}, {}{} — {} pts\n",
                if e.name.is_empty() {
                    "(unnamed)"
                } else {
                    &e.name
                },
                e.size_label.to_lowercase(),
                e.type_label.to_lowercase(),
                e.weapon_label,
                upgrades,
                e.points
            ));
        }
    }
    out.push_str(&format!("\nTotal: {} points{}\n", view.total, limit));
    if view.legal {
        out.push_str("Legal under Land of the Free");
    } else {
        out.push_str(&format!("NOT LEGAL: {} error(s)", view.errors));
    }
    if view.warnings > 0 {
        out.push_str(&format!(", {} warning(s)", view.warnings));
    }
    out.push('\n');
    for f in &view.findings {
        out.push_str(&format!("  [{}] {}\n", f.severity, f.message));
    }
    out.push_str(&format!(
        "Checked with catalogue {} by Muster.\n",
        view.checked_with
    ));
    out
}
