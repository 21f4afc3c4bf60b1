//! The catalogue as plain-text tables (`muster catalog`).

use std::fmt::Write as _;

use super::Catalogue;
use crate::rules::systems::lotf::types::ElementType;

impl Catalogue {
    /// Human-readable tables for `muster catalog`.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} catalogue {}", self.meta.title, self.meta.version);
        let _ = writeln!(s);
        let _ = writeln!(s, "ELEMENT STATISTICS");
        for t in &self.element_types {
            let weapons: Vec<&str> = t.weapons.iter().map(|w| w.id()).collect();
            let _ = writeln!(s, "{} (weapons: {})", t.name, weapons.join(", "));
            let _ = writeln!(
                s,
                "  {:<8} {:>8} {:>6} {:>10} {:>6} {:>6} {:>6}",
                "size", "maneuver", "combat", "discipline", "morale", "action", "points"
            );
            for r in &t.sizes {
                let _ = writeln!(
                    s,
                    "  {:<8} {:>8} {:>6} {:>10} {:>5}+ {:>6} {:>6}",
                    r.size.id(),
                    r.maneuver,
                    r.combat,
                    r.discipline,
                    r.morale,
                    r.action,
                    r.points
                );
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "WEAPONS");
        for w in &self.weapons {
            let range = match w.min_range {
                Some(min) => format!("{min}\"-{}\"", w.range),
                None => format!("{}\"", w.range),
            };
            let wars = match &w.wars {
                Some(ws) => {
                    let v: Vec<&str> = ws.iter().map(|w| w.label()).collect();
                    format!(" ({} only)", v.join(", "))
                }
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "  {:<28} {:>9} {:>+4} pts{}",
                w.name, range, w.points, wars
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "UPGRADES (one per element; Hessians + Grenadiers together; capped ones: at most {}% of the force's elements each)",
            self.cap_percent
        );
        for u in &self.upgrades {
            let types: Vec<&str> = u.types.iter().map(|t| t.id()).collect();
            let mut restr = types.join("/");
            if let Some(sizes) = &u.sizes {
                let v: Vec<&str> = sizes.iter().map(|x| x.id()).collect();
                restr.push_str(&format!(", {} only", v.join("/")));
            }
            if u.cap {
                restr.push_str(&format!(", max {}%", self.cap_percent));
            }
            let first_type = u.types.first().copied().unwrap_or(ElementType::Infantry);
            let effective = self.upgrade_formations(u.id, first_type);
            let all = self
                .element_type(first_type)
                .map(|d| d.formations.clone())
                .unwrap_or_default();
            let forms = if effective == all {
                "any".to_string()
            } else {
                let v: Vec<&str> = effective.iter().map(|x| x.label()).collect();
                let mut s = v.join(", ");
                if u.formations.is_none() {
                    s.push_str(" (never Battle Line, R-9)");
                }
                s
            };
            let skills: Vec<&str> = u
                .skills
                .iter()
                .map(|id| self.skill(id).map(|k| k.name.as_str()).unwrap_or(id))
                .collect();
            let _ = writeln!(s, "  {:<24} {:>+4} pts  {}", u.name, u.points, restr);
            let _ = writeln!(
                s,
                "      formations: {forms}; skills: {}",
                skills.join(", ")
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "SPECIAL SKILLS");
        for k in &self.skills {
            let _ = writeln!(s, "  {:<22} {}", k.name, k.summary);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "COMMANDER RATINGS ({})", self.commanders.rating_die);
        for r in &self.commanders.ratings {
            let roll = if r.roll_min == r.roll_max {
                r.roll_min.to_string()
            } else {
                format!("{}-{}", r.roll_min, r.roll_max)
            };
            let _ = writeln!(
                s,
                "  {:<4} {:<15} morale {:>2}  SPI {:>2}\"  CP {}",
                roll, r.name, r.morale, r.spi, r.command_points
            );
        }
        let t = &self.tables;
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "SHOOTING: {}; hits on {}+",
            t.shooting.dice, t.shooting.to_hit
        );
        for m in &t.shooting.modifiers {
            let _ = writeln!(s, "  {:>+3} dice  {}", m.dice, m.condition);
        }
        for x in &t.shooting.special {
            let _ = writeln!(s, "  {}: {}", x.name, x.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "MELEE DICE (2 + Action dice + modifiers, hits on {}+)",
            t.melee.to_hit
        );
        for m in &t.melee.dice_modifiers {
            let _ = writeln!(s, "  {:>+3} dice  {}", m.dice, m.condition);
        }
        for m in &t.melee.support {
            let _ = writeln!(s, "  {}: {}", m.condition, m.dice);
        }
        let _ = writeln!(s, "MELEE RESULT");
        for m in &t.melee.resolution_modifiers {
            let _ = writeln!(s, "  {:>+3}  {}", m.value, m.condition);
        }
        let _ = writeln!(s, "CHARGE REACTIONS");
        for c in &t.charge_reactions {
            let _ = writeln!(s, "  {:<17} {}", c.name, c.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "MORALE: {}", t.morale.roll);
        for k in &t.morale.test_kinds {
            let _ = writeln!(
                s,
                "  {}: when {}; on failure: {}",
                k.name,
                k.when.join(", "),
                k.failure
            );
        }
        for m in &t.morale.modifiers {
            let _ = writeln!(s, "  {:>+3}  {}", m.value, m.condition);
        }
        let _ = writeln!(s, "DISCIPLINE LEVELS");
        for l in &t.discipline_levels {
            let _ = writeln!(s, "  {:<10} {}", l.name, l.effects.join("; "));
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "ORDERS");
        for o in &t.orders {
            let _ = writeln!(
                s,
                "  {}: maneuver: {}",
                o.element_type.label(),
                o.maneuver.join("; ")
            );
            let _ = writeln!(
                s,
                "  {}: combat: {}",
                o.element_type.label(),
                o.combat.join("; ")
            );
        }
        let _ = writeln!(s, "TURN SEQUENCE");
        for (i, step) in t.turn_sequence.iter().enumerate() {
            let _ = writeln!(s, "  {}. {}", i + 1, step);
        }
        let _ = writeln!(s, "TERRAIN");
        for x in &t.terrain {
            let _ = writeln!(s, "  {} / {}: {}", x.terrain, x.who, x.effect);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "VICTORY POINTS: {}", t.victory_points.formula);
        for l in &t.victory_points.levels {
            let when = match l.above_percent {
                Some(p) => format!("more than {p}%"),
                None => "no difference".into(),
            };
            let _ = writeln!(s, "  {:<17} {}:{}  {}", l.name, l.winner, l.loser, when);
        }
        let _ = writeln!(
            s,
            "SCENARIOS (2d6, game length {} turns)",
            t.game_length_turns
        );
        for r in &t.scenario_table {
            let roll = if r.roll_min == r.roll_max {
                r.roll_min.to_string()
            } else {
                format!("{}-{}", r.roll_min, r.roll_max)
            };
            let name = t
                .scenarios
                .iter()
                .find(|x| x.id == r.scenario)
                .map(|x| x.name.as_str())
                .unwrap_or(r.scenario.as_str());
            let _ = writeln!(s, "  {roll:<6} {name}");
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "HISTORICAL ELEMENT LISTS");
        for w in &self.wars {
            let _ = writeln!(s, "{} ({})", w.name, w.years);
            for nl in &w.nations {
                let nation = self
                    .nation(nl.nation)
                    .map(|n| n.name.as_str())
                    .unwrap_or(nl.nation.id());
                let _ = writeln!(s, "  {nation}");
                for e in &nl.entries {
                    let mut sugg: Vec<String> = e
                        .upgrades
                        .iter()
                        .map(|u| self.upgrade(*u).map(|d| d.name.clone()).unwrap_or_default())
                        .collect();
                    if let Some(g) = &e.gun_classes {
                        let v: Vec<&str> = g.iter().map(|x| x.label()).collect();
                        sugg.push(format!("gun class: {}", v.join(" / ")));
                    }
                    let sugg = if sugg.is_empty() {
                        "standard".to_string()
                    } else {
                        sugg.join(" + ")
                    };
                    let _ = writeln!(s, "    {:<62} {:<9} {}", e.name, e.element_type.id(), sugg);
                }
            }
        }
        s
    }
}
