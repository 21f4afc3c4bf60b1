//! Setting a battle up (initiative and Command Points rolled with a stored seed) and assessing
//! a result played on the table: each unit's end state and the Generals killed, scored by the
//! victory rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RecordProblem};

use super::battle::{
    score, BattleSetup, EndReason, EndState, Ending, ForceSetup, Outcome, SideEnd, UnitEnd,
    BATTLE_FORMAT, OPEN_FIELD,
};
use super::catalogue::{Catalogue, DiceRoll};
use super::roster::RosterDoc;
use super::types::ArmyList;

/// A set-up with what was rolled for it, in words.
pub struct PreparedSetup {
    pub setup: BattleSetup,
    pub rolls: Vec<String>,
    pub swapped: bool,
}

fn roll(dice: &mut Dice, expr: DiceRoll) -> u32 {
    let outcomes = expr.outcomes();
    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
    let mut pick = dice.below(total);
    for (value, weight) in outcomes {
        if pick < *weight {
            return u32::try_from(*value).unwrap_or(0);
        }
        pick -= weight;
    }
    0
}

/// Sets a battle up: the first roster attacks unless `roll_roles` rolls the roles; each C-in-C
/// rolls D3 Command Points on top of one per brigade (L-42); the initiative dice are rolled
/// until they differ (L-1). Everything comes from `seed`, so the set-up replays.
pub fn prepare(
    cat: &Catalogue,
    first: RosterDoc,
    second: RosterDoc,
    scenario: Option<&str>,
    roll_roles: bool,
    seed: u64,
) -> Result<PreparedSetup, String> {
    if let Some(s) = scenario.filter(|s| !s.is_empty() && *s != OPEN_FIELD) {
        return Err(format!(
            "Liberty or Death! battles are fought on an open field in Muster; there is no scenario '{s}'."
        ));
    }
    for roster in [&first, &second] {
        if ArmyList::from_id(&roster.army_list).is_none() {
            return Err(format!(
                "'{}' has no army list Muster knows, so it cannot fight.",
                roster.name
            ));
        }
        if roster.unit_count() == 0 {
            return Err(format!("'{}' has no units to fight with.", roster.name));
        }
        // A unit the lists cannot field has no numbers to fight or score with.
        let units = super::validate::units(cat, roster);
        if let Some((_, _, unit)) = roster
            .units()
            .zip(&units)
            .find(|(_, view)| view.profile.is_none())
            .map(|(u, _)| u)
        {
            return Err(format!(
                "'{}' cannot fight: its unit '{}' ({} at {} bases) is not one the army lists can field. Correct the roster first.",
                roster.name,
                if unit.name.is_empty() { &unit.entry } else { &unit.name },
                unit.entry,
                unit.bases
            ));
        }
    }
    let mut dice = Dice::from_seed(seed);
    let mut rolls = Vec::new();
    let swapped = roll_roles && {
        let (a, b) = (dice.d6(), dice.d6());
        rolls.push(format!(
            "Roles: {} rolled {a}, {} rolled {b}; the higher attacks (ties go to the first).",
            first.name, second.name
        ));
        b > a
    };
    let (mut attacker, mut defender) = if swapped {
        (second, first)
    } else {
        (first, second)
    };
    attacker.assign_ids();
    defender.assign_ids();
    let force = |roster: RosterDoc, dice: &mut Dice, rolls: &mut Vec<String>| {
        let c_in_c_roll = roll(dice, cat.tables.command_points.c_in_c);
        let command_points =
            roster.brigades.len() as u32 * cat.tables.command_points.per_brigade + c_in_c_roll;
        rolls.push(format!(
            "{}: {} brigade{} and the C-in-C's D3 of {c_in_c_roll} give {command_points} Command Points.",
            roster.name,
            roster.brigades.len(),
            if roster.brigades.len() == 1 { "" } else { "s" }
        ));
        ForceSetup {
            roster,
            command_points,
            c_in_c_roll,
        }
    };
    let attacker = force(attacker, &mut dice, &mut rolls);
    let defender = force(defender, &mut dice, &mut rolls);
    let (a, d) = loop {
        let (a, d) = (dice.d6(), dice.d6());
        if a != d {
            break (u32::from(a), u32::from(d));
        }
    };
    let initiative = if a > d {
        BattleSide::Attacker
    } else {
        BattleSide::Defender
    };
    let first_name = if a > d {
        &attacker.roster.name
    } else {
        &defender.roster.name
    };
    rolls.push(format!(
        "Initiative: {a} against {d}; {first_name} plays first every turn (L-1)."
    ));
    let setup = BattleSetup {
        format: BATTLE_FORMAT.to_string(),
        scenario: OPEN_FIELD.to_string(),
        turns: cat.tables.victory.default_turns,
        attacker,
        defender,
        initiative,
        initiative_rolls: (a, d),
        seed: dice.below(u32::MAX) as u64 | (u64::from(dice.below(u32::MAX)) << 32),
    };
    Ok(PreparedSetup {
        setup,
        rolls,
        swapped,
    })
}

/// One side of a result entered from the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideReport {
    /// Each unit's end state by its id: `steady`, `worn`, `shaken`, `broken` or `routed_off`.
    #[serde(default)]
    pub units: BTreeMap<String, String>,
    /// Ids of the side's Generals who were killed.
    #[serde(default)]
    pub generals_killed: Vec<String>,
}

/// A result entered from the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopReport {
    /// Turns played (1 to the game's length).
    pub turns_played: u32,
    pub attacker: SideReport,
    pub defender: SideReport,
}

/// Checks a tabletop report against the set-up and scores it; every problem at once, by field.
pub fn assess(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Result<Outcome, Vec<RecordProblem>> {
    let mut problems = Vec::new();
    if report.turns_played == 0 || report.turns_played > setup.turns {
        problems.push(RecordProblem {
            field: "turns_played".into(),
            message: format!("Turns played must be between 1 and {}.", setup.turns),
        });
    }
    let side = |side: BattleSide, given: &SideReport, problems: &mut Vec<RecordProblem>| {
        let roster = &setup.force(side).roster;
        let mut units = Vec::new();
        for (_, _, unit) in roster.units() {
            let id = unit.id.clone().unwrap_or_default();
            let name = if unit.name.is_empty() {
                unit.entry.clone()
            } else {
                unit.name.clone()
            };
            let field = format!("{}.units.{id}", side.id());
            match given.units.get(&id).map(|s| EndState::from_id(s)) {
                Some(Some(end)) => units.push(UnitEnd {
                    unit: id,
                    name,
                    end,
                    hits: None,
                }),
                Some(None) => problems.push(RecordProblem {
                    field,
                    message: format!(
                        "Say how {name} ended: STEADY, WORN, SHAKEN, BROKEN or routed off the table."
                    ),
                }),
                None => problems.push(RecordProblem {
                    field,
                    message: format!("Say how {name} ended the battle."),
                }),
            }
        }
        for id in given.units.keys() {
            if !roster
                .units()
                .any(|(_, _, u)| u.id.as_deref() == Some(id.as_str()))
            {
                problems.push(RecordProblem {
                    field: format!("{}.units.{id}", side.id()),
                    message: format!("{} has no unit '{id}'.", roster.name),
                });
            }
        }
        for id in &given.generals_killed {
            let known = roster
                .brigades
                .iter()
                .filter_map(|b| b.general.as_ref())
                .any(|g| g.id.as_deref() == Some(id.as_str()));
            if !known {
                problems.push(RecordProblem {
                    field: format!("{}.generals_killed", side.id()),
                    message: format!("{} has no General '{id}'.", roster.name),
                });
            }
        }
        SideEnd {
            army_list: ArmyList::from_id(&roster.army_list).unwrap_or(ArmyList::Continental),
            units,
            generals_killed: given.generals_killed.clone(),
        }
    };
    let attacker = side(BattleSide::Attacker, &report.attacker, &mut problems);
    let defender = side(BattleSide::Defender, &report.defender, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    let broke = |s: &SideEnd| {
        let lost = s.units.iter().filter(|u| u.end.lost()).count() as u32;
        lost >= super::battle::break_point(s.units.len() as u32)
    };
    let ended_by = if broke(&attacker) || broke(&defender) {
        EndReason::BreakPoint
    } else {
        EndReason::Recorded
    };
    Ok(score(
        cat,
        Ending {
            method: Method::Tabletop,
            seed: None,
            turns_played: report.turns_played,
            ended_by,
            log: Vec::new(),
        },
        attacker,
        defender,
    ))
}
