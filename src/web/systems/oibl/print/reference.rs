//! The One if by Land quick reference (spec section 6), its numbers drawn from the catalogue;
//! the template words them in Muster's own language.

use crate::rules::systems::oibl::catalogue::{Catalogue, Modifier, Wound};

/// A line of a two-column table: words and a value.
pub struct Line {
    pub text: String,
    pub value: String,
}

pub struct TableRow {
    /// "2–3".
    pub figures: String,
    pub cells: Vec<u32>,
}

pub struct QualityRow {
    pub name: String,
    pub morale_number: i32,
    /// "no modifier" or "−2".
    pub fire: String,
}

pub struct MoveRow {
    pub words: String,
    /// `1d6+2"`.
    pub variable: String,
    pub fixed: String,
}

pub struct GunRow {
    pub name: String,
    pub calibre: String,
    pub figures: u32,
    pub crew: u32,
}

pub struct ClassRow {
    pub name: String,
    pub basing: String,
    pub formations: String,
}

pub struct BasingRow {
    pub name: String,
    pub figures: u32,
    pub size: String,
}

pub struct Reference {
    pub version: String,
    pub crew_men: u32,
    pub mdr_columns: Vec<i32>,
    pub table_rows: Vec<TableRow>,
    pub max_mdr: i32,
    pub chunk: u32,
    pub min_figures: u32,
    pub qualities: Vec<QualityRow>,
    pub fire_mods: Vec<Line>,
    pub melee_mods: Vec<Line>,
    pub morale_mods: Vec<Line>,
    pub movement: Vec<MoveRow>,
    pub road: String,
    pub charge: String,
    pub militia_retreat: String,
    pub obstacle: String,
    pub about_face: String,
    pub weapons: Vec<Line>,
    pub guns: Vec<GunRow>,
    pub point_blank: String,
    pub cannon_short_below: String,
    pub cannon_medium_to: String,
    pub cannon_long_to: String,
    pub cannon_medium_mod: String,
    pub cannon_long_mod: String,
    pub counter_battery: String,
    pub counter_battery_chance: String,
    pub rating_min: i32,
    pub rating_max: i32,
    pub rating_default: i32,
    pub rating_roll: String,
    pub risk_hits_per_die: u32,
    pub risk_trigger: u32,
    pub wounds: String,
    pub turns: u32,
    pub lost_share: String,
    pub classes: Vec<ClassRow>,
    pub basings: Vec<BasingRow>,
    pub rulings: Vec<Line>,
}

/// A modifier with its sign: "+2", "−4", "0".
pub fn signed(value: i32) -> String {
    match value {
        v if v > 0 => format!("+{v}"),
        v if v < 0 => format!("−{}", -v),
        _ => "0".to_string(),
    }
}

/// Inches as the rules print them: whole numbers without a decimal point.
pub fn inches(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}\"")
    } else {
        format!("{value}\"")
    }
}

fn signed_inches(value: f64) -> String {
    if value < 0.0 {
        format!("−{}", inches(-value))
    } else {
        format!("+{}", inches(value))
    }
}

fn lines(mods: &[Modifier]) -> Vec<Line> {
    mods.iter()
        .map(|m| Line {
            text: m.words.clone(),
            value: if m.id == "commander_with_unit" {
                "−X".to_string()
            } else {
                signed(m.value)
            },
        })
        .collect()
}

/// "1 → 0, 2–5 → 1, 6 → 2": runs of d6 faces giving the same rating.
pub fn rating_roll(roll: &[i32]) -> String {
    let mut parts = Vec::new();
    let mut start = 0;
    while start < roll.len() {
        let mut end = start;
        while end + 1 < roll.len() && roll[end + 1] == roll[start] {
            end += 1;
        }
        let faces = if end == start {
            (start + 1).to_string()
        } else {
            format!("{}–{}", start + 1, end + 1)
        };
        parts.push(format!("{faces} → {}", roll[start]));
        start = end + 1;
    }
    parts.join(", ")
}

fn wound_words(w: Wound) -> &'static str {
    match w {
        Wound::Light => "light wound",
        Wound::Serious => "serious wound",
        Wound::Killed => "killed",
    }
}

/// "1–2 light wound, 3–4 serious wound, 5–6 killed".
pub fn wounds(table: &[Wound]) -> String {
    let mut parts = Vec::new();
    let mut start = 0;
    while start < table.len() {
        let mut end = start;
        while end + 1 < table.len() && table[end + 1] == table[start] {
            end += 1;
        }
        let faces = if end == start {
            (start + 1).to_string()
        } else {
            format!("{}–{}", start + 1, end + 1)
        };
        parts.push(format!("{faces} {}", wound_words(table[start])));
        start = end + 1;
    }
    parts.join(", ")
}

/// "8 or 9".
pub fn faces(list: &[u32]) -> String {
    match list {
        [] => "nothing".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!(
            "{} or {last}",
            rest.iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The rulings the reference relies on, one line each in Muster's words.
const RULINGS: &[(&str, &str)] = &[
    ("B-1", "the d10 reads 0–9"),
    ("B-2", "how to read the Combat Table at its edges"),
    ("B-3", "one roll per unit and target; combining fire"),
    ("B-4", "fire modifiers add up; column or mounted once"),
    ("B-5", "cannon range bands"),
    ("B-6", "counter-battery roll"),
    ("B-7", "crew per gun"),
    ("B-8", "commander rating X"),
    ("B-9", "worst loss band only"),
    ("B-10", "failing by 1 or by 2 or more"),
    ("B-11", "Indians' extra quality steps"),
    ("B-12", "when Panic Markers are tested and removed"),
    ("B-13", "failed charge declaration"),
    ("B-14", "charged defender's test"),
    ("B-15", "closing test"),
    ("B-16", "charge reach"),
    ("B-17", "figures that fight each melee round"),
    ("B-18", "melee modifiers"),
    ("B-19", "melee modifiers fixed for both rounds"),
    ("B-20", "who wins a melee"),
    ("B-21", "cavalry against foot: one round"),
    ("B-23", "failed by 1 lasts while the marker stays"),
    ("B-26", "road and charge bonus with rolled moves"),
    ("B-27", "move or fire"),
    ("B-28", "infantry columns charge only defiles"),
    ("B-29", "the brigade deck"),
    ("B-30", "skirmishers evading a charge"),
    ("B-31", "6+ figures fired at Poor or Wretched"),
    ("B-32", "risk to generals"),
    ("B-33", "when a unit is destroyed"),
    ("B-34", "army morale: half the units lost"),
    ("B-35", "game length and marginal victory"),
    ("B-40", "converged light infantry skirmish freely"),
    ("B-41", "discharged Continentals"),
    ("B-44", "mounted cavalry do not fire"),
    ("B-45", "rounding of half fire"),
];

/// The formations of a class in words: its own, then what a scenario may grant in brackets.
pub fn class_formations(cat: &Catalogue, class: &str) -> String {
    let Some(c) = cat.class(class) else {
        return String::new();
    };
    let own: Vec<&str> = c.formations.iter().map(|f| f.words()).collect();
    let granted: Vec<&str> = c.authorizable.iter().map(|f| f.words()).collect();
    if granted.is_empty() {
        own.join(", ")
    } else {
        format!("{} (+ {})", own.join(", "), granted.join(", "))
    }
}

pub fn build(cat: &Catalogue) -> Reference {
    let ct = &cat.combat_table;
    let bonus = &cat.movement_bonus;
    let bands = &cat.cannon_bands;
    let share = |num: u32, den: u32| match (num, den) {
        (1, 2) => "half".to_string(),
        (1, 3) => "a third".to_string(),
        (n, d) => format!("{n}/{d}"),
    };
    Reference {
        version: cat.version().to_string(),
        crew_men: 5,
        mdr_columns: (0..=ct.max_mdr).collect(),
        table_rows: ct
            .rows
            .iter()
            .map(|r| TableRow {
                figures: format!("{}–{}", r.min, r.max),
                cells: r.cells.clone(),
            })
            .collect(),
        max_mdr: ct.max_mdr,
        chunk: ct.chunk,
        min_figures: cat.destroyed_below,
        qualities: cat
            .qualities
            .iter()
            .map(|q| QualityRow {
                name: q.name.clone(),
                morale_number: q.morale_number,
                fire: if q.fire_modifier == 0 {
                    "no modifier".to_string()
                } else {
                    signed(q.fire_modifier)
                },
            })
            .collect(),
        fire_mods: lines(&cat.fire_modifiers),
        melee_mods: lines(&cat.melee_modifiers),
        morale_mods: lines(&cat.morale_modifiers),
        movement: cat
            .movement
            .iter()
            .map(|m| MoveRow {
                words: m.words.clone(),
                variable: if m.die {
                    format!("1d6+{}", inches(m.base))
                } else {
                    inches(m.base)
                },
                fixed: inches(m.fixed),
            })
            .collect(),
        road: signed_inches(bonus.road),
        charge: signed_inches(bonus.charge),
        militia_retreat: signed_inches(bonus.militia_retreat),
        obstacle: signed_inches(bonus.obstacle),
        about_face: signed_inches(bonus.about_face),
        weapons: cat
            .weapons
            .iter()
            .map(|w| Line {
                text: w.name.clone(),
                value: inches(w.range),
            })
            .collect(),
        guns: cat
            .guns
            .iter()
            .map(|g| GunRow {
                name: g.name.clone(),
                calibre: g.calibre.clone(),
                figures: g.figures,
                crew: g.default_crew,
            })
            .collect(),
        point_blank: format!("{}", cat.point_blank),
        cannon_short_below: format!("{}", bands.short_below),
        cannon_medium_to: format!("{}", bands.medium_to),
        cannon_long_to: format!("{}", bands.long_to),
        cannon_medium_mod: signed(cat.fire_mod("cannon_12_25")),
        cannon_long_mod: signed(cat.fire_mod("cannon_over_25")),
        counter_battery: faces(&cat.counter_battery.destroys_on),
        counter_battery_chance: format!("{} in 10", cat.counter_battery.destroys_on.len()),
        rating_min: cat.commander_rating.min,
        rating_max: cat.commander_rating.max,
        rating_default: cat.commander_rating.default,
        rating_roll: rating_roll(&cat.commander_rating.roll),
        risk_hits_per_die: cat.general_risk.hits_per_die,
        risk_trigger: cat.general_risk.trigger,
        wounds: wounds(&cat.general_risk.wounds),
        turns: cat.victory.turns,
        lost_share: share(cat.victory.lost_share_num, cat.victory.lost_share_den),
        classes: cat
            .classes
            .iter()
            .map(|c| ClassRow {
                name: c.name.clone(),
                basing: cat
                    .basing(&c.basing)
                    .map_or_else(|| c.basing.clone(), |b| b.name.clone()),
                formations: class_formations(cat, &c.id),
            })
            .collect(),
        basings: cat
            .basings
            .iter()
            .map(|b| BasingRow {
                name: b.name.clone(),
                figures: b.figures_per_stand,
                size: format!("{} × {}", inches(b.stand[0]), inches(b.stand[1])),
            })
            .collect(),
        rulings: RULINGS
            .iter()
            .map(|(id, gist)| Line {
                text: (*id).to_string(),
                value: (*gist).to_string(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_roll_reads_as_runs_of_faces() {
        // B-8: d6 1 → 0, 2–5 → 1, 6 → 2.
        assert_eq!(rating_roll(&[0, 1, 1, 1, 1, 2]), "1 → 0, 2–5 → 1, 6 → 2");
        assert_eq!(
            wounds(&[
                Wound::Light,
                Wound::Light,
                Wound::Serious,
                Wound::Serious,
                Wound::Killed,
                Wound::Killed
            ]),
            "1–2 light wound, 3–4 serious wound, 5–6 killed"
        );
        assert_eq!(faces(&[8, 9]), "8 or 9");
        assert_eq!(signed(-4), "−4");
        assert_eq!(inches(1.5), "1.5\"");
        assert_eq!(inches(12.0), "12\"");
    }
}
