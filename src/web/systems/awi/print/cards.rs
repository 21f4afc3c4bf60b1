//! Unit cards (spec section 6): one per unit, since each carries its own figure tally. Every
//! number comes from the catalogue: figures and men per base, ranges by band, firing dice (per
//! base, or by gunners for a gun), the score to hit and each grade's terms, movement rates and
//! manoeuvre costs, morale dice; the half-strength mark and the 10 % / 20 % steps come from the
//! validator (W-3), as the rules core reads them.

use crate::rules::systems::awi::catalogue::{Band, Catalogue, Fires, GradeData};
use crate::rules::systems::awi::roster::{RosterDoc, UnitSpec};
use crate::rules::systems::awi::types::{Grade, GunClass, MoveRow, TroopType};
use crate::rules::systems::awi::validate::{self, Report};
use crate::web::pages::print::names_within;

/// "+1", "−2", "0" (a true minus sign, as the rules print it).
pub fn signed(v: i32) -> String {
    match v {
        0 => "0".into(),
        v if v > 0 => format!("+{v}"),
        v => format!("−{}", v.unsigned_abs()),
    }
}

/// A weapon's bands: "close 0–4", long 4–8"" (each figure the band's upper limit, W-18).
pub fn bands_text(bands: &[Band]) -> String {
    let mut from = 0;
    let mut parts = Vec::new();
    for b in bands {
        parts.push(format!(
            "{} {from}–{}\"",
            b.band.label().to_lowercase(),
            b.to
        ));
        from = b.to;
    }
    parts.join(", ")
}

/// One base's figures on the tally, with what losing the whole base costs.
#[derive(Debug, Clone)]
pub struct BaseGroup {
    /// Figure boxes on the base (gunner figures for a gun: one a group).
    pub figures: u32,
    /// One entry a figure box, for the template.
    pub boxes: Vec<u32>,
    /// 10 % steps once this base is lost (−1 each on morale and uncontrolled tests).
    pub tens: u32,
    /// 20 % steps once this base is lost (−1 each on the Entering Melee Test).
    pub twenties: u32,
    /// Losing this base leaves the unit at or below half strength (first such base).
    pub half: bool,
}

#[derive(Debug, Clone)]
pub struct MoveLine {
    pub label: String,
    pub normal: String,
    pub charge: String,
    pub pursuit: String,
    pub rout: String,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub name: String,
    pub icon: &'static str,
    pub kind_name: String,
    /// "Trained infantry · close order".
    pub type_line: String,
    /// "6 bases · 18 figures · 360 men · bases 45 × 20 mm".
    pub bases_line: String,
    pub tally: Vec<BaseGroup>,
    /// What a tally group stands for: "base" or "gunner".
    pub group_word: &'static str,
    pub arms: String,
    /// Dice when it fires, in words; empty for cavalry.
    pub fire: String,
    /// The score to hit when firing, before the situation's modifiers.
    pub fire_need: String,
    pub melee_need: String,
    pub melee: String,
    pub moves: Vec<MoveLine>,
    pub manoeuvre: String,
    pub morale: String,
    /// Grade terms of the other tests.
    pub tests: String,
    pub command: String,
    /// Close-order infantry fire a first volley once (W-20).
    pub first_volley: bool,
}

fn move_rows(spec: &UnitSpec) -> Vec<MoveRow> {
    match spec.troop_type {
        TroopType::Infantry => vec![MoveRow::InfantryLine, MoveRow::InfantryColumn],
        TroopType::Skirmishers => vec![MoveRow::Skirmishers],
        TroopType::Cavalry => vec![MoveRow::Cavalry],
        TroopType::Artillery => vec![
            MoveRow::LimberedArtillery,
            match spec.gun {
                Some(GunClass::Medium) => MoveRow::ManHandledMedium,
                _ => MoveRow::ManHandledLight,
            },
        ],
    }
}

fn inches(v: Option<u32>) -> String {
    v.map_or_else(|| "—".into(), |n| format!("{n}\""))
}

fn need(base: i32, term: i32) -> String {
    format!("{}+", base + term)
}

fn grade_terms(g: &GradeData) -> String {
    format!(
        "uncontrolled move test {}, Entering Melee Test {}, losers test {}",
        signed(g.uncontrolled),
        signed(g.entering),
        signed(g.losers)
    )
}

fn card(
    cat: &Catalogue,
    report: &Report,
    path: &str,
    name: &str,
    spec: &UnitSpec,
    command: String,
) -> Card {
    let t = cat.troop(spec.troop_type);
    let g = cat.grade(spec.grade);
    let derived = report.units.iter().find(|u| u.path == path);
    let start = spec.start_bases();
    let is_gun = spec.troop_type == TroopType::Artillery;
    let half_after = start - start / 2;
    let tally = (1..=start)
        .map(|k| {
            let (tens, twenties) = derived
                .and_then(|d| d.steps.get(k as usize - 1).copied())
                .unwrap_or_else(|| validate::dead_steps(k, start));
            let figures = if is_gun { 1 } else { t.figures_per_base };
            BaseGroup {
                figures,
                boxes: (1..=figures).collect(),
                tens,
                twenties,
                half: k == half_after,
            }
        })
        .collect();
    let figures = derived.map_or(spec.figures(t.figures_per_base), |d| d.figures);
    let men = derived.map_or(cat.men(spec.troop_type, spec.bases), |d| d.men);
    let bases_line = if is_gun {
        format!(
            "1 gun · {} gunner{} (each one piece of the battery) · base {} × {} mm",
            spec.gunners,
            if spec.gunners == 1 { "" } else { "s" },
            t.base_mm[0],
            t.base_mm[1]
        )
    } else {
        format!(
            "{} base{} · {figures} figures · {men} men · bases {} × {} mm",
            spec.bases,
            if spec.bases == 1 { "" } else { "s" },
            t.base_mm[0],
            t.base_mm[1]
        )
    };
    let order = if is_gun {
        "guns"
    } else if t.close_order {
        "close order"
    } else {
        "open order"
    };
    let arms = super::super::view::arms_label(cat, spec);
    let fire = match t.fires {
        Fires::PerBase => match spec.troop_type {
            TroopType::Infantry => {
                "1D10 a base in the front rank: every base in line, the 2 front bases in column"
                    .to_string()
            }
            _ => "1D10 a base, every base".to_string(),
        },
        Fires::Gun => format!(
            "{}D10 now ({} gunners); {}",
            cat.gun_dice_for(spec.gunners),
            spec.gunners,
            cat.gun_dice
                .iter()
                .map(|d| format!("{}–{}: {}D10", d.gunners_min, d.gunners_max, d.dice))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fires::None => String::new(),
    };
    let base = cat.hit.base_need;
    let melee = if is_gun {
        "A gun touching close-order infantry of its side fights as one more infantry base \
         (W-17); alone, its gunners are unsupported."
            .to_string()
    } else {
        "Elements: bases facing and touching the enemy, plus one overlapping base each side \
         (W-22)."
            .to_string()
    };
    let moves = move_rows(spec)
        .into_iter()
        .map(|row| {
            let m = cat.movement_row(row);
            MoveLine {
                label: row.label().to_string(),
                normal: inches(Some(m.normal)),
                charge: inches(m.charge()),
                pursuit: inches(m.pursuit),
                rout: inches(m.rout),
            }
        })
        .collect();
    let manoeuvre = match spec.troop_type {
        TroopType::Skirmishers => format!(
            "Change formation or face: {}.",
            cat.skirmisher_change_formation
        ),
        TroopType::Artillery => "Limber or unlimber: half a move (W-17).".to_string(),
        TroopType::Cavalry => format!("Change formation or face: {}.", g.change_formation),
        TroopType::Infantry => format!(
            "Change formation or face: {}; wheel: {}; incline: {}.",
            g.change_formation, g.wheel, g.incline
        ),
    };
    Card {
        name: names_within(&[name.to_string()], 44),
        icon: super::type_icon(spec.troop_type).id(),
        kind_name: spec.troop_type.label().to_string(),
        type_line: format!("{} {} · {order}", spec.grade.label(), spec.troop_type.id()),
        bases_line,
        tally,
        group_word: if is_gun { "gunner" } else { "base" },
        arms,
        fire,
        fire_need: need(base, g.firing_need),
        melee_need: need(base, g.melee_need),
        melee,
        moves,
        manoeuvre,
        morale: format!("{}, grade {}", g.morale_dice.label(), signed(g.morale)),
        tests: grade_terms(g),
        command,
        first_volley: spec.troop_type == TroopType::Infantry,
    }
}

/// The cards of an order of battle, one per unit that reads as one (a unit the validator
/// cannot read has no numbers to print; the sheet lists it with its findings).
pub fn build(cat: &Catalogue, doc: &RosterDoc) -> Vec<Card> {
    let report = validate::validate(cat, doc);
    let mut out = Vec::new();
    for (bi, brigade) in doc.brigades.iter().enumerate() {
        let title = if brigade.name.trim().is_empty() {
            format!("Brigade {}", bi + 1)
        } else {
            brigade.name.clone()
        };
        let brigadier = match &brigade.brigadier {
            None => "no brigadier".to_string(),
            Some(b) => {
                let who = if b.name.is_empty() {
                    "brigadier".to_string()
                } else {
                    b.name.clone()
                };
                match b.ability_value() {
                    Some(a) => format!("{who}, ability {a}"),
                    None => format!("{who}, ability ___"),
                }
            }
        };
        let command = format!("{title} · {brigadier}");
        for (ui, unit) in brigade.units.iter().enumerate() {
            let Some(spec) = unit.spec() else { continue };
            let name = if unit.name.trim().is_empty() {
                spec.troop_type.label().to_string()
            } else {
                unit.name.clone()
            };
            let path = format!("brigades[{bi}].units[{ui}]");
            out.push(card(cat, &report, &path, &name, &spec, command.clone()));
        }
    }
    out
}

/// The grades in their order, for the reference.
pub fn grade_rows(cat: &Catalogue) -> Vec<(Grade, &GradeData)> {
    Grade::ALL.iter().map(|g| (*g, cat.grade(*g))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::awi::roster::parse_roster;

    fn doc() -> RosterDoc {
        let text = r#"{"format": "muster.awi.oob/1", "name": "Test", "side": "British",
            "cinc": {"name": "Cornwallis"},
            "brigades": [{"name": "Webster", "brigadier": {"name": "Webster", "ability": 6},
              "units": [{"name": "33rd Foot", "type": "infantry", "grade": "trained", "bases": 6},
                        {"name": "3pdr", "type": "artillery", "grade": "militia", "gun": "light", "gunners": 3}]}]}"#;
        parse_roster(text).unwrap_or_default()
    }

    #[test]
    fn six_bases_of_infantry_carry_the_w3_steps_and_the_half_mark() {
        let cat = Catalogue::builtin().unwrap_or_else(|e| panic!("{e}"));
        let cards = build(&cat, &doc());
        assert_eq!(cards.len(), 2);
        let foot = &cards[0];
        assert_eq!(foot.tally.len(), 6);
        assert!(
            foot.tally.iter().all(|b| b.figures == 3),
            "3 figures a base"
        );
        // W-3: 6 bases, 1 lost = 16 % -> 1 ten-step, 0 twenty-steps; 2 lost = 33 % -> 3 and 1.
        assert_eq!((foot.tally[0].tens, foot.tally[0].twenties), (1, 0));
        assert_eq!((foot.tally[1].tens, foot.tally[1].twenties), (3, 1));
        // At or below half: 3 bases in action, after the third base is lost.
        assert!(foot.tally[2].half && !foot.tally[1].half && !foot.tally[3].half);
        assert!(foot.bases_line.contains("18 figures") && foot.bases_line.contains("360 men"));
        assert_eq!(foot.fire_need, "7+");
    }

    #[test]
    fn a_militia_gun_of_three_gunners_rolls_two_dice_needing_eight() {
        let cat = Catalogue::builtin().unwrap_or_else(|e| panic!("{e}"));
        let cards = build(&cat, &doc());
        let gun = &cards[1];
        assert_eq!(gun.tally.len(), 3, "one box a gunner");
        assert!(gun.fire.starts_with("2D10 now (3 gunners)"));
        assert_eq!(gun.fire_need, "8+", "militia +1 to the score needed");
        assert!(gun.arms.contains("canister 0–2\""));
    }
}
