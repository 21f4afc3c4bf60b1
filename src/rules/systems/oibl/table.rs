//! A *One if by Land* battle at the table, for `Systems::table_start` / `table_apply`: per unit
//! the figures lost (a battery: its crew) against its loss bands (B-9) and the mark below which
//! it is destroyed (B-33), its guns lost, the Panic Marker, failed by 1 (B-23), routing, reforming
//! (B-25) and off the table (B-24); each commander's wound or death (B-32); the turn (B-35). At
//! the end it becomes the tabletop report the record form starts from ([`TableState::report`]).
//! One tap is one [`TableAction`]:
//!
//! | `what` | `target` | `value` |
//! |---|---|---|
//! | `turn` | – | +1 / −1, within the battle's turns |
//! | `figures` | unit key (`a.u1`, `d.u3`) | +1 / −1 figure (crew) lost |
//! | `guns` | battery key | +1 / −1 gun lost |
//! | `panic`, `failed_by_1`, `routing`, `reforming`, `left_table` | unit key | 1 on, 0 off |
//! | `fate` | commander key (`a.c1`) | 0 unhurt, 1 light wound, 2 serious wound, 3 killed |
//!
//! The switches keep each other consistent the way the rules tie them (B-64): failed by 1 and
//! routing carry a Panic Marker (B-23, and a routing unit has one); taking the marker off (a
//! passed test, B-12) ends failed by 1; a rallied unit reforming has no marker and is no longer
//! routing; a unit routing is neither reforming nor merely failed by 1.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::{BattleSetup, Fate};
use super::catalogue::Catalogue;
use super::record::{
    commander_lines, CommanderLine, CommanderReport, SideReport, TabletopReport, UnitReport,
};
use super::types::Kind;
use super::unit::{stats, UnitStats};
use crate::rules::system::BattleSide;
use crate::rules::table::{step, TableAction};

/// The `format` of a stored table state.
pub const TABLE_FORMAT: &str = "muster.oibl.table/1";

pub const SIDES: [BattleSide; 2] = [BattleSide::Attacker, BattleSide::Defender];

/// The key prefix of a side: `a` or `d`.
pub fn side_key(side: BattleSide) -> &'static str {
    match side {
        BattleSide::Attacker => "a",
        BattleSide::Defender => "d",
    }
}

/// The fates of a commander in the order the table's buttons carry them (0 to 3).
pub const FATES: [Fate; 4] = [
    Fate::Unhurt,
    Fate::LightWound,
    Fate::SeriousWound,
    Fate::Killed,
];

/// One unit as it stands at the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UnitMarks {
    /// Figures lost (a battery: crew figures).
    pub lost: u32,
    pub guns_lost: u32,
    pub panic: bool,
    pub failed_by_1: bool,
    pub routing: bool,
    pub reforming: bool,
    /// Routed off or otherwise gone from the table (B-24).
    pub left_table: bool,
}

/// The whole table. Units and commanders are keyed `a.<id>` (attacker) or `d.<id>` (defender).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableState {
    pub format: String,
    pub turn: u32,
    pub units: BTreeMap<String, UnitMarks>,
    pub commanders: BTreeMap<String, Fate>,
}

/// A unit of the set-up with what it started with.
#[derive(Debug, Clone)]
pub struct TableUnit {
    pub side: BattleSide,
    /// `a.u1`.
    pub key: String,
    /// Its brigade's index in its roster.
    pub brigade: usize,
    pub stats: UnitStats,
}

impl TableUnit {
    /// Figures left.
    pub fn left(&self, m: &UnitMarks) -> u32 {
        self.stats.figures.saturating_sub(m.lost)
    }

    /// Destroyed (B-33): fewer figures than the Combat Table's smallest row, or every gun gone.
    pub fn destroyed(&self, cat: &Catalogue, m: &UnitMarks) -> bool {
        self.left(m) < cat.destroyed_below
            || (self.stats.kind == Kind::Artillery && m.guns_lost >= self.stats.guns)
    }

    /// Lost for Muster's army morale (B-34): destroyed, off the table or routing.
    pub fn lost(&self, cat: &Catalogue, m: &UnitMarks) -> bool {
        self.destroyed(cat, m) || m.left_table || m.routing
    }

    /// The loss band's morale modifier it tests with now (B-9: the highest reached, inclusive,
    /// on starting figures), 0 below the first.
    pub fn band(&self, cat: &Catalogue, m: &UnitMarks) -> i32 {
        let start = u64::from(self.stats.figures);
        let lost = u64::from(m.lost);
        cat.loss_bands
            .iter()
            .filter(|b| start > 0 && lost * 4 >= u64::from(b.quarters) * start)
            .map(|b| cat.morale_mod(&b.id))
            .max()
            .unwrap_or(0)
    }
}

/// Every readable unit of both sides, attacker first, in roster order. A unit without an id
/// is keyed by where it stands (`b0u2`), as the tabletop record names it.
pub fn units(cat: &Catalogue, setup: &BattleSetup) -> Vec<TableUnit> {
    let mut out = Vec::new();
    for side in SIDES {
        for (b, u, doc) in setup.side(side).roster.units() {
            if let Some(stats) = stats(cat, doc, &format!("b{b}u{u}")) {
                out.push(TableUnit {
                    side,
                    key: format!("{}.{}", side_key(side), stats.id),
                    brigade: b,
                    stats,
                });
            }
        }
    }
    out
}

/// A commander of the set-up with his key.
#[derive(Debug, Clone)]
pub struct TableCommander {
    pub side: BattleSide,
    /// `a.c1`.
    pub key: String,
    pub line: CommanderLine,
}

/// Every commander of both sides, attacker first.
pub fn commanders(setup: &BattleSetup) -> Vec<TableCommander> {
    SIDES
        .iter()
        .flat_map(|side| {
            commander_lines(&setup.side(*side).roster)
                .into_iter()
                .map(move |line| TableCommander {
                    side: *side,
                    key: format!("{}.{}", side_key(*side), line.id),
                    line,
                })
        })
        .collect()
}

/// A side's units lost at which it is beaten (B-34): the smallest count reaching the share.
pub fn beaten_at(cat: &Catalogue, units: u32) -> u32 {
    let v = &cat.victory;
    (u64::from(units) * u64::from(v.lost_share_num))
        .div_ceil(u64::from(v.lost_share_den.max(1)))
        .try_into()
        .unwrap_or(u32::MAX)
}

fn flag(value: i32) -> Result<bool, String> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err("A switch is on (1) or off (0).".into()),
    }
}

impl TableState {
    /// The table before the first tap: turn 1, every unit whole and steady, every commander
    /// unhurt.
    pub fn start(cat: &Catalogue, setup: &BattleSetup) -> TableState {
        TableState {
            format: TABLE_FORMAT.into(),
            turn: 1,
            units: units(cat, setup)
                .into_iter()
                .map(|u| (u.key, UnitMarks::default()))
                .collect(),
            commanders: commanders(setup)
                .into_iter()
                .map(|c| (c.key, Fate::Unhurt))
                .collect(),
        }
    }

    /// Reads a stored state and checks it against the set-up: the same units and commanders,
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
            || !state.commanders.keys().eq(fresh.commanders.keys())
        {
            return Err("The table's state does not belong to this battle.".into());
        }
        for u in units(cat, setup) {
            if let Some(m) = state.units.get(&u.key) {
                if m.lost > u.stats.figures || m.guns_lost > u.stats.guns {
                    return Err("A unit has lost more than it had.".into());
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
                self.turn = step(
                    self.turn,
                    action.value,
                    1,
                    setup.turns,
                    &format!("This battle lasts turns 1 to {} (B-35).", setup.turns),
                )?;
            }
            "figures" | "guns" | "panic" | "failed_by_1" | "routing" | "reforming"
            | "left_table" => {
                let all = units(cat, setup);
                let u = all
                    .iter()
                    .find(|u| u.key == action.target)
                    .ok_or("There is no such unit in this battle.")?;
                let name = &u.stats.name;
                let m = self
                    .units
                    .get_mut(&u.key)
                    .ok_or("There is no such unit in this battle.")?;
                let mut next = m.clone();
                match action.what.as_str() {
                    "figures" => {
                        let has = u.stats.figures;
                        let what = if u.stats.kind == Kind::Artillery {
                            "crew figures"
                        } else {
                            "figures"
                        };
                        next.lost = step(
                            m.lost,
                            action.value,
                            0,
                            has,
                            &format!("{name} started with {has} {what}: between none and all of them can be lost."),
                        )?;
                    }
                    "guns" => {
                        if u.stats.kind != Kind::Artillery {
                            return Err(format!("{name} has no guns."));
                        }
                        let has = u.stats.guns;
                        next.guns_lost = step(
                            m.guns_lost,
                            action.value,
                            0,
                            has,
                            &format!("{name} has {has} gun(s) to lose, no more."),
                        )?;
                    }
                    "panic" => {
                        next.panic = flag(action.value)?;
                        if !next.panic {
                            // Only a passed test takes the marker off, and with it the
                            // restriction of failing by 1 (B-12, B-23); a routing unit keeps it.
                            if m.routing {
                                return Err(format!(
                                    "{name} is routing and keeps its Panic Marker until it rallies."
                                ));
                            }
                            next.failed_by_1 = false;
                        }
                    }
                    "failed_by_1" => {
                        next.failed_by_1 = flag(action.value)?;
                        if next.failed_by_1 {
                            // Failing by 1 keeps the marker (B-23); it neither routs nor reforms.
                            next.panic = true;
                            next.routing = false;
                            next.reforming = false;
                        }
                    }
                    "routing" => {
                        next.routing = flag(action.value)?;
                        if next.routing {
                            // A unit that routs has a Panic Marker and no formation (B-24).
                            next.panic = true;
                            next.failed_by_1 = false;
                            next.reforming = false;
                        }
                    }
                    "reforming" => {
                        next.reforming = flag(action.value)?;
                        if next.reforming {
                            // It rallied: the test was passed, the marker is gone (B-25).
                            next.routing = false;
                            next.panic = false;
                            next.failed_by_1 = false;
                        }
                    }
                    _ => next.left_table = flag(action.value)?,
                }
                *m = next;
            }
            "fate" => {
                let c = self
                    .commanders
                    .get_mut(&action.target)
                    .ok_or("There is no such commander in this battle.")?;
                *c = usize::try_from(action.value)
                    .ok()
                    .and_then(|i| FATES.get(i).copied())
                    .ok_or(
                        "A commander is unhurt (0), lightly wounded (1), seriously wounded (2) \
                         or killed (3).",
                    )?;
            }
            _ => return Err("Muster does not know that tap.".into()),
        }
        Ok(())
    }

    /// The tabletop report the record form starts from: each touched unit's figures and guns
    /// lost, routing and off the table; each commander hurt; the turn reached. Muster's rule
    /// decides (no players' result).
    pub fn report(&self, cat: &Catalogue, setup: &BattleSetup) -> TabletopReport {
        let mut report = TabletopReport {
            turns: self.turn,
            ..TabletopReport::default()
        };
        for u in units(cat, setup) {
            let Some(m) = self.units.get(&u.key) else {
                continue;
            };
            if m.lost == 0 && m.guns_lost == 0 && !m.routing && !m.left_table {
                continue;
            }
            side_of(&mut report, u.side).units.push(UnitReport {
                id: u.stats.id.clone(),
                figures_lost: m.lost,
                routed: m.routing,
                left_table: m.left_table,
                destroyed: false,
                guns_lost: m.guns_lost,
            });
        }
        for c in commanders(setup) {
            let fate = self.commanders.get(&c.key).copied().unwrap_or_default();
            if fate != Fate::Unhurt {
                side_of(&mut report, c.side)
                    .commanders
                    .push(CommanderReport {
                        id: c.line.id.clone(),
                        fate,
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

crate::rules::table::table_document!(TableState, Catalogue, BattleSetup, super::system::Oibl);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::oibl::battle::Level;
    use crate::rules::systems::oibl::record::{assess, prepare};
    use crate::rules::systems::oibl::system::example_force;
    use crate::rules::table::{apply_stored, start_stored};

    fn battle() -> (Catalogue, BattleSetup) {
        let cat = match Catalogue::builtin() {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        let (Some(a), Some(b)) = (
            example_force("example:american"),
            example_force("example:british"),
        ) else {
            panic!("the examples read");
        };
        match prepare(&cat, a, b, Some("open_field"), false, 3) {
            Ok(p) => (cat, p.setup),
            Err(e) => panic!("{e}"),
        }
    }

    fn tap(what: &str, target: &str, value: i32) -> TableAction {
        TableAction {
            what: what.into(),
            target: target.into(),
            value,
        }
    }

    fn apply(t: &mut TableState, cat: &Catalogue, setup: &BattleSetup, a: TableAction) {
        if let Err(e) = t.apply(cat, setup, &a) {
            panic!("{a:?}: {e}");
        }
    }

    #[test]
    fn a_fresh_table_has_every_unit_and_commander_of_both_sides() {
        let (cat, setup) = battle();
        let t = TableState::start(&cat, &setup);
        assert_eq!(t.turn, 1);
        // Five units a side in the examples, one brigade commander each.
        assert_eq!(t.units.len(), 10);
        assert!(t.units.contains_key("a.u1") && t.units.contains_key("d.u5"));
        assert_eq!(t.commanders.len(), 2);
        assert!(t.commanders.contains_key("a.c1"));
        let text = match serde_json::to_string(&t) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(TableState::read(&cat, &setup, &text), Ok(t));
    }

    #[test]
    fn loss_bands_and_destruction_follow_the_figures() {
        let (cat, setup) = battle();
        let all = units(&cat, &setup);
        // 1st Continental: 6 stands × 3 = 18 figures.
        let Some(u) = all.iter().find(|u| u.key == "a.u1") else {
            panic!("a.u1");
        };
        assert_eq!(u.stats.figures, 18);
        let marks = |lost| UnitMarks {
            lost,
            ..UnitMarks::default()
        };
        // B-9 inclusive on 18: 25 % at 5 (5 × 4 = 20 ≥ 18), 50 % at 9, 75 % at 14.
        assert_eq!(u.band(&cat, &marks(4)), 0);
        assert_eq!(u.band(&cat, &marks(5)), 1);
        assert_eq!(u.band(&cat, &marks(9)), 2);
        assert_eq!(u.band(&cat, &marks(13)), 2);
        assert_eq!(u.band(&cat, &marks(14)), 3);
        // B-33: 2 figures left still fight, 1 is destroyed.
        assert!(!u.destroyed(&cat, &marks(16)));
        assert!(u.destroyed(&cat, &marks(17)));
        // The battery (light gun, crew 2): losing its gun destroys it whatever the crew.
        let Some(gun) = all.iter().find(|u| u.key == "a.u5") else {
            panic!("a.u5");
        };
        assert!(gun.destroyed(
            &cat,
            &UnitMarks {
                guns_lost: 1,
                ..UnitMarks::default()
            }
        ));
    }

    #[test]
    fn the_switches_keep_the_markers_consistent() {
        let (cat, setup) = battle();
        let mut t = TableState::start(&cat, &setup);
        apply(&mut t, &cat, &setup, tap("failed_by_1", "a.u3", 1));
        assert!(t.units["a.u3"].panic, "failed by 1 keeps its marker (B-23)");
        apply(&mut t, &cat, &setup, tap("panic", "a.u3", 0));
        assert!(
            !t.units["a.u3"].failed_by_1,
            "a passed test ends the restriction (B-23)"
        );
        apply(&mut t, &cat, &setup, tap("routing", "a.u3", 1));
        assert!(t.units["a.u3"].panic);
        let before = t.clone();
        assert!(
            t.apply(&cat, &setup, &tap("panic", "a.u3", 0)).is_err(),
            "a router keeps its marker"
        );
        assert_eq!(t, before, "a refused tap changes nothing");
        apply(&mut t, &cat, &setup, tap("reforming", "a.u3", 1));
        let m = &t.units["a.u3"];
        assert!(m.reforming && !m.routing && !m.panic, "rallied (B-25)");
    }

    #[test]
    fn taps_out_of_range_are_refused_and_change_nothing() {
        let (cat, setup) = battle();
        let mut t = TableState::start(&cat, &setup);
        let before = t.clone();
        for action in [
            tap("figures", "a.u1", -1),
            tap("figures", "a.u1", 2),
            tap("guns", "a.u1", 1),
            tap("guns", "a.u5", -1),
            tap("turn", "", -1),
            tap("fate", "a.c1", 4),
            tap("fate", "a.nobody", 1),
            tap("routing", "a.u1", 2),
            tap("routing", "x.u1", 1),
            tap("charge", "a.u1", 1),
        ] {
            assert!(t.apply(&cat, &setup, &action).is_err(), "{action:?}");
            assert_eq!(t, before, "{action:?}");
        }
        for _ in 0..11 {
            apply(&mut t, &cat, &setup, tap("turn", "", 1));
        }
        assert_eq!(t.turn, 12);
        assert!(
            t.apply(&cat, &setup, &tap("turn", "", 1)).is_err(),
            "B-35: twelve turns"
        );
        assert!(TableState::read(&cat, &setup, "{}").is_err());
        let mut wrong = TableState::start(&cat, &setup);
        wrong.units.remove("a.u1");
        let text = serde_json::to_string(&wrong).unwrap_or_default();
        assert!(TableState::read(&cat, &setup, &text).is_err());
    }

    #[test]
    fn the_table_becomes_a_report_decided_by_b34() {
        let (cat, setup) = battle();
        let mut t = TableState::start(&cat, &setup);
        for _ in 0..5 {
            apply(&mut t, &cat, &setup, tap("turn", "", 1));
        }
        // The British (defender) lose three of five units: two routing, the battery's gun.
        for _ in 0..4 {
            apply(&mut t, &cat, &setup, tap("figures", "d.u1", 1));
        }
        apply(&mut t, &cat, &setup, tap("routing", "d.u1", 1));
        apply(&mut t, &cat, &setup, tap("routing", "d.u2", 1));
        apply(&mut t, &cat, &setup, tap("guns", "d.u5", 1));
        apply(&mut t, &cat, &setup, tap("fate", "d.c1", 3));
        apply(&mut t, &cat, &setup, tap("panic", "a.u2", 1));
        let report = t.report(&cat, &setup);
        assert_eq!(report.turns, 6);
        assert_eq!(report.defender.units.len(), 3);
        assert!(report.attacker.units.is_empty(), "a marker is no loss");
        assert_eq!(report.defender.commanders.len(), 1);
        let o = match assess(&cat, &setup, &report) {
            Ok(o) => o,
            Err(p) => panic!("{p:?}"),
        };
        assert_eq!(o.winner, Some(BattleSide::Attacker));
        assert_eq!(o.level, Level::Decisive);
        assert_eq!(o.defender.lost_units(), 3);
        // 4 from the 1st Foot, and the battery's 2 crew with its gun (B-57).
        assert_eq!(o.defender.figures_lost(), 6);
        assert!(o
            .defender
            .commanders
            .iter()
            .any(|c| c.id == "c1" && c.fate == Fate::Killed));
    }

    #[test]
    fn stopping_early_is_decided_on_the_figures_b63() {
        let (cat, setup) = battle();
        let mut t = TableState::start(&cat, &setup);
        apply(&mut t, &cat, &setup, tap("turn", "", 1));
        for _ in 0..3 {
            apply(&mut t, &cat, &setup, tap("figures", "a.u1", 1));
        }
        let o = match assess(&cat, &setup, &t.report(&cat, &setup)) {
            Ok(o) => o,
            Err(p) => panic!("{p:?}"),
        };
        assert_eq!(o.winner, Some(BattleSide::Defender));
        assert_eq!(o.level, Level::Marginal);
        assert!(o.reason.contains("after 2 of 12 turns"), "{}", o.reason);
        assert!(o.reason.contains("B-63"), "{}", o.reason);
    }

    #[test]
    fn stored_documents_go_through_the_generic_steps() {
        let (cat, setup) = battle();
        let text =
            <super::super::system::Oibl as crate::rules::system::RuleSystem>::write_setup(&setup);
        let fresh = match start_stored::<TableState>(&cat, &text) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        let next =
            match apply_stored::<TableState>(&cat, &text, Some(&fresh), &tap("figures", "d.u3", 1))
            {
                Ok(Ok(s)) => s,
                other => panic!("{other:?}"),
            };
        assert!(next.contains("\"lost\":1"), "{next}");
        assert!(matches!(
            apply_stored::<TableState>(&cat, &text, Some(&next), &tap("guns", "d.u3", 1)),
            Ok(Err(_))
        ));
        assert!(apply_stored::<TableState>(&cat, "{}", None, &tap("turn", "", 1)).is_err());
    }
}
