//! Setting a battle up from two orders of battle (abilities rolled where none is given, W-4;
//! the roll-off for the first side A, W-1; the seed stored), and assessing a result entered
//! from the table in the rules' own terms: per unit figures lost and how it ended (routing,
//! routed off or left the table, destroyed; a gun lost), and the generals killed. The result is
//! computed by Muster's victory rule (W-31).

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RecordProblem};

use super::battle::{
    score, settle_abilities, BattleSetup, EndState, Ending, ForceSetup, Outcome, SideResult,
    UnitResult, BATTLE_FORMAT, OPEN_FIELD, RESULT_FORMAT,
};
use super::catalogue::Catalogue;
use super::roster::RosterDoc;
use super::validate::validate;

/// A battle set up: the set-up and what was rolled, in words.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub setup: BattleSetup,
    pub rolls: Vec<String>,
    pub swapped: bool,
}

/// Sets a battle up between two legal orders of battle with `seed`: every brigadier without an
/// ability rolls D6+2 (W-4), then a D6 roll-off (ties re-rolled) makes the winner side A of the
/// first move (W-1; Muster's winner always chooses to move first). The forces keep their roles:
/// the first is the "attacker" only in name.
pub fn prepare(
    cat: &Catalogue,
    first: RosterDoc,
    second: RosterDoc,
    scenario: Option<&str>,
    _roll_roles: bool,
    seed: u64,
) -> Result<Prepared, String> {
    if let Some(s) = scenario.filter(|s| *s != OPEN_FIELD) {
        return Err(format!(
            "The AWI wargames rules have one scenario in Muster, an open field ('{OPEN_FIELD}'), not '{s}'."
        ));
    }
    for r in [&first, &second] {
        let report = validate(cat, r);
        if let Some(f) = report
            .findings
            .iter()
            .find(|f| f.severity == crate::rules::system::Severity::Error)
        {
            return Err(format!(
                "'{}' cannot fight until its order of battle is legal: {}",
                r.name, f.message
            ));
        }
    }
    let mut dice = Dice::from_seed(seed);
    let mut rolls = Vec::new();
    let mut force = |mut roster: RosterDoc, dice: &mut Dice| {
        roster.assign_ids();
        let rolled = settle_abilities(cat, &mut roster, dice);
        for r in &rolled {
            rolls.push(format!(
                "{}: brigadier {} of brigade {} rolled {} for his ability, {} (W-4).",
                roster.name,
                if r.brigadier.is_empty() {
                    "(unnamed)"
                } else {
                    &r.brigadier
                },
                r.brigade + 1,
                cat.command.ability_roll.label(),
                r.ability
            ));
        }
        ForceSetup { roster, rolled }
    };
    let attacker = force(first, &mut dice);
    let defender = force(second, &mut dice);
    let (a, d) = loop {
        let (a, d) = (u32::from(dice.d6()), u32::from(dice.d6()));
        if a != d {
            break (a, d);
        }
    };
    let first_side_a = if a > d {
        BattleSide::Attacker
    } else {
        BattleSide::Defender
    };
    rolls.push(format!(
        "Roll-off for the first move: {} {a}, {} {d}; {} moves first as side A (W-1).",
        attacker.roster.name,
        defender.roster.name,
        if first_side_a == BattleSide::Attacker {
            &attacker.roster.name
        } else {
            &defender.roster.name
        }
    ));
    Ok(Prepared {
        setup: BattleSetup {
            format: BATTLE_FORMAT.to_string(),
            scenario: OPEN_FIELD.to_string(),
            turns: cat.victory.turns,
            attacker,
            defender,
            first_side_a,
            roll_off: (a, d),
            seed,
        },
        rolls,
        swapped: false,
    })
}

/// Every unit of a roster at the start, nothing lost.
pub fn fresh_units(cat: &Catalogue, roster: &RosterDoc) -> Vec<UnitResult> {
    roster
        .units()
        .filter_map(|(b, _, u)| {
            let s = u.spec()?;
            let figures = s.figures(cat.troop(s.troop_type).figures_per_base);
            Some(UnitResult {
                id: u.id.clone().unwrap_or_default(),
                name: u.name.clone(),
                brigade: b,
                troop_type: s.troop_type,
                start_bases: s.start_bases(),
                start_figures: figures,
                figures_lost: 0,
                state: EndState::Fighting,
                at_or_below_half: false,
            })
        })
        .collect()
}

/// Bases in action after `figures_lost` (W-2): start − ⌊lost / figures per base⌋.
pub fn bases_left(cat: &Catalogue, u: &UnitResult) -> u32 {
    let fpb = cat.troop(u.troop_type).figures_per_base.max(1);
    u.start_bases.saturating_sub(u.figures_lost / fpb)
}

/// What a player enters for one unit.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitReport {
    pub id: String,
    #[serde(default)]
    pub figures_lost: u32,
    /// `fighting` (the default), `routing`, `left_table` or `destroyed`.
    #[serde(default)]
    pub state: Option<String>,
}

/// One side's report: units that lost figures or did not end fighting, and the generals
/// killed (by id: `cinc-1`, `brigadier-2`, as in the set-up's roster).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideReport {
    #[serde(default)]
    pub units: Vec<UnitReport>,
    #[serde(default)]
    pub generals_killed: Vec<String>,
}

/// A result entered from the table.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopReport {
    #[serde(default)]
    pub attacker: SideReport,
    #[serde(default)]
    pub defender: SideReport,
    /// Moves played, if the players give it.
    #[serde(default)]
    pub moves: Option<u32>,
}

fn general_name(roster: &RosterDoc, id: &str) -> Option<String> {
    if let Some(c) = roster.cinc.as_ref().filter(|c| c.id.as_deref() == Some(id)) {
        return Some(format!("CinC {}", c.name));
    }
    roster
        .brigades
        .iter()
        .filter_map(|b| b.brigadier.as_ref())
        .find(|g| g.id.as_deref() == Some(id))
        .map(|g| format!("Brigadier {}", g.name))
}

fn assess_side(
    cat: &Catalogue,
    side: BattleSide,
    force: &ForceSetup,
    report: &SideReport,
    problems: &mut Vec<RecordProblem>,
) -> SideResult {
    let mut units = fresh_units(cat, &force.roster);
    for (i, r) in report.units.iter().enumerate() {
        let field = format!("{}.units[{i}]", side.id());
        let Some(u) = units.iter_mut().find(|u| u.id == r.id) else {
            problems.push(RecordProblem {
                field,
                message: format!("{} has no unit with the id '{}'.", force.roster.name, r.id),
            });
            continue;
        };
        if r.figures_lost > u.start_figures {
            problems.push(RecordProblem {
                field: format!("{field}.figures_lost"),
                message: format!(
                    "{} started with {} figures{}; it cannot lose {}.",
                    u.name,
                    u.start_figures,
                    if u.is_gun() { " (gunners)" } else { "" },
                    r.figures_lost
                ),
            });
            continue;
        }
        let state = match r.state.as_deref() {
            None | Some("") => EndState::Fighting,
            Some(s) => match EndState::from_id(s) {
                Some(s) => s,
                None => {
                    problems.push(RecordProblem {
                        field: format!("{field}.state"),
                        message: format!(
                            "'{s}' is not how a unit ends: fighting, routing, left_table or destroyed."
                        ),
                    });
                    continue;
                }
            },
        };
        u.figures_lost = r.figures_lost;
        // A unit with no figures left is destroyed (W-2); a gun without gunners is lost (W-17).
        u.state = if u.figures_lost == u.start_figures {
            EndState::Destroyed
        } else {
            state
        };
        u.at_or_below_half = 2 * bases_left(cat, u) <= u.start_bases;
    }
    let mut killed = Vec::new();
    let mut killed_ids = Vec::new();
    for (i, id) in report.generals_killed.iter().enumerate() {
        match general_name(&force.roster, id) {
            Some(n) if !killed.contains(&n) => {
                killed.push(n);
                killed_ids.push(id.clone());
            }
            Some(_) => {}
            None => problems.push(RecordProblem {
                field: format!("{}.generals_killed[{i}]", side.id()),
                message: format!("{} has no general with the id '{id}'.", force.roster.name),
            }),
        }
    }
    SideResult {
        name: force.roster.name.clone(),
        units,
        generals_killed: killed,
        generals_killed_ids: killed_ids,
        broke: false,
        vp: 0,
        vp_lines: Vec::new(),
    }
}

/// Assesses a result entered from the table: every problem at once, or the outcome with its
/// result computed by W-31.
pub fn assess(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Result<Outcome, Vec<RecordProblem>> {
    let mut problems = Vec::new();
    let mut attacker = assess_side(
        cat,
        BattleSide::Attacker,
        &setup.attacker,
        &report.attacker,
        &mut problems,
    );
    let mut defender = assess_side(
        cat,
        BattleSide::Defender,
        &setup.defender,
        &report.defender,
        &mut problems,
    );
    let max_moves = setup.turns * cat.victory.moves_per_turn;
    if report.moves.is_some_and(|m| m > max_moves) {
        problems.push(RecordProblem {
            field: "moves".into(),
            message: format!(
                "A battle lasts at most {max_moves} moves ({} turns, W-32).",
                setup.turns
            ),
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let (winner, level, verdict) = score(cat, &mut attacker, &mut defender);
    Ok(Outcome {
        format: RESULT_FORMAT.to_string(),
        method: Method::Tabletop,
        ending: Ending::Recorded,
        moves: report.moves.unwrap_or(0),
        winner,
        level,
        attacker,
        defender,
        verdict,
        log: Vec::new(),
    })
}
