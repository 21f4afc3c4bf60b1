//! Scenario set-up on the simulator's table (M-19, M-22 as amended): who
//! deploys where, who waits in reserve and comes on where, the objectives,
//! the terrain, and what the scenario pins in place.

use super::board::{file_x, norm, sector_of, Home, View, SECTOR_WIDTH, TABLE_DEPTH, TABLE_WIDTH};
use crate::rules::battlefield::sector_for;
use crate::rules::systems::lotf::battle::ScenarioId;
use crate::rules::systems::lotf::catalogue::Catalogue;
use crate::rules::systems::lotf::combat::Side;
use crate::rules::systems::lotf::types::{ElementType, Formation};

fn home_of(side: Side) -> Home {
    match side {
        Side::Attacker => Home::Near,
        Side::Defender => Home::Far,
    }
}

/// Depth `from_edge` inches in from a side's own edge.
fn own_y(side: Side, from_edge: f64) -> f64 {
    match side {
        Side::Attacker => from_edge,
        Side::Defender => TABLE_DEPTH - from_edge,
    }
}

/// Put one element on the table at a point, facing away from its home edge.
fn put(v: &mut View, i: usize, x: f64, y: f64, home: Home) {
    let u = &mut v.units[i];
    if u.removed {
        return;
    }
    u.on_table = true;
    u.x = x.clamp(0.0, TABLE_WIDTH);
    u.y = y.clamp(0.0, TABLE_DEPTH);
    u.start = (u.x, u.y);
    u.home = home;
    u.facing = home.facing();
}

/// Deploy a whole group in a sector, three files abreast, further elements in
/// a second line 4" behind the first; files already taken by the side's other
/// groups in the sector are skipped.
fn place_group(v: &mut View, g: usize, sector: i32, front_y: f64, home: Home) {
    let side = v.groups[g].side;
    let mut taken = v
        .units
        .iter()
        .filter(|u| u.side == side && u.on_table && sector_of(u.x) == sector)
        .count();
    for i in v.groups[g].units.clone() {
        if v.units[i].removed {
            continue;
        }
        let line = (taken / 3) as f64;
        let y = front_y - home.facing() * 4.0 * line;
        put(v, i, file_x(sector, taken), y, home);
        taken += 1;
    }
}

/// Hold a group in reserve: it comes on at `turn` at a point on an edge.
fn reserve(v: &mut View, g: usize, turn: u32, entry: (f64, f64), home: Home) {
    v.groups[g].arrives_turn = turn;
    v.groups[g].entry = entry;
    v.groups[g].entry_home = home;
}

fn sector_centre(sector: i32) -> f64 {
    f64::from(sector) * SECTOR_WIDTH + SECTOR_WIDTH / 2.0
}

/// Deploy both forces for the scenario.
pub fn deploy(cat: &Catalogue, v: &mut View) {
    // Players deploy at the front of their 12" zone to close with the enemy.
    let dep = f64::from(cat.numbers().deployment_inches);
    let reserves = u32::from(cat.numbers().reserves_default_turn);
    let groups_of = |v: &View, s: Side| -> Vec<usize> {
        (0..v.groups.len())
            .filter(|&g| v.groups[g].side == s)
            .collect()
    };
    let att = groups_of(v, Side::Attacker);
    let def = groups_of(v, Side::Defender);
    let mid = TABLE_DEPTH / 2.0;
    let edge_entry = |side: Side, k: usize, n: usize| -> (f64, f64) {
        (
            sector_centre(sector_for(k, n)),
            match side {
                Side::Attacker => 0.0,
                Side::Defender => TABLE_DEPTH,
            },
        )
    };
    match v.scenario {
        ScenarioId::TakeTheField => {
            for (k, &g) in att.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, att.len()),
                    own_y(Side::Attacker, dep),
                    Home::Near,
                );
            }
            for (k, &g) in def.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, def.len()),
                    own_y(Side::Defender, dep),
                    Home::Far,
                );
            }
            // four objectives, placed in turn, each side's nearer its own
            // lines and 12" or more from every other.
            v.objectives = vec![(12.0, 20.0), (60.0, 28.0), (36.0, 18.0), (36.0, 30.0)];
        }
        ScenarioId::Reconnoiter => {
            // Vanguard elements start within 12" of their edge; the rest
            // arrive from turn 1, a group a turn.
            for (side, gs) in [(Side::Attacker, &att), (Side::Defender, &def)] {
                for (k, &g) in gs.iter().enumerate() {
                    let sector = sector_for(k, gs.len());
                    let home = home_of(side);
                    let mut file = 0;
                    for i in v.groups[g].units.clone() {
                        if v.units[i].vanguard {
                            put(v, i, file_x(sector, file), own_y(side, dep), home);
                            file += 1;
                        }
                    }
                    let all_on = v.groups[g]
                        .units
                        .iter()
                        .all(|&i| v.units[i].on_table || v.units[i].removed);
                    if !all_on {
                        reserve(v, g, 1, edge_entry(side, k, gs.len()), home);
                    }
                }
            }
        }
        ScenarioId::HoldTheGround => {
            for (side, gs) in [(Side::Attacker, &att), (Side::Defender, &def)] {
                for (k, &g) in gs.iter().enumerate() {
                    reserve(v, g, 1, edge_entry(side, k, gs.len()), home_of(side));
                }
            }
            v.objectives = vec![(36.0, mid), (12.0, mid), (60.0, mid)];
        }
        ScenarioId::FlankAttack => {
            // The attacker's flanking group: the one with most cavalry, the
            // last on a tie (M-22). It comes on turn 3 at the left end of the
            // table, level with the defender's line.
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
            let flank = flank.filter(|_| att.len() > 1);
            let front: Vec<usize> = att.iter().copied().filter(|&g| Some(g) != flank).collect();
            for (k, &g) in front.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, front.len()),
                    own_y(Side::Attacker, dep),
                    Home::Near,
                );
            }
            if let Some(g) = flank {
                reserve(v, g, 3, (0.0, own_y(Side::Defender, dep) - 6.0), Home::Near);
                v.groups[g].flank_entry = true;
            }
            // The defender keeps 12" clear of the side edges: centre first.
            for (k, &g) in def.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, def.len()),
                    own_y(Side::Defender, dep),
                    Home::Far,
                );
            }
            let oy = own_y(Side::Defender, 6.0);
            v.objectives = vec![(12.0, oy), (36.0, oy), (60.0, oy)];
            pin_objective_guards(cat, v, Side::Defender);
        }
        ScenarioId::Surrounded => {
            // One defending group in the middle of its edge, guarding three
            // objectives; the rest come from turn 2 at its edge.
            for (k, &g) in def.iter().enumerate() {
                if k == 0 {
                    place_group(v, g, 1, own_y(Side::Defender, 12.0), Home::Far);
                } else {
                    reserve(v, g, reserves, (36.0, TABLE_DEPTH), Home::Far);
                }
            }
            let d = TABLE_DEPTH;
            v.objectives = vec![(30.0, d - 8.0), (42.0, d - 8.0), (36.0, d - 20.0)];
            pin_objective_guards(cat, v, Side::Defender);
            // Attacking Vanguard elements start 18" or more from the enemy on
            // the wings; the other groups come on the side ends from turn 1.
            let mut wing = 0;
            for (k, &g) in att.iter().enumerate() {
                for i in v.groups[g].units.clone() {
                    if v.units[i].vanguard && !v.units[i].removed {
                        let x = if wing % 2 == 0 {
                            6.0
                        } else {
                            TABLE_WIDTH - 6.0
                        };
                        put(v, i, x, d - 20.0, Home::Near);
                        wing += 1;
                    }
                }
                let x = if k % 2 == 0 { 0.0 } else { TABLE_WIDTH };
                reserve(v, g, 1, (x, d - 24.0), Home::Near);
            }
        }
        ScenarioId::Ambush => {
            // The defender marches in column along the middle of the table,
            // its own edge the left end; two attacking elements lie in cover
            // 7" off either side of the column and are revealed on turn 1; the
            // rest of the attacker comes on from both long edges on turn 2
            // (the scenario's words: the turn after the ambush, all at once).
            let mut k = 0usize;
            for &g in &def {
                for i in v.groups[g].units.clone() {
                    if v.units[i].removed {
                        continue;
                    }
                    put(v, i, 12.0 + 6.0 * k as f64, mid, Home::Left);
                    v.units[i].formation = if v.units[i].et == ElementType::Artillery {
                        Formation::Limbered
                    } else {
                        Formation::MarchColumn
                    };
                    k += 1;
                }
            }
            let column_mid = (12.0 + 6.0 * k.saturating_sub(1) as f64 / 2.0).min(TABLE_WIDTH);
            let mut ambushers: Vec<usize> = att
                .iter()
                .flat_map(|&g| v.groups[g].units.clone())
                .filter(|&i| v.units[i].et == ElementType::Infantry && !v.units[i].removed)
                .collect();
            ambushers.sort_by_key(|&i| (!v.units[i].vanguard, i));
            ambushers.truncate(2);
            for (n, &i) in ambushers.iter().enumerate() {
                let (y, home) = if n == 0 {
                    (mid - 7.0, Home::Near)
                } else {
                    (mid + 7.0, Home::Far)
                };
                put(v, i, column_mid, y, home);
                v.units[i].cover = true;
            }
            for (n, &g) in att.iter().enumerate() {
                let (y, home) = if n % 2 == 0 {
                    (0.0, Home::Near)
                } else {
                    (TABLE_DEPTH, Home::Far)
                };
                let x = (column_mid + 12.0 * (n / 2) as f64 - 6.0).clamp(6.0, TABLE_WIDTH - 6.0);
                reserve(v, g, 2, (x, y), home);
            }
        }
        ScenarioId::FrontalAssault => {
            // The defender 18" from its edge behind linear obstacles, its last
            // group in reserve from turn 2; the attacker at 12" from its edge,
            // 18" from the works.
            let works = own_y(Side::Defender, 18.0);
            let on: Vec<usize> = if def.len() > 1 {
                def[..def.len() - 1].to_vec()
            } else {
                def.clone()
            };
            for (k, &g) in on.iter().enumerate() {
                place_group(v, g, sector_for(k, on.len()), works, Home::Far);
                for i in v.groups[g].units.clone() {
                    v.units[i].cover = true;
                    v.units[i].defenses = true;
                    v.units[i].pinned = true;
                }
            }
            if def.len() > 1 {
                let g = def[def.len() - 1];
                reserve(v, g, reserves, (36.0, TABLE_DEPTH), Home::Far);
            }
            for (k, &g) in att.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, att.len()),
                    own_y(Side::Attacker, dep),
                    Home::Near,
                );
            }
            let oy = own_y(Side::Defender, 12.0);
            v.objectives = vec![(12.0, oy), (36.0, oy), (60.0, oy)];
        }
        ScenarioId::MeetingEngagement => {
            for (k, &g) in def.iter().enumerate() {
                place_group(
                    v,
                    g,
                    sector_for(k, def.len()),
                    own_y(Side::Defender, dep),
                    Home::Far,
                );
            }
            for (k, &g) in att.iter().enumerate() {
                reserve(
                    v,
                    g,
                    1,
                    edge_entry(Side::Attacker, k, att.len()),
                    Home::Near,
                );
            }
        }
    }
    // A Force Commander whose whole force waits off the table arrives with
    // its first group and rolls no Command Points before that.
    for side in [Side::Attacker, Side::Defender] {
        let any_on = v.units.iter().any(|u| u.side == side && u.on_table);
        if let Some(fc) = v.force_commander[match side {
            Side::Attacker => 0,
            Side::Defender => 1,
        }] {
            v.cmds[fc].on_table = any_on || v.scenario == ScenarioId::Surrounded;
        }
    }
}

/// The defender's element nearest each objective stays on it (the scenario
/// has it hold them); everyone else may move.
fn pin_objective_guards(cat: &Catalogue, v: &mut View, side: Side) {
    let r = f64::from(cat.numbers().objective_inches);
    for o in v.objectives.clone() {
        let best = (0..v.units.len())
            .filter(|&i| v.units[i].side == side && v.units[i].on_table && !v.units[i].pinned)
            .filter(|&i| v.units[i].et != ElementType::Cavalry)
            .min_by(|&a, &b| {
                let da = norm(v.units[a].x - o.0, v.units[a].y - o.1);
                let db = norm(v.units[b].x - o.0, v.units[b].y - o.1);
                da.partial_cmp(&db).unwrap_or(std::cmp::Ordering::Equal)
            });
        if let Some(i) = best {
            let u = &mut v.units[i];
            let d = norm(u.x - o.0, u.y - o.1);
            if d > r {
                // Step onto it before the battle starts.
                u.x = o.0;
                u.y = o.1;
                u.start = (u.x, u.y);
            }
            u.pinned = true;
        }
    }
}
