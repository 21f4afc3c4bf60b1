//! Scenario set-up on the abstract battlefield (M-19, M-22): who deploys
//! where, who waits in reserve, objectives, terrain and each side's posture.

use super::board::{Posture, View, TABLE_DEPTH};
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::Side;
use crate::rules::systems::lotf::types::{ElementType, Formation};

fn place(v: &mut View, g: usize, y: f64) {
    for &i in &v.groups[g].units.clone() {
        let u = &mut v.units[i];
        if u.removed {
            continue;
        }
        u.on_table = true;
        u.y = y;
        u.start_y = y;
    }
}

fn reserve(v: &mut View, g: usize, turn: u32) {
    v.groups[g].arrives_turn = turn;
}

fn own_y(side: Side, from_edge: f64) -> f64 {
    match side {
        Side::Attacker => from_edge,
        Side::Defender => TABLE_DEPTH - from_edge,
    }
}

/// Deploy both forces for the scenario.
pub fn deploy(cat: &Catalogue, v: &mut View, _dice: &mut Dice) {
    let dep = f64::from(cat.numbers().deployment_inches) / 2.0;
    let reserves = u32::from(cat.numbers().reserves_default_turn);
    let groups_of = |v: &View, s: Side| -> Vec<usize> {
        (0..v.groups.len())
            .filter(|&g| v.groups[g].side == s)
            .collect()
    };
    let att = groups_of(v, Side::Attacker);
    let def = groups_of(v, Side::Defender);
    let mid = TABLE_DEPTH / 2.0;
    match v.scenario {
        ScenarioId::TakeTheField => {
            for &g in att.iter().chain(def.iter()) {
                let side = v.groups[g].side;
                place(v, g, own_y(side, dep));
            }
            v.objectives = vec![(0, mid), (2, mid)];
        }
        ScenarioId::Reconnoiter => {
            // Vanguard elements (and all-vanguard groups) start on the table;
            // the rest arrive from turn 1, a group a turn.
            for &g in att.iter().chain(def.iter()) {
                let side = v.groups[g].side;
                let units = v.groups[g].units.clone();
                let all_vanguard = units.iter().all(|&i| v.units[i].vanguard);
                if all_vanguard {
                    place(v, g, own_y(side, dep));
                } else {
                    for &i in &units {
                        if v.units[i].vanguard && !v.units[i].removed {
                            v.units[i].on_table = true;
                            v.units[i].y = own_y(side, dep);
                            v.units[i].start_y = v.units[i].y;
                        }
                    }
                    reserve(v, g, 1);
                }
            }
        }
        ScenarioId::HoldTheGround => {
            for &g in att.iter().chain(def.iter()) {
                reserve(v, g, 1);
            }
            v.objectives = vec![(0, mid), (1, mid), (2, mid)];
        }
        ScenarioId::FlankAttack => {
            // The attacker's flanking group: the one with most cavalry, the last on a tie (M-22).
            let flank = att.iter().copied().max_by_key(|&g| {
                (
                    v.groups[g]
                        .units
                        .iter()
                        .filter(|&&i| v.units[i].et == ElementType::Cavalry)
                        .count(),
                    g,
                )
            });
            for &g in att.iter().chain(def.iter()) {
                let side = v.groups[g].side;
                if Some(g) == flank && att.len() > 1 {
                    reserve(v, g, 3);
                    v.groups[g].entry_sector = 0;
                    v.groups[g].entry_y = Some(TABLE_DEPTH - 18.0);
                    v.groups[g].flank_entry = true;
                } else {
                    place(v, g, own_y(side, dep));
                }
            }
            let oy = own_y(Side::Defender, dep);
            v.objectives = vec![(0, oy), (1, oy), (2, oy)];
            v.postures[1] = Posture::Hold;
        }
        ScenarioId::Surrounded => {
            for (k, &g) in def.iter().enumerate() {
                v.groups[g].entry_sector = 1;
                if k == 0 {
                    place(v, g, own_y(Side::Defender, 12.0));
                    for &i in &v.groups[g].units.clone() {
                        v.units[i].sector = 1;
                    }
                } else {
                    reserve(v, g, reserves);
                }
            }
            for (k, &g) in att.iter().enumerate() {
                // Vanguard elements start on a wing, at least 18" from the enemy.
                for &i in &v.groups[g].units.clone() {
                    if v.units[i].vanguard && !v.units[i].removed {
                        v.units[i].on_table = true;
                        v.units[i].sector = if k % 2 == 0 { 0 } else { 2 };
                        v.units[i].y = TABLE_DEPTH - 24.0;
                        v.units[i].start_y = v.units[i].y;
                    }
                }
                reserve(v, g, 1);
                v.groups[g].entry_sector = if k % 2 == 0 { 0 } else { 2 };
                v.groups[g].entry_y = Some(mid);
            }
            let d = TABLE_DEPTH;
            v.objectives = vec![(1, d - 6.0), (1, d - 18.0), (1, d - 30.0)];
            v.postures[1] = Posture::Hold;
        }
        ScenarioId::Ambush => {
            // The defender marches in column through the middle; two attacking
            // elements wait in cover close by, the rest arrive on turn 2 (M-22).
            for &g in &def {
                place(v, g, 30.0);
                for &i in &v.groups[g].units.clone() {
                    if v.units[i].et != ElementType::Artillery {
                        v.units[i].formation = Formation::MarchColumn;
                    } else {
                        v.units[i].formation = Formation::Limbered;
                    }
                }
            }
            let mut ambushers: Vec<usize> = att
                .iter()
                .flat_map(|&g| v.groups[g].units.clone())
                .filter(|&i| v.units[i].et == ElementType::Infantry && !v.units[i].removed)
                .collect();
            ambushers.sort_by_key(|&i| (!v.units[i].vanguard, i));
            ambushers.truncate(2);
            for (k, &i) in ambushers.iter().enumerate() {
                let u = &mut v.units[i];
                u.on_table = true;
                u.sector = if k == 0 { 0 } else { 2 };
                u.y = 30.0 - 8.0;
                u.start_y = u.y;
                u.cover = true;
            }
            for &g in &att {
                reserve(v, g, 2);
            }
        }
        ScenarioId::FrontalAssault => {
            for (k, &g) in def.iter().enumerate() {
                if k + 1 == def.len() && def.len() > 1 {
                    reserve(v, g, reserves);
                } else {
                    place(v, g, own_y(Side::Defender, 18.0));
                    for &i in &v.groups[g].units.clone() {
                        v.units[i].cover = true;
                        v.units[i].defenses = true;
                    }
                }
            }
            for &g in &att {
                place(v, g, own_y(Side::Attacker, dep));
            }
            let oy = own_y(Side::Defender, 12.0);
            v.objectives = vec![(0, oy), (1, oy), (2, oy)];
            v.postures[1] = Posture::Hold;
        }
        ScenarioId::MeetingEngagement => {
            for &g in &def {
                place(v, g, own_y(Side::Defender, dep));
            }
            for &g in &att {
                reserve(v, g, 1);
            }
        }
    }
}
