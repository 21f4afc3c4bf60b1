//! At the table: the state of an AWI battle being played, in the rules' own terms, for
//! `Systems::table_start` / `table_apply`. Per unit: figures lost (W-2), disordered, routing,
//! gone (routed off or left the table), first volley fired (W-20) and its move marker (full,
//! half, none; 4.4); the generals killed; the move number (1–12, W-32) and which side is A
//! (W-1). One tap is one [`TableAction`]:
//!
//! | `what` | `target` | `value` |
//! |---|---|---|
//! | `move` | – | +1 / −1: next or previous move (side A swaps each move) |
//! | `figures` | unit key (`attacker:unit-3`) | +1 / −1 figure lost |
//! | `disordered`, `routing`, `gone`, `first_volley` | unit key | 1 on, 0 off |
//! | `marker` | unit key | 0 full, 1 half, 2 no move |
//! | `general_killed` | general key (`defender:brigadier-2`) | 1 killed, 0 not |

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::BattleSetup;
use super::record::fresh_units;
use super::Catalogue;
use crate::rules::system::BattleSide;
use crate::rules::table::{step, TableAction};

pub const TABLE_FORMAT: &str = "muster.awi.table/1";

/// One unit's marks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UnitMarks {
    pub figures_lost: u32,
    pub disordered: bool,
    pub routing: bool,
    pub gone: bool,
    pub first_volley: bool,
    /// 0 full, 1 half, 2 no move.
    pub marker: u8,
}

/// The table's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// `muster.awi.table/1`.
    pub format: String,
    /// 1–12 (6 turns of two moves, W-32).
    pub move_number: u32,
    /// Side A of the current move (W-1).
    pub side_a: BattleSide,
    /// `attacker:unit-3` → marks.
    pub units: BTreeMap<String, UnitMarks>,
    /// Keys of the generals killed (`defender:brigadier-2`, `attacker:cinc-1`).
    pub generals_killed: Vec<String>,
}

fn side_key(s: BattleSide) -> &'static str {
    s.id()
}

/// Figures each unit starts with, by key.
fn figures(cat: &Catalogue, setup: &BattleSetup) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    for side in [BattleSide::Attacker, BattleSide::Defender] {
        for u in fresh_units(cat, &setup.force(side).roster) {
            out.insert(format!("{}:{}", side_key(side), u.id), u.start_figures);
        }
    }
    out
}

fn generals(setup: &BattleSetup) -> Vec<String> {
    let mut out = Vec::new();
    for side in [BattleSide::Attacker, BattleSide::Defender] {
        let r = &setup.force(side).roster;
        if let Some(id) = r.cinc.as_ref().and_then(|c| c.id.clone()) {
            out.push(format!("{}:{id}", side_key(side)));
        }
        for b in &r.brigades {
            if let Some(id) = b.brigadier.as_ref().and_then(|g| g.id.clone()) {
                out.push(format!("{}:{id}", side_key(side)));
            }
        }
    }
    out
}

impl TableState {
    /// The table before the first tap: move 1, the roll-off's winner is side A.
    pub fn start(cat: &Catalogue, setup: &BattleSetup) -> TableState {
        TableState {
            format: TABLE_FORMAT.to_string(),
            move_number: 1,
            side_a: setup.first_side_a,
            units: figures(cat, setup)
                .into_keys()
                .map(|k| (k, UnitMarks::default()))
                .collect(),
            generals_killed: Vec::new(),
        }
    }

    /// Reads a stored state of this set-up.
    pub fn read(cat: &Catalogue, setup: &BattleSetup, text: &str) -> Result<TableState, String> {
        let t: TableState = serde_json::from_str(text)
            .map_err(|e| format!("The table's state cannot be read: {e}"))?;
        if t.format != TABLE_FORMAT {
            return Err(format!("The table's state is not '{TABLE_FORMAT}'."));
        }
        let known = figures(cat, setup);
        if t.units.keys().any(|k| !known.contains_key(k)) {
            return Err("The table's state names a unit the battle does not have.".into());
        }
        Ok(t)
    }

    /// Applies one tap, or says why it is refused.
    pub fn apply(
        &mut self,
        cat: &Catalogue,
        setup: &BattleSetup,
        action: &TableAction,
    ) -> Result<(), String> {
        let moves = setup.turns * cat.victory.moves_per_turn;
        match action.what.as_str() {
            "move" => {
                self.move_number = step(
                    self.move_number,
                    action.value,
                    1,
                    moves,
                    &format!("The battle has moves 1 to {moves} (W-32)."),
                )?;
                self.side_a = self.side_a.other();
                Ok(())
            }
            "general_killed" => {
                if !generals(setup).contains(&action.target) {
                    return Err(format!(
                        "There is no general '{}' in this battle.",
                        action.target
                    ));
                }
                self.generals_killed.retain(|g| g != &action.target);
                match action.value {
                    1 => {
                        self.generals_killed.push(action.target.clone());
                        Ok(())
                    }
                    0 => Ok(()),
                    _ => Err("A general is killed (1) or not (0).".into()),
                }
            }
            what @ ("figures" | "disordered" | "routing" | "gone" | "first_volley" | "marker") => {
                let start = *figures(cat, setup).get(&action.target).ok_or_else(|| {
                    format!("There is no unit '{}' in this battle.", action.target)
                })?;
                let marks = self.units.entry(action.target.clone()).or_default();
                let flag = |v: i32| match v {
                    0 => Ok(false),
                    1 => Ok(true),
                    _ => Err("A mark is on (1) or off (0).".to_string()),
                };
                match what {
                    "figures" => {
                        marks.figures_lost = step(
                            marks.figures_lost,
                            action.value,
                            0,
                            start,
                            &format!("The unit has {start} figures; losses run from 0 to {start}."),
                        )?;
                    }
                    "disordered" => marks.disordered = flag(action.value)?,
                    "routing" => {
                        marks.routing = flag(action.value)?;
                        if marks.routing {
                            // A router is disordered (W-27).
                            marks.disordered = true;
                        }
                    }
                    "gone" => marks.gone = flag(action.value)?,
                    "first_volley" => marks.first_volley = flag(action.value)?,
                    _ => {
                        marks.marker = match action.value {
                            0..=2 => action.value as u8,
                            _ => {
                                return Err(
                                    "A move marker is 0 (full), 1 (half) or 2 (no move).".into()
                                )
                            }
                        }
                    }
                }
                Ok(())
            }
            other => Err(format!("'{other}' is not something to mark at this table.")),
        }
    }
}

crate::rules::table::table_document!(TableState, Catalogue, BattleSetup, super::system::Awi);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::system::RuleSystem;
    use crate::rules::systems::awi::record::prepare;
    use crate::rules::systems::awi::system::{example_force, Awi};
    use crate::rules::table::{apply_stored, start_stored};

    fn stored() -> (Catalogue, String) {
        let cat = Catalogue::builtin().expect("catalogue");
        let a = example_force("example:british").expect("example");
        let d = example_force("example:continental").expect("example");
        let setup = prepare(&cat, a, d, None, false, 4).expect("set up").setup;
        (cat, Awi::write_setup(&setup))
    }

    fn tap(what: &str, target: &str, value: i32) -> TableAction {
        TableAction {
            what: what.into(),
            target: target.into(),
            value,
        }
    }

    #[test]
    fn taps_mark_figures_states_moves_and_generals() {
        let (cat, setup) = stored();
        let start = start_stored::<TableState>(&cat, &setup).expect("starts");
        let s = apply_stored::<TableState>(
            &cat,
            &setup,
            Some(&start),
            &tap("figures", "attacker:unit-1", 1),
        )
        .expect("reads")
        .expect("applies");
        let s = apply_stored::<TableState>(
            &cat,
            &setup,
            Some(&s),
            &tap("routing", "attacker:unit-1", 1),
        )
        .expect("reads")
        .expect("applies");
        let s = apply_stored::<TableState>(&cat, &setup, Some(&s), &tap("move", "", 1))
            .expect("reads")
            .expect("applies");
        let s = apply_stored::<TableState>(
            &cat,
            &setup,
            Some(&s),
            &tap("general_killed", "defender:brigadier-2", 1),
        )
        .expect("reads")
        .expect("applies");
        let t: TableState = serde_json::from_str(&s).expect("a state");
        let first: TableState = serde_json::from_str(&start).expect("a state");
        let m = &t.units["attacker:unit-1"];
        assert_eq!((m.figures_lost, m.routing, m.disordered), (1, true, true));
        assert_eq!(t.move_number, 2);
        assert_eq!(t.side_a, first.side_a.other(), "sides alternate as A (W-1)");
        assert_eq!(t.generals_killed, ["defender:brigadier-2"]);
    }

    #[test]
    fn impossible_taps_are_refused_in_words() {
        let (cat, setup) = stored();
        for action in [
            tap("figures", "attacker:unit-1", -1),
            tap("figures", "nobody", 1),
            tap("move", "", -1),
            tap("marker", "attacker:unit-1", 3),
            tap("general_killed", "attacker:ghost", 1),
            tap("dance", "", 1),
        ] {
            let r = apply_stored::<TableState>(&cat, &setup, None, &action).expect("reads");
            assert!(r.is_err(), "{action:?}");
        }
        assert!(apply_stored::<TableState>(&cat, &setup, Some("{}"), &tap("move", "", 1)).is_err());
    }
}
