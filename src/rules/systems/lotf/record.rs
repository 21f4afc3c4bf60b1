//! Games played on the table: what the players report (each element's final state and hits,
//! each commander's fate, objectives held, turns played) and what follows from it under the
//! book's victory rules: points lost, broken groups and forces, objectives
//! and victory points. Impossible reports are refused with every problem named.

use serde::{Deserialize, Serialize};

use super::battle::{BattleSetup, ScenarioId};
use super::catalogue::Catalogue;
use super::combat::victory::{
    broken_force_verdict, element_counts_as_broken, group_is_broken, victory_by_broken_forces,
    victory_by_objectives, victory_by_points, Victory,
};
use super::combat::Side;
use super::types::DisciplineLevel;
use super::validate::price_element;

/// How an element ended the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalState {
    Fit,
    Shaken,
    Exhausted,
    Shattered,
    /// Withdrew off the table or was removed.
    LeftTheField,
}

impl FinalState {
    pub fn label(self) -> &'static str {
        match self {
            FinalState::Fit => "Fit",
            FinalState::Shaken => "Shaken",
            FinalState::Exhausted => "Exhausted",
            FinalState::Shattered => "Shattered",
            FinalState::LeftTheField => "left the field",
        }
    }

    /// Lost for victory points and broken for its group.
    pub fn is_lost(self) -> bool {
        match self {
            FinalState::LeftTheField => true,
            FinalState::Fit => element_counts_as_broken(DisciplineLevel::Fit, false),
            FinalState::Shaken => element_counts_as_broken(DisciplineLevel::Shaken, false),
            FinalState::Exhausted => element_counts_as_broken(DisciplineLevel::Exhausted, false),
            FinalState::Shattered => element_counts_as_broken(DisciplineLevel::Shattered, false),
        }
    }

    /// Able to hold an objective at the end: Fit or Shaken and still on the table.
    pub fn can_hold(self) -> bool {
        matches!(self, FinalState::Fit | FinalState::Shaken)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommanderFate {
    Unharmed,
    Killed,
    Captured,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementReport {
    pub side: Side,
    /// The element's id in its side's roster.
    pub id: String,
    pub state: FinalState,
    #[serde(default)]
    pub hits: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderReport {
    pub side: Side,
    pub id: String,
    pub fate: CommanderFate,
}

/// What the players enter after the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopReport {
    pub turns_played: u32,
    pub elements: Vec<ElementReport>,
    #[serde(default)]
    pub commanders: Vec<CommanderReport>,
    /// Objectives held at the end, in scenarios decided by objectives.
    #[serde(default)]
    pub attacker_objectives: u32,
    #[serde(default)]
    pub defender_objectives: u32,
}

/// One thing wrong with a report: where, and why, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordProblem {
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementResult {
    pub side: Side,
    pub id: String,
    pub name: String,
    pub points: u32,
    pub state: FinalState,
    pub hits: u32,
    /// Counts as lost for victory points.
    pub lost: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TabletopOutcome {
    pub victory: Victory,
    pub points_size: u32,
    pub attacker_points_lost: u32,
    pub defender_points_lost: u32,
    pub broken_groups: [usize; 2],
    pub groups: [usize; 2],
    pub elements: Vec<ElementResult>,
    pub commanders: Vec<CommanderReport>,
    pub turns_played: u32,
}

/// Objectives laid out by each scenario decided by objectives (M-23): four in Take the Field
/// three in Hold the Ground, Flank Attack, Surrounded and Frontal Assault; 0 where
/// victory points decide.
pub fn objective_count(scenario: ScenarioId) -> u32 {
    match scenario {
        ScenarioId::TakeTheField => 4,
        ScenarioId::HoldTheGround
        | ScenarioId::FlankAttack
        | ScenarioId::Surrounded
        | ScenarioId::FrontalAssault => 3,
        _ => 0,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attacker => "attacker",
        Side::Defender => "defender",
    }
}

/// Checks a report against the set-up and works out the result. Every element of both forces
/// must be reported once; commanders not mentioned are unharmed.
pub fn assess(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Result<TabletopOutcome, Vec<RecordProblem>> {
    let mut problems = Vec::new();
    let problem = |problems: &mut Vec<RecordProblem>, field: String, message: String| {
        problems.push(RecordProblem { field, message })
    };
    let max_turns = u32::from(cat.tables().game_length_turns);
    if report.turns_played == 0 || report.turns_played > max_turns {
        problem(
            &mut problems,
            "turns_played".into(),
            format!(
                "A game lasts 1 to {max_turns} turns (R-24); {} were entered.",
                report.turns_played
            ),
        );
    }

    let mut elements = Vec::new();
    let mut broken_groups = [0usize; 2];
    let mut groups = [0usize; 2];
    let mut can_hold = [false; 2];
    let mut lost_points = [0u32; 2];
    for (si, (side, force)) in [
        (Side::Attacker, &setup.attacker),
        (Side::Defender, &setup.defender),
    ]
    .into_iter()
    .enumerate()
    {
        for g in &force.roster.groups {
            let mut broken = 0;
            for e in &g.elements {
                let id = e.id.clone().unwrap_or_default();
                let reports: Vec<(usize, &ElementReport)> = report
                    .elements
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.side == side && r.id == id)
                    .collect();
                let Some((ri, r)) = reports.first().copied() else {
                    problem(
                        &mut problems,
                        format!("{}.{id}", side_name(side)),
                        format!("Say how {} ended the game.", e.name),
                    );
                    continue;
                };
                if reports.len() > 1 {
                    problem(
                        &mut problems,
                        format!("elements[{ri}]"),
                        format!("{} is reported more than once.", e.name),
                    );
                }
                if r.hits > 20 {
                    problem(
                        &mut problems,
                        format!("elements[{ri}].hits"),
                        format!(
                            "{}: {} hits is more than any element can carry.",
                            e.name, r.hits
                        ),
                    );
                }
                let points = price_element(cat, e);
                let lost = r.state.is_lost();
                if lost {
                    broken += 1;
                    lost_points[si] += points;
                }
                can_hold[si] |= r.state.can_hold();
                elements.push(ElementResult {
                    side,
                    id,
                    name: e.name.clone(),
                    points,
                    state: r.state,
                    hits: r.hits,
                    lost,
                });
            }
            groups[si] += 1;
            if group_is_broken(broken, g.elements.len()) {
                broken_groups[si] += 1;
            }
        }
    }
    for (ri, r) in report.elements.iter().enumerate() {
        let force = if r.side == Side::Attacker {
            &setup.attacker
        } else {
            &setup.defender
        };
        if !force
            .roster
            .groups
            .iter()
            .flat_map(|g| &g.elements)
            .any(|e| e.id.as_deref() == Some(r.id.as_str()))
        {
            problem(
                &mut problems,
                format!("elements[{ri}]"),
                format!("The {} has no element {}.", side_name(r.side), r.id),
            );
        }
    }
    for (ci, c) in report.commanders.iter().enumerate() {
        let force = if c.side == Side::Attacker {
            &setup.attacker
        } else {
            &setup.defender
        };
        let known = force
            .roster
            .force_commander
            .iter()
            .chain(
                force
                    .roster
                    .groups
                    .iter()
                    .filter_map(|g| g.commander.as_ref()),
            )
            .any(|k| k.id.as_deref() == Some(c.id.as_str()));
        if !known {
            problem(
                &mut problems,
                format!("commanders[{ci}]"),
                format!("The {} has no commander {}.", side_name(c.side), c.id),
            );
        }
    }

    let total = objective_count(setup.scenario);
    let (ao, dobj) = (report.attacker_objectives, report.defender_objectives);
    // Summed wide: two large counts must not wrap round to an acceptable claim.
    let claimed = u64::from(ao) + u64::from(dobj);
    if total == 0 && claimed > 0 {
        problem(
            &mut problems,
            "objectives".into(),
            "This scenario has no objectives; victory points decide it (R-21).".into(),
        );
    } else if claimed > u64::from(total) {
        problem(
            &mut problems,
            "objectives".into(),
            format!("The scenario has {total} objectives; {claimed} were claimed."),
        );
    }
    for (si, held) in [ao, dobj].into_iter().enumerate() {
        if held > 0 && !can_hold[si] {
            let side = if si == 0 { "attacker" } else { "defender" };
            problem(
                &mut problems,
                format!("{side}_objectives"),
                format!(
                    "The {side} has no Fit or Shaken element left, so it cannot hold an objective."
                ),
            );
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }

    let size = setup.points_size(cat);
    // The report is the state after the last turn played: the count that stopped the game, or
    // the count after the last turn, is made as at the start of the next turn (R-23, M-26).
    let verdict =
        broken_force_verdict((broken_groups[0], groups[0]), (broken_groups[1], groups[1]));
    let by_break = victory_by_broken_forces(
        cat,
        verdict,
        report.turns_played.saturating_add(1),
        lost_points[0],
        lost_points[1],
        size,
    );
    let victory = match by_break {
        Some(v) => v,
        None if total > 0 => {
            victory_by_objectives(cat, ao, dobj, total, lost_points[0], lost_points[1], size)
        }
        None => victory_by_points(cat, lost_points[0], lost_points[1], size),
    };
    Ok(TabletopOutcome {
        victory,
        points_size: size,
        attacker_points_lost: lost_points[0],
        defender_points_lost: lost_points[1],
        broken_groups,
        groups,
        elements,
        commanders: report.commanders.clone(),
        turns_played: report.turns_played,
    })
}

/// A battle made ready for the table: the set-up with rolled commander ratings, and what was
/// rolled, in words, for the battle's record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreparedBattle {
    pub setup: BattleSetup,
    pub rolls: Vec<String>,
    /// The second force won the roll for the attack: it is the set-up's attacker.
    pub swapped: bool,
}

/// Elements with the Scouts skill (the roll for the attack gives +1 to the side with more).
pub fn scouts(cat: &Catalogue, roster: &super::roster::RosterDoc) -> usize {
    roster
        .groups
        .iter()
        .flat_map(|g| &g.elements)
        .filter(|e| {
            super::profile::profile(cat, e)
                .skills
                .iter()
                .any(|s| s.id == "scouts")
        })
        .count()
}

/// Rolls what the book leaves to the dice before a game, with the given seed: the scenario on
/// the 2d6 table when none is chosen; attacker and defender when asked (each side rolls a d6,
/// +1 for the side with more Scout elements, re-rolling ties; the higher attacks, M-24); and
/// every commander's rating. The same seed always gives the same rolls.
pub fn prepare_battle(
    cat: &Catalogue,
    first: super::roster::RosterDoc,
    second: super::roster::RosterDoc,
    scenario: Option<ScenarioId>,
    roll_roles: bool,
    seed: u64,
) -> PreparedBattle {
    let mut dice = crate::rules::dice::Dice::from_seed(seed);
    let mut rolls = Vec::new();
    let scenario = match scenario {
        Some(s) => s,
        None => {
            let roll = dice.two_d6();
            let found = cat
                .scenario_for_roll(roll)
                .and_then(|s| ScenarioId::from_id(&s.id))
                .unwrap_or(ScenarioId::TakeTheField);
            let name = cat
                .tables()
                .scenarios
                .iter()
                .find(|s| s.id == found.id())
                .map(|s| s.name.clone())
                .unwrap_or_else(|| found.id().into());
            rolls.push(format!("Scenario: 2d6 rolled {roll}, {name}."));
            found
        }
    };
    let (mut attacker, mut defender) = (first, second);
    let mut swapped = false;
    if roll_roles {
        let (sa, sd) = (scouts(cat, &attacker), scouts(cat, &defender));
        loop {
            let (a, d) = (dice.d6() + u8::from(sa > sd), dice.d6() + u8::from(sd > sa));
            if a == d {
                rolls.push(format!(
                    "Roll for the attack: {} {a}, {} {d}; tied, rolled again.",
                    attacker.name, defender.name
                ));
                continue;
            }
            if d > a {
                rolls.push(format!(
                    "Roll for the attack: {} {d} beats {} {a} and attacks.",
                    defender.name, attacker.name
                ));
                std::mem::swap(&mut attacker, &mut defender);
                swapped = true;
            } else {
                rolls.push(format!(
                    "Roll for the attack: {} {a} beats {} {d} and attacks.",
                    attacker.name, defender.name
                ));
            }
            break;
        }
    }
    let mut setup = BattleSetup::new(attacker, defender, scenario, seed);
    for force in [&mut setup.attacker, &mut setup.defender] {
        let commanders: Vec<(String, String)> = force
            .roster
            .force_commander
            .iter()
            .chain(
                force
                    .roster
                    .groups
                    .iter()
                    .filter_map(|g| g.commander.as_ref()),
            )
            .filter_map(|c| c.id.clone().map(|id| (id, c.name.clone())))
            .collect();
        for (id, name) in commanders {
            let roll = dice.d6();
            let rating = cat
                .commander_rating_for_roll(roll)
                .map(|r| r.name.clone())
                .unwrap_or_default();
            let who = if name.is_empty() {
                "An unnamed commander".to_string()
            } else {
                name
            };
            rolls.push(format!(
                "{who} ({}) rolls {roll}: {rating}.",
                force.roster.name
            ));
            force
                .commanders
                .insert(id, super::battle::CommanderState { rating_roll: roll });
        }
    }
    PreparedBattle {
        setup,
        rolls,
        swapped,
    }
}
