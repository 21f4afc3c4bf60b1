//! Battles set up from two orders of battle (commander ratings rolled where the roster leaves
//! them out, B-8; the seed stored) and results entered from the table, assessed in the game's
//! own terms and decided by Muster's victory rule (B-34, B-35).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::dice::Dice;
use crate::rules::system::{BattleSide, Method, RecordProblem};

use super::battle::{
    decide, BattleSetup, CommanderResult, Fate, Outcome, SideResult, SideSetup, UnitResult,
    BATTLE_FORMAT, SCENARIOS,
};
use super::catalogue::Catalogue;
use super::roster::RosterDoc;
use super::unit::stats;

/// A prepared battle and what was rolled for it.
pub struct PreparedSetup {
    pub setup: BattleSetup,
    pub rolls: Vec<String>,
    pub swapped: bool,
}

/// Rolls every missing commander rating on Muster's table (B-8: d6 1 → 0, 2–5 → 1, 6 → 2).
fn roll_ratings(cat: &Catalogue, roster: &mut RosterDoc, dice: &mut Dice, rolls: &mut Vec<String>) {
    let side = roster.name.clone();
    let mut roll = |who: String, c: &mut super::roster::CommanderDoc| {
        if c.rating.is_none() {
            let face = dice.d6();
            let r = cat
                .commander_rating
                .roll
                .get(usize::from(face.saturating_sub(1)))
                .copied()
                .unwrap_or(cat.commander_rating.default);
            c.rating = Some(r);
            rolls.push(format!(
                "{side}: {who} rolled {face} for his rating: X = {r} (B-8)."
            ));
        }
    };
    if let Some(c) = roster.army_commander.as_mut() {
        roll("the army commander".into(), c);
    }
    for d in &mut roster.divisions {
        let name = d.name.clone();
        if let Some(c) = d.commander.as_mut() {
            roll(format!("the commander of {name}"), c);
        }
    }
    for b in &mut roster.brigades {
        let name = b.name.clone();
        if let Some(c) = b.commander.as_mut() {
            roll(format!("the commander of {name}"), c);
        }
    }
}

/// Sets a battle up: the scenario (rolled when none is chosen), which force attacks when
/// `roll_roles`, and every rating the rosters leave out.
pub fn prepare(
    cat: &Catalogue,
    first: RosterDoc,
    second: RosterDoc,
    scenario: Option<&str>,
    roll_roles: bool,
    seed: u64,
) -> Result<PreparedSetup, String> {
    let mut dice = Dice::from_seed(seed);
    let mut rolls = Vec::new();
    let scenario = match scenario {
        Some(s) => {
            if !SCENARIOS.iter().any(|(id, _)| *id == s) {
                return Err(format!(
                    "'{s}' is not a One if by Land scenario; choose open_field or defended_line."
                ));
            }
            s.to_string()
        }
        None => {
            let i = dice.below(SCENARIOS.len() as u32) as usize;
            let (id, words) = SCENARIOS[i.min(SCENARIOS.len() - 1)];
            rolls.push(format!("Scenario rolled: {words}."));
            id.to_string()
        }
    };
    let mut swapped = false;
    let (mut a, mut d) = (first, second);
    if roll_roles {
        let (x, y) = loop {
            let (x, y) = (dice.d6(), dice.d6());
            if x != y {
                break (x, y);
            }
        };
        swapped = y > x;
        rolls.push(format!(
            "For the attack, {} rolled {x} and {} rolled {y}: {} attacks.",
            a.name,
            d.name,
            if swapped { &d.name } else { &a.name }
        ));
        if swapped {
            std::mem::swap(&mut a, &mut d);
        }
    }
    for r in [&a, &d] {
        if super::unit::roster_units(cat, r).is_empty() {
            return Err(format!("{} has no unit that can fight.", r.name));
        }
    }
    roll_ratings(cat, &mut a, &mut dice, &mut rolls);
    roll_ratings(cat, &mut d, &mut dice, &mut rolls);
    Ok(PreparedSetup {
        setup: BattleSetup {
            format: BATTLE_FORMAT.to_string(),
            attacker: SideSetup { roster: a },
            defender: SideSetup { roster: d },
            scenario,
            turns: cat.victory.turns,
            seed,
            division_cards: None,
        },
        rolls,
        swapped,
    })
}

/// One unit's figures at the table's end.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitReport {
    pub id: String,
    #[serde(default)]
    pub figures_lost: u32,
    #[serde(default)]
    pub routed: bool,
    #[serde(default)]
    pub left_table: bool,
    #[serde(default)]
    pub destroyed: bool,
    #[serde(default)]
    pub guns_lost: u32,
}

/// A commander's fate at the table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderReport {
    pub id: String,
    pub fate: Fate,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideReport {
    #[serde(default)]
    pub units: Vec<UnitReport>,
    #[serde(default)]
    pub commanders: Vec<CommanderReport>,
}

/// The players' own result, when they decided it by the scenario's objectives (spec 5.5).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersResult {
    /// `attacker`, `defender`, or absent for a draw.
    #[serde(default)]
    pub winner: Option<BattleSide>,
}

/// The reason an outcome gives when the players entered their own result (spec 5.5).
pub const PLAYERS_DECIDED: &str = "The players decided the result by the scenario's objectives.";

/// A battle entered from the table. Units and commanders left out came through unhurt.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TabletopReport {
    pub turns: u32,
    #[serde(default)]
    pub attacker: SideReport,
    #[serde(default)]
    pub defender: SideReport,
    /// Left out: Muster's rule (B-34, B-35) decides.
    #[serde(default)]
    pub result: Option<PlayersResult>,
}

/// A commander of a roster as a battle names him.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommanderLine {
    /// His id in the roster, else where he stands (`army_commander`, `divisions[i]`,
    /// `brigades[i]`).
    pub id: String,
    pub name: String,
    /// Rating X as fought (B-8: 1 when the roster leaves it out).
    pub rating: i32,
    /// What he commands: "the army", "Howard's Continentals".
    pub command: String,
}

/// Every commander of a roster, the army commander first, then divisions, then brigades.
pub fn commander_lines(roster: &RosterDoc) -> Vec<CommanderLine> {
    let mut out = Vec::new();
    let mut add = |c: &super::roster::CommanderDoc, fallback: String, command: String| {
        out.push(CommanderLine {
            id: c
                .id
                .as_ref()
                .filter(|s| !s.is_empty())
                .cloned()
                .unwrap_or(fallback),
            name: c.name.clone(),
            rating: c.rating_or_default(),
            command,
        });
    };
    let or_named = |name: &str, fallback: String| {
        if name.trim().is_empty() {
            fallback
        } else {
            name.to_string()
        }
    };
    if let Some(c) = &roster.army_commander {
        add(c, "army_commander".into(), "the army".into());
    }
    for (i, d) in roster.divisions.iter().enumerate() {
        if let Some(c) = &d.commander {
            add(
                c,
                format!("divisions[{i}]"),
                or_named(&d.name, format!("division {}", i + 1)),
            );
        }
    }
    for (i, b) in roster.brigades.iter().enumerate() {
        if let Some(c) = &b.commander {
            add(
                c,
                format!("brigades[{i}]"),
                or_named(&b.name, format!("brigade {}", i + 1)),
            );
        }
    }
    out
}

/// Every commander of a roster: (id, name).
pub fn commanders(roster: &RosterDoc) -> Vec<(String, String)> {
    commander_lines(roster)
        .into_iter()
        .map(|c| (c.id, c.name))
        .collect()
}

fn assess_side(
    cat: &Catalogue,
    roster: &RosterDoc,
    report: &SideReport,
    field: &str,
    problems: &mut Vec<RecordProblem>,
) -> SideResult {
    let mut units = Vec::new();
    let mut by_id: BTreeMap<String, usize> = BTreeMap::new();
    for (b, u, unit) in roster.units() {
        let Some(s) = stats(cat, unit, &format!("b{b}u{u}")) else {
            continue;
        };
        by_id.insert(s.id.clone(), units.len());
        units.push((
            s.guns,
            UnitResult {
                id: s.id,
                name: s.name,
                start_figures: s.figures,
                figures_lost: 0,
                routed: false,
                left_table: false,
                destroyed: false,
                guns_lost: 0,
            },
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, r) in report.units.iter().enumerate() {
        let path = format!("{field}.units[{i}]");
        let Some(&k) = by_id.get(&r.id) else {
            problems.push(RecordProblem {
                field: path,
                message: format!("{} has no unit '{}'.", roster.name, r.id),
            });
            continue;
        };
        let (guns, u) = &mut units[k];
        if !seen.insert(k) {
            problems.push(RecordProblem {
                field: format!("{path}.id"),
                message: format!("{} is entered twice; give each unit once.", u.name),
            });
            continue;
        }
        if r.figures_lost > u.start_figures {
            problems.push(RecordProblem {
                field: format!("{path}.figures_lost"),
                message: format!(
                    "{} started with {} figures and cannot lose {}.",
                    u.name, u.start_figures, r.figures_lost
                ),
            });
        }
        if r.guns_lost > *guns {
            problems.push(RecordProblem {
                field: format!("{path}.guns_lost"),
                message: if *guns == 0 {
                    format!("{} is not a battery: it has no guns to lose.", u.name)
                } else {
                    format!(
                        "{} had {} gun{}, so it cannot lose {}.",
                        u.name,
                        guns,
                        if *guns == 1 { "" } else { "s" },
                        r.guns_lost
                    )
                },
            });
        }
        u.figures_lost = r.figures_lost.min(u.start_figures);
        u.guns_lost = r.guns_lost.min(*guns);
        u.routed = r.routed;
        u.left_table = r.left_table;
        // B-33: fewer than 2 figures, or every gun or its crew gone, is destroyed.
        u.destroyed = r.destroyed
            || u.start_figures - u.figures_lost < cat.destroyed_below
            || (*guns > 0 && u.guns_lost >= *guns);
        if u.destroyed {
            // B-57: a unit removed under B-33 takes its last figures with it, for B-35's shares
            // as in a simulated battle.
            u.figures_lost = u.start_figures;
        }
    }
    let all = commanders(roster);
    let mut fates: Vec<CommanderResult> = all
        .iter()
        .map(|(id, name)| CommanderResult {
            id: id.clone(),
            name: name.clone(),
            fate: Fate::Unhurt,
        })
        .collect();
    for (i, c) in report.commanders.iter().enumerate() {
        match fates.iter_mut().find(|f| f.id == c.id) {
            Some(f) => f.fate = c.fate,
            None => problems.push(RecordProblem {
                field: format!("{field}.commanders[{i}]"),
                message: format!("{} has no commander '{}'.", roster.name, c.id),
            }),
        }
    }
    let mut side = SideResult {
        name: roster.name.clone(),
        units: units.into_iter().map(|(_, u)| u).collect(),
        commanders: fates,
        defeated: false,
    };
    side.defeated = side.broken(cat);
    side
}

/// Assesses a result entered from the table.
pub fn assess(
    cat: &Catalogue,
    setup: &BattleSetup,
    report: &TabletopReport,
) -> Result<Outcome, Vec<RecordProblem>> {
    let mut problems = Vec::new();
    if report.turns == 0 || report.turns > 99 {
        problems.push(RecordProblem {
            field: "turns".into(),
            message: "Turns played: from 1 to 99.".into(),
        });
    }
    let attacker = assess_side(
        cat,
        &setup.attacker.roster,
        &report.attacker,
        "attacker",
        &mut problems,
    );
    let defender = assess_side(
        cat,
        &setup.defender.roster,
        &report.defender,
        "defender",
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(problems);
    }
    let (winner, level, reason) = match &report.result {
        Some(p) => (
            p.winner,
            if p.winner.is_some() {
                super::battle::Level::Decisive
            } else {
                super::battle::Level::Draw
            },
            PLAYERS_DECIDED.to_string(),
        ),
        None => {
            let decided = decide(cat, &attacker, &defender, true).unwrap_or((
                None,
                super::battle::Level::Draw,
                String::new(),
            ));
            if report.turns < setup.turns && !attacker.defeated && !defender.defeated {
                // B-63: the players stopped before the last turn with neither army beaten; the
                // figures decide as if time had run out (B-35).
                let (winner, level, _) = decided;
                let reason = match winner {
                    Some(side) => format!(
                        "The game stopped after {} of {} turns with neither army beaten; {} \
                         lost the smaller share of its figures (B-35, B-63).",
                        report.turns,
                        setup.turns,
                        match side {
                            BattleSide::Attacker => &attacker.name,
                            BattleSide::Defender => &defender.name,
                        }
                    ),
                    None => format!(
                        "The game stopped after {} of {} turns with neither army beaten and \
                         equal shares of figures lost: a draw (B-35, B-63).",
                        report.turns, setup.turns
                    ),
                };
                (winner, level, reason)
            } else {
                decided
            }
        }
    };
    Ok(Outcome {
        method: Method::Tabletop,
        winner,
        level,
        turns: report.turns,
        attacker,
        defender,
        reason,
        log: Vec::new(),
    })
}
