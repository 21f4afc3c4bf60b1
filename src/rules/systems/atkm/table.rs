//! An *All the King's Men* battle at the table, for `Systems::table_start` / `table_apply`:
//! per unit the rank and file lost (never below none, K-18), officer and ensign lost (colours
//! taken, 4.7), its resolve colour (green, yellow, red: also the dice it rolls, 4.1) and disorder,
//! collapsed by a rout or a blocked escape (K-13, K-17) and, at Monmouth, marched off the north
//! edge (K-39); each general's rating as General Casualties lower it (never below 1, spec 3);
//! the turn; and the sample battles' own facts (the turn Monmouth's Main Army arrived, K-39; a
//! British figure on the American edge at North Point, K-40). At the end it becomes the tabletop
//! report the record form starts from ([`TableState::report`]). One tap is one [`TableAction`]:
//!
//! | `what` | `target` | `value` |
//! |---|---|---|
//! | `turn` | – | +1 / −1; going on resets every colour to its start (K-10) and clears disorder (4.4) |
//! | `figures` | unit key (`a.u1`, `d.u3`) | +1 / −1 rank and file lost |
//! | `officer`, `ensign` | unit key | 1 lost, 0 restored; a loss turns the unit red (4.7) |
//! | `colour` | unit key | 0 green, 1 yellow, 2 red |
//! | `disordered`, `collapsed`, `left_table` | unit key | 1 on, 0 off (`left_table`: Monmouth only) |
//! | `rating` | general key (`a.g1`) | +1 / −1, between 1 and his rating at the start |
//! | `main_army` | – | 1 arrived this turn, 0 not yet (Monmouth) |
//! | `edge_reached` | – | 1 yes, 0 no (North Point) |

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::BattleSetup;
use super::catalogue::Catalogue;
use super::record::{GeneralReport, SideReport, TabletopReport, UnitReport};
use super::roster::{GeneralDoc, UnitDoc};
use super::types::Colour;
use super::validate::{profile, UnitProfile};
use crate::rules::system::BattleSide;
use crate::rules::table::{step, TableAction};

/// The `format` of a stored table state.
pub const TABLE_FORMAT: &str = "muster.atkm.table/1";

/// The sample battle whose British may march off the north edge and whose Main Army arrives
/// late (K-39).
pub const MONMOUTH: &str = "monmouth_1778";
/// The sample battle won by a British figure on the American edge (K-40).
pub const NORTH_POINT: &str = "north_point_1814";

pub const SIDES: [BattleSide; 2] = [BattleSide::Attacker, BattleSide::Defender];

/// The key prefix of a side.
pub fn side_key(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => "a",
        BattleSide::Defender => "d",
    }
}

/// One unit as it stands at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnitMarks {
    /// Rank and file lost.
    pub lost: u32,
    pub officer_lost: bool,
    /// The ensign lost: the colours taken.
    pub ensign_lost: bool,
    pub colour: Colour,
    pub disordered: bool,
    /// Collapsed by a rout, a blocked escape or a lost melee (K-13, K-17), whatever the figures.
    pub collapsed: bool,
    /// Marched off the north edge (Monmouth, K-39): not a loss.
    pub left_table: bool,
}

impl Default for UnitMarks {
    fn default() -> Self {
        UnitMarks {
            lost: 0,
            officer_lost: false,
            ensign_lost: false,
            colour: Colour::Green,
            disordered: false,
            collapsed: false,
            left_table: false,
        }
    }
}

/// The whole table. Units and generals are keyed `a.<id>` (attacker) or `d.<id>` (defender).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableState {
    pub format: String,
    pub turn: u32,
    pub units: BTreeMap<String, UnitMarks>,
    /// Each general's rating now.
    pub ratings: BTreeMap<String, u32>,
    /// Monmouth: the turn the Main Army arrived (K-39).
    #[serde(default)]
    pub main_army_turn: Option<u32>,
    /// North Point: a British infantry figure reached the American edge (K-40).
    #[serde(default)]
    pub edge_reached: bool,
}

/// A unit of the set-up with what it started with.
pub struct TableUnit<'a> {
    pub side: BattleSide,
    pub key: String,
    pub doc: &'a UnitDoc,
    pub profile: UnitProfile,
}

impl TableUnit<'_> {
    /// The unit's id in its roster.
    pub fn id(&self) -> String {
        self.doc.id.clone().unwrap_or_default()
    }

    /// Its name, or its type's when it has none.
    pub fn name(&self) -> String {
        if self.doc.name.trim().is_empty() {
            self.profile.unit_type.label().to_string()
        } else {
            self.doc.name.clone()
        }
    }

    /// The colour it starts a turn in (K-10): green; yellow without its ensign; red without its
    /// officer.
    pub fn start_colour(&self, m: &UnitMarks) -> Colour {
        if !self.profile.officer || m.officer_lost {
            Colour::Red
        } else if !self.profile.ensign || m.ensign_lost {
            Colour::Yellow
        } else {
            Colour::Green
        }
    }

    /// Rank and file left.
    pub fn left(&self, m: &UnitMarks) -> u32 {
        self.profile.rank_and_file.saturating_sub(m.lost)
    }

    /// Collapsed: at its break point or below (4.5), or marked so.
    pub fn collapsed(&self, m: &UnitMarks) -> bool {
        m.collapsed || self.left(m) <= self.profile.break_point
    }
}

/// Every unit of both sides the catalogue can read, attacker first, in roster order.
pub fn units<'a>(cat: &Catalogue, setup: &'a BattleSetup) -> Vec<TableUnit<'a>> {
    let mut out = Vec::new();
    for side in SIDES {
        for doc in &setup.force(side).roster.units {
            if let Some(profile) = profile(cat, doc) {
                out.push(TableUnit {
                    side,
                    key: format!("{}.{}", side_key(side), doc.id.clone().unwrap_or_default()),
                    doc,
                    profile,
                });
            }
        }
    }
    out
}

/// Every general of both sides with his key and rating at the start (1–3, spec 3).
pub fn generals(setup: &BattleSetup) -> Vec<(BattleSide, String, &GeneralDoc, u32)> {
    let mut out = Vec::new();
    for side in SIDES {
        for g in &setup.force(side).roster.generals {
            out.push((
                side,
                format!("{}.{}", side_key(side), g.id.clone().unwrap_or_default()),
                g,
                u32::try_from(g.rating.clamp(1, 3)).unwrap_or(2),
            ));
        }
    }
    out
}

fn flag(value: i32) -> Result<bool, String> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err("A switch is on (1) or off (0).".into()),
    }
}

impl TableState {
    /// The table before the first tap: turn 1, every unit whole in its starting colour, every
    /// general at his rating.
    pub fn start(cat: &Catalogue, setup: &BattleSetup) -> TableState {
        TableState {
            format: TABLE_FORMAT.into(),
            turn: 1,
            units: units(cat, setup)
                .into_iter()
                .map(|u| {
                    let fresh = UnitMarks::default();
                    let colour = u.start_colour(&fresh);
                    (u.key, UnitMarks { colour, ..fresh })
                })
                .collect(),
            ratings: generals(setup)
                .into_iter()
                .map(|(_, k, _, r)| (k, r))
                .collect(),
            main_army_turn: None,
            edge_reached: false,
        }
    }

    /// Reads a stored state and checks it against the set-up: the same units and generals,
    /// every count in its range.
    pub fn read(cat: &Catalogue, setup: &BattleSetup, text: &str) -> Result<TableState, String> {
        let state: TableState = serde_json::from_str(text)
            .map_err(|e| format!("The table's state could not be read: {e}"))?;
        if state.format != TABLE_FORMAT {
            return Err(format!("A table state's format is {TABLE_FORMAT}."));
        }
        if state.turn == 0 || state.turn > setup.turns {
            return Err(format!("The turn is 1 to {}.", setup.turns));
        }
        let fresh = TableState::start(cat, setup);
        if !state.units.keys().eq(fresh.units.keys())
            || !state.ratings.keys().eq(fresh.ratings.keys())
        {
            return Err("The table's state does not belong to this battle.".into());
        }
        for u in units(cat, setup) {
            if state
                .units
                .get(&u.key)
                .is_some_and(|m| m.lost > u.profile.rank_and_file)
            {
                return Err("A unit has lost more rank and file than it had.".into());
            }
        }
        for (_, key, _, start) in generals(setup) {
            if state
                .ratings
                .get(&key)
                .is_some_and(|r| *r == 0 || *r > start)
            {
                return Err("A general's rating is out of range.".into());
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
                    &format!("This battle lasts turns 1 to {}.", setup.turns),
                )?;
                if action.value > 0 {
                    // A new turn: every unit back to its starting colour, disorder gone (4.4, K-10).
                    for u in units(cat, setup) {
                        if let Some(m) = self.units.get_mut(&u.key) {
                            m.colour = u.start_colour(m);
                            m.disordered = false;
                        }
                    }
                }
            }
            "figures" | "officer" | "ensign" | "colour" | "disordered" | "collapsed"
            | "left_table" => {
                let all = units(cat, setup);
                let u = all
                    .iter()
                    .find(|u| u.key == action.target)
                    .ok_or("There is no such unit in this battle.")?;
                let name = u.name();
                let m = self
                    .units
                    .get_mut(&u.key)
                    .ok_or("There is no such unit in this battle.")?;
                match action.what.as_str() {
                    "figures" => {
                        let has = u.profile.rank_and_file;
                        m.lost = step(
                            m.lost,
                            action.value,
                            0,
                            has,
                            &format!("{name} has {has} rank and file to lose, no more (K-18)."),
                        )?;
                    }
                    "officer" | "ensign" => {
                        let present = if action.what == "officer" {
                            u.profile.officer
                        } else {
                            u.profile.ensign
                        };
                        if !present {
                            return Err(format!("{name} started without its {}.", action.what));
                        }
                        let lost = flag(action.value)?;
                        if action.what == "officer" {
                            m.officer_lost = lost;
                        } else {
                            m.ensign_lost = lost;
                        }
                        if lost {
                            // Losing either turns the unit red at once (4.7).
                            m.colour = Colour::Red;
                        }
                    }
                    "colour" => {
                        m.colour = usize::try_from(action.value)
                            .ok()
                            .and_then(|i| Colour::ALL.get(i).copied())
                            .ok_or("A colour is 0 (green), 1 (yellow) or 2 (red).")?;
                    }
                    "disordered" => m.disordered = flag(action.value)?,
                    "collapsed" => m.collapsed = flag(action.value)?,
                    _ => {
                        if setup.scenario != MONMOUTH || u.side != BattleSide::Attacker {
                            return Err(
                                "Only the British at Monmouth march off the table (K-39).".into()
                            );
                        }
                        m.left_table = flag(action.value)?;
                    }
                }
            }
            "rating" => {
                let (_, _, g, start) = generals(setup)
                    .into_iter()
                    .find(|(_, k, _, _)| *k == action.target)
                    .ok_or("There is no such general in this battle.")?;
                let now = self
                    .ratings
                    .get_mut(&action.target)
                    .ok_or("There is no such general in this battle.")?;
                *now = step(
                    *now,
                    action.value,
                    1,
                    start,
                    &format!(
                        "{}'s rating runs from 1 to {start}: casualties only lower it.",
                        g.name
                    ),
                )?;
            }
            "main_army" => {
                if setup.scenario != MONMOUTH {
                    return Err("Only Monmouth has a Main Army on its way (K-39).".into());
                }
                self.main_army_turn = flag(action.value)?.then_some(self.turn);
            }
            "edge_reached" => {
                if setup.scenario != NORTH_POINT {
                    return Err("Only North Point is won at the table edge (K-40).".into());
                }
                self.edge_reached = flag(action.value)?;
            }
            _ => return Err("Muster does not know that tap.".into()),
        }
        Ok(())
    }

    /// The tabletop report the record form starts from: each touched unit's rank and file left,
    /// officer, ensign, collapsed and marched off; each general whose rating fell; the turn
    /// reached; the scenario's facts.
    pub fn report(&self, cat: &Catalogue, setup: &BattleSetup) -> TabletopReport {
        let mut report = TabletopReport {
            turns_played: self.turn,
            edge_reached: self.edge_reached,
            reinforcements_arrived_turn: self.main_army_turn,
            ..Default::default()
        };
        for u in units(cat, setup) {
            let Some(m) = self.units.get(&u.key) else {
                continue;
            };
            let collapsed = u.collapsed(m);
            if m.lost == 0 && !m.officer_lost && !m.ensign_lost && !collapsed && !m.left_table {
                continue;
            }
            side_of(&mut report, u.side).units.push(UnitReport {
                id: u.id(),
                rank_and_file_end: Some(u.left(m)),
                officer_lost: m.officer_lost,
                ensign_lost: m.ensign_lost,
                collapsed,
                left_table: m.left_table && !collapsed,
                not_arrived: false,
            });
        }
        for (side, key, g, start) in generals(setup) {
            let now = self.ratings.get(&key).copied().unwrap_or(start);
            if now < start {
                side_of(&mut report, side).generals.push(GeneralReport {
                    id: g.id.clone().unwrap_or_default(),
                    rating_end: now,
                });
            }
        }
        report
    }
}

fn side_of(report: &mut TabletopReport, side: BattleSide) -> &mut SideReport {
    match side {
        BattleSide::Attacker => &mut report.attacker,
        BattleSide::Defender => &mut report.defender,
    }
}

crate::rules::table::table_document!(TableState, Catalogue, BattleSetup, super::system::Atkm);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::atkm::battle::prepare;
    use crate::rules::systems::atkm::record::assess;
    use crate::rules::systems::atkm::system::sample_force;

    fn battle(scenario: &str) -> (Catalogue, BattleSetup) {
        let cat = Catalogue::builtin().expect("catalogue");
        let a = sample_force(&format!("sample:{scenario}_british")).expect("sample");
        let d = sample_force(&format!("sample:{scenario}_americans")).expect("sample");
        let setup = prepare(&cat, a, d, Some(scenario), false, 5)
            .expect("set-up")
            .setup;
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
        let (cat, setup) = battle("cowpens_1781");
        let state = TableState::start(&cat, &setup);
        assert_eq!(state.units.len(), 14);
        assert!(state.units.values().all(|m| m.colour == Colour::Green));
        let o = assess(&cat, &setup, &state.report(&cat, &setup)).expect("assessed");
        assert_eq!(o.winner, None, "nothing happened: no army collapsed (K-16)");
    }

    #[test]
    fn losses_reach_the_break_point_and_the_report_carries_them() {
        let (cat, setup) = battle("cowpens_1781");
        let mut t = TableState::start(&cat, &setup);
        // The Americans' 1st Maryland: 12 privates, collapses at 4 (spec 1.1).
        for _ in 0..7 {
            t.apply(&cat, &setup, &tap("figures", "d.u1", 1)).unwrap();
        }
        let all = units(&cat, &setup);
        let md = all.iter().find(|u| u.key == "d.u1").unwrap();
        assert!(
            !md.collapsed(&t.units["d.u1"]),
            "5 left of 12: still standing"
        );
        t.apply(&cat, &setup, &tap("figures", "d.u1", 1)).unwrap();
        assert!(md.collapsed(&t.units["d.u1"]), "4 left: collapsed (4.5)");
        // The officer falls: red at once (4.7); next turn it starts red again (K-10).
        t.apply(&cat, &setup, &tap("officer", "d.u2", 1)).unwrap();
        assert_eq!(t.units["d.u2"].colour, Colour::Red);
        t.apply(&cat, &setup, &tap("ensign", "d.u3", 1)).unwrap();
        t.apply(&cat, &setup, &tap("colour", "a.u2", 2)).unwrap();
        t.apply(&cat, &setup, &tap("disordered", "a.u2", 1))
            .unwrap();
        t.apply(&cat, &setup, &tap("turn", "", 1)).unwrap();
        assert_eq!(t.units["d.u2"].colour, Colour::Red);
        assert_eq!(
            t.units["d.u3"].colour,
            Colour::Yellow,
            "no ensign: yellow (K-10)"
        );
        assert_eq!(t.units["a.u2"].colour, Colour::Green);
        assert!(
            !t.units["a.u2"].disordered,
            "disorder goes at the turn's start (4.4)"
        );
        t.apply(&cat, &setup, &tap("rating", "d.g1", -1)).unwrap();
        let report = t.report(&cat, &setup);
        assert_eq!(report.turns_played, 2);
        let md = report.defender.units.iter().find(|u| u.id == "u1").unwrap();
        assert_eq!((md.rank_and_file_end, md.collapsed), (Some(4), true));
        assert_eq!(report.defender.generals[0].rating_end, 1);
        assert!(assess(&cat, &setup, &report).is_ok());
        let text = serde_json::to_string(&t).unwrap();
        assert_eq!(TableState::read(&cat, &setup, &text), Ok(t));
    }

    #[test]
    fn impossible_taps_are_refused_in_words() {
        let (cat, setup) = battle("cowpens_1781");
        let mut t = TableState::start(&cat, &setup);
        for action in [
            tap("figures", "d.u1", -1),
            tap("figures", "x.u1", 1),
            tap("turn", "", -1),
            tap("colour", "a.u1", 3),
            tap("rating", "a.g1", 1),
            tap("rating", "a.ghost", -1),
            tap("left_table", "a.u1", 1),
            tap("main_army", "", 1),
            tap("edge_reached", "", 1),
            tap("dance", "", 1),
        ] {
            let before = t.clone();
            assert!(t.apply(&cat, &setup, &action).is_err(), "{action:?}");
            assert_eq!(t, before, "a refused tap changes nothing");
        }
        t.apply(&cat, &setup, &tap("rating", "a.g1", -1)).unwrap();
        assert!(
            t.apply(&cat, &setup, &tap("rating", "a.g1", -1)).is_err(),
            "never below 1 (spec 3)"
        );
        assert!(TableState::read(&cat, &setup, "{}").is_err());
    }

    #[test]
    fn monmouth_and_north_point_keep_their_own_facts() {
        let (cat, setup) = battle(MONMOUTH);
        let mut t = TableState::start(&cat, &setup);
        let british = units(&cat, &setup)
            .into_iter()
            .find(|u| u.side == BattleSide::Attacker)
            .unwrap()
            .key;
        t.apply(&cat, &setup, &tap("left_table", &british, 1))
            .unwrap();
        for _ in 0..2 {
            t.apply(&cat, &setup, &tap("turn", "", 1)).unwrap();
        }
        t.apply(&cat, &setup, &tap("main_army", "", 1)).unwrap();
        let report = t.report(&cat, &setup);
        assert_eq!(report.reinforcements_arrived_turn, Some(3));
        assert!(report.attacker.units[0].left_table);
        let o = assess(&cat, &setup, &report).expect("assessed");
        assert_eq!(
            o.defender.starting_units, 42,
            "once Washington arrives the Americans count 42 units (K-39)"
        );

        let (cat, setup) = battle(NORTH_POINT);
        let mut t = TableState::start(&cat, &setup);
        t.apply(&cat, &setup, &tap("edge_reached", "", 1)).unwrap();
        let o = assess(&cat, &setup, &t.report(&cat, &setup)).expect("assessed");
        assert_eq!(o.winner, Some(BattleSide::Attacker), "K-40");
    }
}
