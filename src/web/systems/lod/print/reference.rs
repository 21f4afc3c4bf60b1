//! The Liberty or Death! quick reference, its numbers drawn from the catalogue; the template
//! words them in Muster's own language.

use super::cards::{movement_lines, MoveLine};
use crate::rules::systems::lod::catalogue::OrderData;
use crate::rules::systems::lod::types::{HalfDice, HitState};
use crate::rules::systems::lod::Catalogue;

pub struct KindRow {
    pub name: String,
    pub base: String,
    pub figures: String,
    /// "3: 6/12/18" per row of the sizes table.
    pub sizes: Vec<String>,
    pub shooting: String,
    pub melee: String,
    pub supporting: String,
}

pub struct WeaponRow {
    pub name: String,
    pub short: String,
    pub effective: String,
    pub long: String,
    pub hit: String,
}

pub struct QualityRow {
    pub name: String,
    pub shooting: String,
    pub melee: String,
    pub one: String,
    pub two: String,
}

pub struct OrderRow {
    pub name: String,
    pub steady: String,
    pub worn: String,
    pub shaken: String,
    pub shoots: &'static str,
}

pub struct MoraleRow {
    pub state: &'static str,
    pub failed_melee: &'static str,
    pub failed_other: &'static str,
    pub passed_melee: &'static str,
    pub passed_other: &'static str,
}

pub struct MoveRow {
    pub kind: String,
    pub line: MoveLine,
}

pub struct Line {
    pub name: String,
    pub text: String,
}

pub struct Reference {
    pub version: String,
    pub kinds: Vec<KindRow>,
    pub weapons: Vec<WeaponRow>,
    pub canister: String,
    pub qualities: Vec<QualityRow>,
    pub test_dice: [u32; 3],
    pub orders: Vec<OrderRow>,
    pub charge_grades: Vec<Line>,
    pub triggers: Vec<Line>,
    pub morale: Vec<MoraleRow>,
    pub shooting_mods: Vec<Line>,
    pub shooting_min: String,
    pub melee_mods: Vec<Line>,
    pub melee_min: String,
    pub movement: Vec<MoveRow>,
    pub rules: Vec<Line>,
    pub actions: Vec<Line>,
    /// "0–5" → Draw and so on (4.7).
    pub bands: Vec<Line>,
}

fn signed(h: HalfDice) -> String {
    if h.0 > 0 {
        format!("+{h}")
    } else {
        h.to_string()
    }
}

fn inches(band: [u32; 2]) -> String {
    format!("{}–{}\"", band[0], band[1])
}

fn faces(list: &[u8]) -> String {
    list.iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn order_cell(o: &OrderData, state: HitState, dice: u32) -> String {
    if !o.allowed(state) {
        return "not allowed".to_string();
    }
    match o.need(state) {
        None => "auto".to_string(),
        Some(_) if o.graded => format!("{dice}D6, graded"),
        Some(n) => format!("{dice}D6, need {n}"),
    }
}

pub fn build(cat: &Catalogue) -> Reference {
    let t = &cat.tables;
    let kinds = cat
        .kinds
        .iter()
        .map(|k| KindRow {
            name: k.name.clone(),
            base: format!("{}×{}", k.base_mm[0], k.base_mm[1]),
            figures: if k.figures_per_base == 1 {
                format!("1 {}", k.figure_word.trim_end_matches('s'))
            } else {
                format!("{} {}", k.figures_per_base, k.figure_word)
            },
            sizes: k
                .sizes
                .iter()
                .map(|s| format!("{}: {}/{}/{}", s.bases, s.worn, s.shaken, s.auto_broken))
                .collect(),
            shooting: k.dice.shooting.to_string(),
            melee: k.dice.melee.to_string(),
            supporting: if k.dice.supporting_melee.0 == 0 {
                "—".to_string()
            } else {
                k.dice.supporting_melee.to_string()
            },
        })
        .collect();
    let weapons = cat
        .weapons
        .iter()
        .map(|w| WeaponRow {
            name: w.name.clone(),
            short: inches(w.short),
            effective: inches(w.effective),
            long: inches(w.long),
            hit: w
                .explodes
                .map_or("1".to_string(), |d| d.label().to_string()),
        })
        .collect();
    let qualities = cat
        .qualities
        .iter()
        .map(|q| QualityRow {
            name: q.name.clone(),
            shooting: format!("{}+", q.shooting_to_hit),
            melee: format!("{}+", q.melee_to_hit),
            one: faces(&q.one_success),
            two: faces(&q.two_successes),
        })
        .collect();
    let d = &t.test_dice;
    let orders = t
        .orders
        .iter()
        .map(|o| OrderRow {
            name: o.name.clone(),
            steady: order_cell(o, HitState::Steady, d.steady),
            worn: order_cell(o, HitState::Worn, d.worn),
            shaken: order_cell(o, HitState::Shaken, d.shaken),
            shoots: if o.may_shoot { "yes" } else { "no" },
        })
        .collect();
    let top = t.charge_grades.iter().map(|g| g.successes).max();
    let charge_grades = t
        .charge_grades
        .iter()
        .map(|g| Line {
            name: if Some(g.successes) == top {
                format!("{}+", g.successes)
            } else {
                g.successes.to_string()
            },
            text: g.grade.label().to_string(),
        })
        .collect();
    let triggers = t
        .morale_triggers
        .iter()
        .map(|tr| Line {
            name: tr.name.clone(),
            text: format!(
                "{} success{}{}",
                tr.need,
                if tr.need == 1 { "" } else { "es" },
                if tr.melee { " (melee column)" } else { "" }
            ),
        })
        .collect();
    let r = &t.morale_results;
    let morale = [("STEADY", r.steady), ("WORN", r.worn), ("SHAKEN", r.shaken)]
        .into_iter()
        .map(|(state, row)| MoraleRow {
            state,
            failed_melee: row.failed_melee.label(),
            failed_other: row.failed_other.label(),
            passed_melee: row.passed_melee.label(),
            passed_other: row.passed_other.label(),
        })
        .collect();
    let s = &t.shooting_modifiers;
    let line = |name: &str, h: HalfDice| Line {
        name: name.to_string(),
        text: signed(h),
    };
    let shooting_mods = vec![
        line("target enfiladed", s.enfiladed),
        line("target at SHORT range", s.short_range),
        line(
            "target is skirmishers or unlimbered guns",
            s.target_skirmishers_or_unlimbered_artillery,
        ),
        line("firer WORN", s.shooter_worn),
        line("target at LONG range", s.long_range),
        line("target obscured", s.obscured),
        line("target in cover or behind an obstacle", s.cover),
        line("firer SHAKEN", s.shooter_shaken),
    ];
    let m = &t.melee_modifiers;
    let melee_mods = vec![
        line("charged in (first round only, L-33)", m.charging),
        line("against the enemy's rear", m.against_rear),
        line("against the enemy's flank", m.against_flank),
        line(
            "cavalry against foot in the open (L-25)",
            m.cavalry_v_infantry_in_open,
        ),
        line("enemy defending an obstacle", m.enemy_defending_obstacle),
        line("enemy uphill", m.enemy_uphill),
        line("DISORDERED", m.disordered),
        line("WORN", m.worn),
        line(
            "foot against cavalry in the open (L-25)",
            m.infantry_v_cavalry_in_open,
        ),
        line("SHAKEN", m.shaken),
    ];
    let movement = cat
        .kinds
        .iter()
        .flat_map(|k| {
            movement_lines(cat, k.id, false)
                .into_iter()
                .map(|line| MoveRow {
                    kind: k.name.clone(),
                    line,
                })
        })
        .collect();
    Reference {
        version: cat.version().to_string(),
        kinds,
        weapons,
        canister: format!(
            "{}: every hit becomes {}",
            inches(cat.canister.range),
            cat.canister.explodes.label()
        ),
        qualities,
        test_dice: [d.steady, d.worn, d.shaken],
        orders,
        charge_grades,
        triggers,
        morale,
        shooting_mods,
        shooting_min: s.minimum_per_base.to_string(),
        melee_mods,
        melee_min: m.minimum_per_base.to_string(),
        movement,
        rules: cat
            .special_rules
            .iter()
            .map(|r| Line {
                name: r.name.clone(),
                text: r.summary.clone(),
            })
            .collect(),
        bands: {
            let mut from = 0;
            t.victory
                .bands
                .iter()
                .map(|b| {
                    let name = match b.up_to {
                        Some(to) => format!("{from}–{to}"),
                        None => format!("{from}+"),
                    };
                    from = b.up_to.map_or(from, |to| to + 1);
                    Line {
                        name,
                        text: b.band.label().to_string(),
                    }
                })
                .collect()
        },
        actions: t
            .command_actions
            .iter()
            .map(|a| Line {
                name: a.name.clone(),
                text: a.summary.clone(),
            })
            .collect(),
    }
}
