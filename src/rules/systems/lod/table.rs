//! A Liberty or Death! battle at the table (issue 19, item 8): each unit's hits against its
//! WORN / SHAKEN / AUTO BROKEN values, its disorder and under-fire markers, ROUTING, BROKEN and
//! routed off the table; each General killed or not; the Command Points each side has spent; the
//! turn. Taps change it one step at a time ([`TableState::apply`]); a stored document is checked
//! against the set-up before use ([`TableState::read`]); at the end it becomes the tabletop
//! report the record form starts from ([`TableState::report`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::{BattleSetup, EndState};
use super::catalogue::{Catalogue, Profile};
use super::record::{SideReport, TabletopReport};
use super::roster::UnitDoc;
use super::types::HitState;
use crate::rules::system::BattleSide;
use crate::rules::table::{step, TableAction};

/// The `format` of a stored table state.
pub const TABLE_FORMAT: &str = "muster.lod.table/1";

/// Markers of one kind a tap can count up to.
pub const MAX_MARKERS: u32 = 9;

/// One unit as it stands at the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnitMarks {
    pub hits: u32,
    pub disorder: u32,
    pub under_fire: u32,
    /// ROUTING: a condition, not a hit-state (L-37).
    pub routing: bool,
    /// BROKEN by a test rather than by hits.
    pub broken: bool,
    /// Routed off the table: lost, and BROKEN for the victory points.
    pub off: bool,
}

/// The whole table. Units and Generals are keyed `a.<id>` (attacker) or `d.<id>` (defender), by
/// the ids of the set-up's armies; Command Points spent by side (`a`, `d`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableState {
    pub format: String,
    pub turn: u32,
    pub units: BTreeMap<String, UnitMarks>,
    pub generals_killed: BTreeMap<String, bool>,
    pub command_points_spent: BTreeMap<String, u32>,
}

pub const SIDES: [BattleSide; 2] = [BattleSide::Attacker, BattleSide::Defender];

/// The key prefix of a side.
pub fn side_key(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => "a",
        BattleSide::Defender => "d",
    }
}

/// A unit of the set-up: its key, its brigade, its document and profile (none for a unit the
/// lists cannot field, which a set-up refuses anyway).
pub struct TableUnit<'a> {
    pub side: BattleSide,
    pub key: String,
    pub brigade: usize,
    pub doc: &'a UnitDoc,
    pub profile: Option<Profile>,
}

impl TableUnit<'_> {
    /// The hits at which it is BROKEN whatever else (AUTO BROKEN).
    pub fn auto_broken(&self) -> u32 {
        self.profile.as_ref().map_or(0, |p| p.size.auto_broken)
    }

    /// Its hit-state with `hits`.
    pub fn hit_state(&self, hits: u32) -> HitState {
        self.profile
            .as_ref()
            .map_or(HitState::Steady, |p| p.state(hits))
    }
}

/// Every unit of both sides, attacker first, in roster order.
pub fn units<'a>(cat: &Catalogue, setup: &'a BattleSetup) -> Vec<TableUnit<'a>> {
    let mut out = Vec::new();
    for side in SIDES {
        let roster = &setup.force(side).roster;
        let views = super::validate::units(cat, roster);
        for ((b, _, unit), view) in roster.units().zip(views) {
            out.push(TableUnit {
                side,
                key: format!("{}.{}", side_key(side), unit.id.clone().unwrap_or_default()),
                brigade: b + 1,
                doc: unit,
                profile: view.profile,
            });
        }
    }
    out
}

/// Every General's key, attacker first, in brigade order.
pub fn general_keys(setup: &BattleSetup) -> Vec<(BattleSide, String)> {
    let mut out = Vec::new();
    for side in SIDES {
        for g in setup
            .force(side)
            .roster
            .brigades
            .iter()
            .filter_map(|b| b.general.as_ref())
        {
            out.push((
                side,
                format!("{}.{}", side_key(side), g.id.clone().unwrap_or_default()),
            ));
        }
    }
    out
}

/// How a unit with these marks would end the battle now.
pub fn end_of(unit: &TableUnit, m: &UnitMarks) -> EndState {
    if m.off {
        return EndState::RoutedOff;
    }
    if m.broken {
        return EndState::Broken;
    }
    match unit.hit_state(m.hits) {
        HitState::Steady => EndState::Steady,
        HitState::Worn => EndState::Worn,
        HitState::Shaken => EndState::Shaken,
        HitState::Broken => EndState::Broken,
    }
}

fn flag(value: i32) -> Result<bool, String> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err("A switch is on (1) or off (0).".into()),
    }
}

impl TableState {
    /// The table before the first tap: turn 1, no hits or markers, every General alive, no
    /// Command Point spent.
    pub fn start(cat: &Catalogue, setup: &BattleSetup) -> TableState {
        TableState {
            format: TABLE_FORMAT.into(),
            turn: 1,
            units: units(cat, setup)
                .into_iter()
                .map(|u| (u.key, UnitMarks::default()))
                .collect(),
            generals_killed: general_keys(setup)
                .into_iter()
                .map(|(_, k)| (k, false))
                .collect(),
            command_points_spent: SIDES
                .iter()
                .map(|s| (side_key(*s).to_string(), 0))
                .collect(),
        }
    }

    /// Reads a stored state and checks it against the set-up: the same units and Generals,
    /// every count in its range.
    pub fn read(cat: &Catalogue, setup: &BattleSetup, text: &str) -> Result<TableState, String> {
        let state: TableState = serde_json::from_str(text)
            .map_err(|e| format!("The table's state could not be read: {e}"))?;
        if state.format != TABLE_FORMAT {
            return Err(format!("A table state's format is {TABLE_FORMAT}."));
        }
        let fresh = TableState::start(cat, setup);
        if state.turn == 0 || state.turn > setup.turns {
            return Err(format!("The turn is 1 to {}.", setup.turns));
        }
        if !state.units.keys().eq(fresh.units.keys())
            || !state
                .generals_killed
                .keys()
                .eq(fresh.generals_killed.keys())
            || !state
                .command_points_spent
                .keys()
                .eq(fresh.command_points_spent.keys())
        {
            return Err("The table's state does not belong to this battle.".into());
        }
        for u in units(cat, setup) {
            if let Some(m) = state.units.get(&u.key) {
                if m.hits > u.auto_broken()
                    || m.disorder > MAX_MARKERS
                    || m.under_fire > MAX_MARKERS
                {
                    return Err("A unit's marks are out of range.".into());
                }
            }
        }
        for side in SIDES {
            let spent = state
                .command_points_spent
                .get(side_key(side))
                .copied()
                .unwrap_or(0);
            if spent > setup.force(side).command_points {
                return Err("More Command Points spent than the army has.".into());
            }
        }
        Ok(state)
    }

    /// Applies one tap; a tap that makes no sense here is refused in words and changes nothing.
    pub fn apply(
        &mut self,
        cat: &Catalogue,
        setup: &BattleSetup,
        action: &TableAction,
    ) -> Result<(), String> {
        match action.what.as_str() {
            "turn" => {
                self.turn = step(
                    self.turn,
                    action.value,
                    1,
                    setup.turns,
                    &format!("The game lasts turns 1 to {}.", setup.turns),
                )?;
            }
            "hits" | "disorder" | "under_fire" | "routing" | "broken" | "off" => {
                let all = units(cat, setup);
                let u = all
                    .iter()
                    .find(|u| u.key == action.target)
                    .ok_or("There is no such unit in this battle.")?;
                let name = if u.doc.name.is_empty() {
                    u.doc.entry.clone()
                } else {
                    u.doc.name.clone()
                };
                let m = self
                    .units
                    .get_mut(&u.key)
                    .ok_or("There is no such unit in this battle.")?;
                match action.what.as_str() {
                    "hits" => {
                        m.hits = step(
                            m.hits,
                            action.value,
                            0,
                            u.auto_broken(),
                            &format!("{name} takes 0 to {} hits (AUTO BROKEN).", u.auto_broken()),
                        )?
                    }
                    "disorder" => {
                        m.disorder = step(
                            m.disorder,
                            action.value,
                            0,
                            MAX_MARKERS,
                            &format!("{name} carries 0 to {MAX_MARKERS} disorder markers here."),
                        )?
                    }
                    "under_fire" => {
                        m.under_fire = step(
                            m.under_fire,
                            action.value,
                            0,
                            MAX_MARKERS,
                            &format!("{name} carries 0 to {MAX_MARKERS} under-fire markers here."),
                        )?
                    }
                    "routing" => m.routing = flag(action.value)?,
                    "broken" => m.broken = flag(action.value)?,
                    _ => m.off = flag(action.value)?,
                }
            }
            "general" => {
                let killed = flag(action.value)?;
                let g = self
                    .generals_killed
                    .get_mut(&action.target)
                    .ok_or("There is no such General in this battle.")?;
                *g = killed;
            }
            "command_points" => {
                let side = SIDES
                    .into_iter()
                    .find(|s| side_key(*s) == action.target)
                    .ok_or("Choose a side: a or d.")?;
                let has = setup.force(side).command_points;
                let spent = self
                    .command_points_spent
                    .entry(side_key(side).to_string())
                    .or_insert(0);
                *spent = step(
                    *spent,
                    action.value,
                    0,
                    has,
                    &format!("This army has {has} Command Points to spend."),
                )?;
            }
            _ => return Err("Muster does not know that tap.".into()),
        }
        Ok(())
    }

    /// The tabletop report the record form starts from: each unit's end (its hit-state, BROKEN,
    /// or routed off the table), the Generals killed, the turn reached.
    pub fn report(&self, cat: &Catalogue, setup: &BattleSetup) -> TabletopReport {
        let mut report = TabletopReport {
            turns_played: self.turn,
            ..Default::default()
        };
        for u in units(cat, setup) {
            let Some(m) = self.units.get(&u.key) else {
                continue;
            };
            let side = match u.side {
                BattleSide::Attacker => &mut report.attacker,
                BattleSide::Defender => &mut report.defender,
            };
            side.units.insert(
                u.doc.id.clone().unwrap_or_default(),
                end_of(&u, m).id().to_string(),
            );
        }
        for (side, key) in general_keys(setup) {
            if self.generals_killed.get(&key) == Some(&true) {
                let id = key
                    .split_once('.')
                    .map_or(String::new(), |(_, id)| id.into());
                let given: &mut SideReport = match side {
                    BattleSide::Attacker => &mut report.attacker,
                    BattleSide::Defender => &mut report.defender,
                };
                given.generals_killed.push(id);
            }
        }
        report
    }
}

crate::rules::table::table_document!(TableState, Catalogue, BattleSetup, super::system::Lod);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lod::record::{assess, prepare};
    use crate::rules::systems::lod::system::example_force;

    fn setup() -> (Catalogue, BattleSetup) {
        let cat = Catalogue::builtin().expect("catalogue");
        let a = example_force("example:continental").expect("example");
        let d = example_force("example:british").expect("example");
        let setup = prepare(&cat, a, d, None, false, 3).expect("set-up").setup;
        (cat, setup)
    }

    fn tap(what: &str, target: &str, value: i32) -> TableAction {
        TableAction {
            what: what.into(),
            target: target.into(),
            value,
        }
    }

    #[test]
    fn a_fresh_table_reports_a_legal_result() {
        let (cat, setup) = setup();
        let state = TableState::start(&cat, &setup);
        assert!(assess(&cat, &setup, &state.report(&cat, &setup)).is_ok());
    }

    #[test]
    fn hits_move_a_unit_through_its_states() {
        let (cat, setup) = setup();
        let mut state = TableState::start(&cat, &setup);
        let all = units(&cat, &setup);
        let first = &all[0];
        let worn = first.profile.as_ref().unwrap().size.worn;
        for _ in 0..worn {
            state
                .apply(&cat, &setup, &tap("hits", &first.key, 1))
                .unwrap();
        }
        assert_eq!(end_of(first, &state.units[&first.key]), EndState::Worn);
        for _ in worn..first.auto_broken() {
            state
                .apply(&cat, &setup, &tap("hits", &first.key, 1))
                .unwrap();
        }
        assert!(state
            .apply(&cat, &setup, &tap("hits", &first.key, 1))
            .is_err());
        assert_eq!(end_of(first, &state.units[&first.key]), EndState::Broken);
        state
            .apply(&cat, &setup, &tap("off", &first.key, 1))
            .unwrap();
        state
            .apply(&cat, &setup, &tap("command_points", "a", 1))
            .unwrap();
        assert!(state
            .apply(&cat, &setup, &tap("command_points", "x", 1))
            .is_err());
        let (_, general) = general_keys(&setup).remove(0);
        state
            .apply(&cat, &setup, &tap("general", &general, 1))
            .unwrap();
        state.apply(&cat, &setup, &tap("turn", "", 1)).unwrap();
        let report = state.report(&cat, &setup);
        assert_eq!(report.turns_played, 2);
        assert_eq!(report.attacker.generals_killed.len(), 1);
        assert!(report.attacker.units.values().any(|e| e == "routed_off"));
        let text = serde_json::to_string(&state).unwrap();
        assert_eq!(TableState::read(&cat, &setup, &text), Ok(state));
    }
}
