//! A Land of the Free battle at the table (issue 19, item 8): each element's hits against its
//! Discipline, its Disorder Markers, its discipline level (Fit, Shaken, Exhausted, Shattered)
//! and whether it routed or was destroyed; each commander's fate; who holds each objective; the
//! turn. Taps change it one step at a time ([`TableState::apply`]); a stored document is checked
//! against the set-up before use ([`TableState::read`]); at the end it becomes the tabletop
//! report the record form starts from ([`TableState::report`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::BattleSetup;
use super::catalogue::Catalogue;
use super::combat::Side;
use super::profile::profile;
use super::record::{
    objective_count, CommanderFate, CommanderReport, ElementReport, FinalState, TabletopReport,
};
use super::roster::ElementDoc;
use super::types::DisciplineLevel;
use crate::rules::table::{step, Holder, TableAction};

/// The `format` of a stored table state.
pub const TABLE_FORMAT: &str = "muster.lotf.table/1";

/// Disorder Markers a tap can count up to: the book sets no limit (M-70), the table needs one.
pub const MAX_DISORDER: u32 = 9;

/// Off the table for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    Routed,
    Destroyed,
}

/// One element as it stands at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementMarks {
    pub hits: u32,
    pub disorder: u32,
    pub level: DisciplineLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone: Option<Gone>,
}

/// The whole table. Elements and commanders are keyed `a.<id>` (attacker) or `d.<id>`
/// (defender), by the ids of the set-up's rosters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableState {
    pub format: String,
    pub turn: u32,
    pub elements: BTreeMap<String, ElementMarks>,
    pub commanders: BTreeMap<String, CommanderFate>,
    /// Who holds each objective, in the scenario's order (empty where victory points decide).
    pub objectives: Vec<Holder>,
}

/// The key prefix of a side.
pub fn side_key(side: Side) -> &'static str {
    match side {
        Side::Attacker => "a",
        Side::Defender => "d",
    }
}

/// An element of the set-up as it starts the battle: its key, its document with the size it
/// fights at, and the starting marks the set-up gives it (campaign casualties).
pub struct TableElement<'a> {
    pub side: Side,
    pub key: String,
    pub group: usize,
    pub doc: ElementDoc,
    pub source: &'a ElementDoc,
    /// Hits it can take before its Discipline is used up: its Discipline.
    pub discipline: u32,
    pub start: ElementMarks,
}

/// Every element of both sides, attacker first, in roster order.
pub fn elements<'a>(cat: &Catalogue, setup: &'a BattleSetup) -> Vec<TableElement<'a>> {
    let mut out = Vec::new();
    for side in [Side::Attacker, Side::Defender] {
        let force = match side {
            Side::Attacker => &setup.attacker,
            Side::Defender => &setup.defender,
        };
        for (gi, g) in force.roster.groups.iter().enumerate() {
            for e in &g.elements {
                let id = e.id.clone().unwrap_or_default();
                let given = force.elements.get(&id);
                let mut doc = e.clone();
                if let Some(size) = given.and_then(|s| s.size) {
                    doc.size = size;
                }
                let p = profile(cat, &doc);
                out.push(TableElement {
                    side,
                    key: format!("{}.{id}", side_key(side)),
                    group: gi + 1,
                    start: ElementMarks {
                        hits: given.map_or(0, |s| s.hits),
                        disorder: given.map_or(0, |s| s.disorder_markers.min(MAX_DISORDER)),
                        level: given
                            .and_then(|s| s.discipline_level)
                            .unwrap_or(p.starting_discipline),
                        gone: None,
                    },
                    discipline: u32::from(p.discipline),
                    doc,
                    source: e,
                });
            }
        }
    }
    out
}

/// Every commander's key, attacker first: the Force Commander, then each group's.
pub fn commander_keys(setup: &BattleSetup) -> Vec<(Side, String)> {
    let mut out = Vec::new();
    for side in [Side::Attacker, Side::Defender] {
        let force = match side {
            Side::Attacker => &setup.attacker,
            Side::Defender => &setup.defender,
        };
        let roster = &force.roster;
        for c in roster
            .force_commander
            .iter()
            .chain(roster.groups.iter().filter_map(|g| g.commander.as_ref()))
        {
            out.push((
                side,
                format!("{}.{}", side_key(side), c.id.clone().unwrap_or_default()),
            ));
        }
    }
    out
}

/// The game's length in turns.
pub fn max_turns(cat: &Catalogue) -> u32 {
    u32::from(cat.tables().game_length_turns)
}

/// The discipline level a button carries: 0 Fit, 1 Shaken, 2 Exhausted, 3 Shattered.
pub fn level_value(level: DisciplineLevel) -> i32 {
    DisciplineLevel::ALL
        .iter()
        .position(|l| *l == level)
        .map_or(0, |i| i as i32)
}

impl TableState {
    /// The table before the first tap: turn 1, every element as the set-up starts it, every
    /// commander unharmed, no objective held.
    pub fn start(cat: &Catalogue, setup: &BattleSetup) -> TableState {
        TableState {
            format: TABLE_FORMAT.into(),
            turn: 1,
            elements: elements(cat, setup)
                .into_iter()
                .map(|e| (e.key, e.start))
                .collect(),
            commanders: commander_keys(setup)
                .into_iter()
                .map(|(_, k)| (k, CommanderFate::Unharmed))
                .collect(),
            objectives: vec![Holder::Nobody; objective_count(setup.scenario) as usize],
        }
    }

    /// Reads a stored state and checks it against the set-up: the same elements, commanders and
    /// objectives, every count in its range.
    pub fn read(cat: &Catalogue, setup: &BattleSetup, text: &str) -> Result<TableState, String> {
        let state: TableState = serde_json::from_str(text)
            .map_err(|e| format!("The table's state could not be read: {e}"))?;
        if state.format != TABLE_FORMAT {
            return Err(format!("A table state's format is {TABLE_FORMAT}."));
        }
        let fresh = TableState::start(cat, setup);
        if state.turn == 0 || state.turn > max_turns(cat) {
            return Err(format!("The turn is 1 to {}.", max_turns(cat)));
        }
        let same_keys = |a: Vec<&String>, b: Vec<&String>| a == b;
        if !same_keys(
            state.elements.keys().collect(),
            fresh.elements.keys().collect(),
        ) || !same_keys(
            state.commanders.keys().collect(),
            fresh.commanders.keys().collect(),
        ) || state.objectives.len() != fresh.objectives.len()
        {
            return Err("The table's state does not belong to this battle.".into());
        }
        for e in elements(cat, setup) {
            if let Some(m) = state.elements.get(&e.key) {
                if m.hits > e.discipline || m.disorder > MAX_DISORDER {
                    return Err(format!("{}'s marks are out of range.", e.doc.name));
                }
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
                let max = max_turns(cat);
                self.turn = step(
                    self.turn,
                    action.value,
                    1,
                    max,
                    &format!("The game lasts turns 1 to {max}."),
                )?;
            }
            "hits" | "disorder" | "level" | "gone" => {
                let all = elements(cat, setup);
                let e = all
                    .iter()
                    .find(|e| e.key == action.target)
                    .ok_or("There is no such element in this battle.")?;
                let name = if e.doc.name.is_empty() {
                    "The element".to_string()
                } else {
                    e.doc.name.clone()
                };
                let m = self
                    .elements
                    .get_mut(&e.key)
                    .ok_or("There is no such element in this battle.")?;
                match action.what.as_str() {
                    "hits" => {
                        m.hits = step(
                            m.hits,
                            action.value,
                            0,
                            e.discipline,
                            &format!("{name} takes 0 to {} hits (its Discipline).", e.discipline),
                        )?
                    }
                    "disorder" => {
                        m.disorder = step(
                            m.disorder,
                            action.value,
                            0,
                            MAX_DISORDER,
                            &format!("{name} carries 0 to {MAX_DISORDER} Disorder Markers here."),
                        )?
                    }
                    "level" => {
                        m.level = usize::try_from(action.value)
                            .ok()
                            .and_then(|i| DisciplineLevel::ALL.get(i).copied())
                            .ok_or("Choose Fit, Shaken, Exhausted or Shattered.")?
                    }
                    _ => {
                        m.gone = match action.value {
                            0 => None,
                            1 => Some(Gone::Routed),
                            2 => Some(Gone::Destroyed),
                            _ => {
                                return Err("Choose routed, destroyed or back on the table.".into())
                            }
                        }
                    }
                }
            }
            "commander" => {
                let fate = match action.value {
                    0 => CommanderFate::Unharmed,
                    1 => CommanderFate::Killed,
                    2 => CommanderFate::Captured,
                    _ => return Err("Choose unharmed, killed or captured.".into()),
                };
                let c = self
                    .commanders
                    .get_mut(&action.target)
                    .ok_or("There is no such commander in this battle.")?;
                *c = fate;
            }
            "objective" => {
                let holder = Holder::from_value(action.value).ok_or(
                    "Choose who holds the objective: nobody, the attacker or the defender.",
                )?;
                let slot = action
                    .target
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| self.objectives.get_mut(i))
                    .ok_or("This scenario has no such objective.")?;
                *slot = holder;
            }
            _ => return Err("Muster does not know that tap.".into()),
        }
        Ok(())
    }

    /// The tabletop report the record form starts from: each element's state (routed or
    /// destroyed: left the field) and hits, each commander's fate, the objectives each side
    /// holds, the turn reached.
    pub fn report(&self, cat: &Catalogue, setup: &BattleSetup) -> TabletopReport {
        let elements = elements(cat, setup)
            .into_iter()
            .filter_map(|e| {
                let m = self.elements.get(&e.key)?;
                let state = match (m.gone, m.level) {
                    (Some(_), _) => FinalState::LeftTheField,
                    (None, DisciplineLevel::Fit) => FinalState::Fit,
                    (None, DisciplineLevel::Shaken) => FinalState::Shaken,
                    (None, DisciplineLevel::Exhausted) => FinalState::Exhausted,
                    (None, DisciplineLevel::Shattered) => FinalState::Shattered,
                };
                Some(ElementReport {
                    side: e.side,
                    id: e.source.id.clone().unwrap_or_default(),
                    state,
                    hits: m.hits,
                })
            })
            .collect();
        let commanders = commander_keys(setup)
            .into_iter()
            .filter_map(|(side, key)| {
                let fate = *self.commanders.get(&key)?;
                let id = key.split_once('.').map(|(_, id)| id.to_string())?;
                Some(CommanderReport { side, id, fate })
            })
            .collect();
        let held = |h: Holder| self.objectives.iter().filter(|o| **o == h).count() as u32;
        TabletopReport {
            turns_played: self.turn,
            elements,
            commanders,
            attacker_objectives: held(Holder::Attacker),
            defender_objectives: held(Holder::Defender),
        }
    }
}

crate::rules::table::table_document!(TableState, Catalogue, BattleSetup, super::Lotf);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::{parse_roster, record::assess, ScenarioId};

    fn setup() -> (Catalogue, BattleSetup) {
        let cat = Catalogue::builtin().expect("catalogue");
        let force = |name: &str| {
            parse_roster(&format!(
                r#"{{"format": "muster.lotf.roster/1", "name": "{name}", "war": "american_revolution", "nation": "british",
                    "points_limit": 200, "force_commander": {{"id": "c0", "name": "General"}},
                    "groups": [{{"commander": {{"id": "c1", "name": "One"}}, "elements": [
                        {{"id": "mi1", "name": "Foot 1", "type": "infantry", "size": "medium"}},
                        {{"id": "sc", "name": "Horse", "type": "cavalry", "size": "small"}}]}}]}}"#
            ))
            .expect("test roster")
        };
        let setup = BattleSetup::new(
            force("Crown"),
            force("Congress"),
            ScenarioId::TakeTheField,
            1,
        );
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
        assert_eq!(state.turn, 1);
        assert_eq!(state.objectives.len(), 4);
        let report = state.report(&cat, &setup);
        assert!(assess(&cat, &setup, &report).is_ok());
    }

    #[test]
    fn taps_change_one_thing_and_stay_in_range() {
        let (cat, setup) = setup();
        let mut state = TableState::start(&cat, &setup);
        let first = elements(&cat, &setup).remove(0);
        state
            .apply(&cat, &setup, &tap("hits", &first.key, 1))
            .unwrap();
        assert_eq!(state.elements[&first.key].hits, 1);
        assert!(state
            .apply(&cat, &setup, &tap("hits", &first.key, 5))
            .is_err());
        for _ in 1..first.discipline {
            state
                .apply(&cat, &setup, &tap("hits", &first.key, 1))
                .unwrap();
        }
        assert!(state
            .apply(&cat, &setup, &tap("hits", &first.key, 1))
            .is_err());
        state
            .apply(&cat, &setup, &tap("level", &first.key, 1))
            .unwrap();
        assert_eq!(state.elements[&first.key].level, DisciplineLevel::Shaken);
        assert!(state
            .apply(&cat, &setup, &tap("level", &first.key, 4))
            .is_err());
        state
            .apply(&cat, &setup, &tap("gone", &first.key, 1))
            .unwrap();
        state
            .apply(&cat, &setup, &tap("objective", "2", 1))
            .unwrap();
        assert!(state
            .apply(&cat, &setup, &tap("objective", "9", 1))
            .is_err());
        assert!(state.apply(&cat, &setup, &tap("turn", "", -1)).is_err());
        state.apply(&cat, &setup, &tap("turn", "", 1)).unwrap();
        let report = state.report(&cat, &setup);
        assert_eq!(report.turns_played, 2);
        assert_eq!(report.attacker_objectives, 1);
        assert_eq!(report.elements[0].state, FinalState::LeftTheField);
        let text = serde_json::to_string(&state).unwrap();
        assert_eq!(TableState::read(&cat, &setup, &text), Ok(state));
    }

    #[test]
    fn a_state_of_another_battle_is_refused() {
        let (cat, setup) = setup();
        let mut state = TableState::start(&cat, &setup);
        state.elements.insert(
            "a.nobody".into(),
            state.elements.values().next().unwrap().clone(),
        );
        let text = serde_json::to_string(&state).unwrap();
        assert!(TableState::read(&cat, &setup, &text).is_err());
        assert!(TableState::read(&cat, &setup, "{}").is_err());
    }
}
