//! Recording a tabletop game: victory arithmetic at and around the thresholds (R-21), objectives
//! (R-22), broken forces (R-23), and refusing impossible reports.

use crate::rules::systems::lotf::combat::victory::{DecidedBy, VictoryLevel};
use crate::rules::systems::lotf::record::{
    assess, CommanderFate, CommanderReport, ElementReport, FinalState, TabletopReport,
};
use crate::rules::systems::lotf::{parse_roster, BattleSetup, Catalogue, ScenarioId, Side};

/// Group 1: two medium infantry (25 each) and small cavalry (20); group 2: medium cavalry (30)
/// and two small infantry (15 each). 130 points.
fn force(name: &str) -> crate::rules::systems::lotf::RosterDoc {
    let json = format!(
        r#"{{"format": "muster.lotf.roster/1", "name": "{name}", "war": "american_revolution", "nation": "british",
            "points_limit": 200, "force_commander": {{"id": "c0", "name": "General"}},
            "groups": [
              {{"commander": {{"id": "c1", "name": "One"}}, "elements": [
                {{"id": "mi1", "name": "Foot 1", "type": "infantry", "size": "medium"}},
                {{"id": "mi2", "name": "Foot 2", "type": "infantry", "size": "medium"}},
                {{"id": "sc", "name": "Horse", "type": "cavalry", "size": "small"}}]}},
              {{"commander": {{"id": "c2", "name": "Two"}}, "elements": [
                {{"id": "mc", "name": "Dragoons", "type": "cavalry", "size": "medium"}},
                {{"id": "si1", "name": "Light 1", "type": "infantry", "size": "small"}},
                {{"id": "si2", "name": "Light 2", "type": "infantry", "size": "small"}}]}}]}}"#
    );
    parse_roster(&json).expect("test roster")
}

fn setup(scenario: ScenarioId) -> BattleSetup {
    let mut s = BattleSetup::new(force("Crown"), force("Congress"), scenario, 1);
    s.points = Some(200);
    s
}

const IDS: [&str; 6] = ["mi1", "mi2", "sc", "mc", "si1", "si2"];

/// Every element Fit except the defender's listed ones, which are Shattered.
fn report(defender_lost: &[&str], attacker_lost: &[&str]) -> TabletopReport {
    let mut elements = Vec::new();
    for (side, lost) in [
        (Side::Attacker, attacker_lost),
        (Side::Defender, defender_lost),
    ] {
        for id in IDS {
            let state = if lost.contains(&id) {
                FinalState::Shattered
            } else {
                FinalState::Fit
            };
            elements.push(ElementReport {
                side,
                id: id.into(),
                state,
                hits: 0,
            });
        }
    }
    TabletopReport {
        turns_played: 6,
        elements,
        commanders: vec![],
        attacker_objectives: 0,
        defender_objectives: 0,
    }
}

fn level(defender_lost: &[&str]) -> (VictoryLevel, u8, u8) {
    let cat = Catalogue::builtin().unwrap();
    let out = assess(
        &cat,
        &setup(ScenarioId::Reconnoiter),
        &report(defender_lost, &[]),
    )
    .expect("valid report");
    assert_eq!(out.victory.decided_by, DecidedBy::VictoryPoints);
    (
        out.victory.level,
        out.victory.attacker_vp,
        out.victory.defender_vp,
    )
}

#[test]
fn ten_percent_exactly_is_marginal_and_just_above_is_minor() {
    // 20 of 200 = 10 %: not more than 10 % (R-21).
    assert_eq!(level(&["sc"]), (VictoryLevel::Marginal, 4, 2));
    // 25 of 200 = 12.5 %.
    assert_eq!(level(&["mi1"]), (VictoryLevel::Minor, 5, 2));
}

#[test]
fn twenty_five_percent_exactly_is_minor_and_just_above_is_major() {
    // 50 of 200 = 25 %: not more than 25 %.
    assert_eq!(level(&["mi1", "mi2"]), (VictoryLevel::Minor, 5, 2));
    // 55 of 200 = 27.5 %.
    assert_eq!(level(&["mi1", "mc"]), (VictoryLevel::Major, 6, 2));
}

#[test]
fn equal_losses_are_a_tie_and_the_arithmetic_is_shown() {
    let cat = Catalogue::builtin().unwrap();
    let out = assess(
        &cat,
        &setup(ScenarioId::Reconnoiter),
        &report(&["mi1"], &["mi2"]),
    )
    .unwrap();
    assert_eq!(out.victory.level, VictoryLevel::Tie);
    assert_eq!((out.victory.attacker_vp, out.victory.defender_vp), (3, 3));
    assert_eq!(
        (out.attacker_points_lost, out.defender_points_lost),
        (25, 25)
    );
    assert!(
        out.victory.arithmetic.contains("200"),
        "{}",
        out.victory.arithmetic
    );
}

#[test]
fn exhausted_and_departed_elements_count_as_lost_but_shaken_do_not() {
    let cat = Catalogue::builtin().unwrap();
    let mut r = report(&[], &[]);
    for e in &mut r.elements {
        if e.side == Side::Defender {
            e.state = match e.id.as_str() {
                "mi1" => FinalState::Exhausted,
                "sc" => FinalState::LeftTheField,
                "mc" => FinalState::Shaken,
                _ => FinalState::Fit,
            };
        }
    }
    let out = assess(&cat, &setup(ScenarioId::Reconnoiter), &r).unwrap();
    assert_eq!(
        out.defender_points_lost, 45,
        "25 exhausted + 20 left the field (R-31)"
    );
}

#[test]
fn objectives_decide_where_the_scenario_has_them() {
    let cat = Catalogue::builtin().unwrap();
    let mut r = report(&[], &["mi1", "mi2", "mc"]);
    r.attacker_objectives = 4;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).unwrap();
    assert_eq!(out.victory.decided_by, DecidedBy::Objectives);
    assert_eq!(
        (out.victory.winner, out.victory.level),
        (Some(Side::Attacker), VictoryLevel::Major),
        "all four objectives (R-22, R-32)"
    );

    r.attacker_objectives = 1;
    r.defender_objectives = 1;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).unwrap();
    assert_eq!(
        out.victory.decided_by,
        DecidedBy::VictoryPoints,
        "level objectives: points decide"
    );
    assert_eq!(out.victory.winner, Some(Side::Defender));
}

#[test]
fn a_broken_force_concedes_a_major_defeat() {
    let cat = Catalogue::builtin().unwrap();
    // Two of three broken in each group: both groups broken, so the force is broken (R-23).
    let out = assess(
        &cat,
        &setup(ScenarioId::Reconnoiter),
        &report(&["mi1", "mi2", "si1", "si2"], &[]),
    )
    .unwrap();
    assert_eq!(out.victory.decided_by, DecidedBy::ForceBroken);
    assert_eq!(
        (
            out.victory.winner,
            out.victory.attacker_vp,
            out.victory.defender_vp
        ),
        (Some(Side::Attacker), 6, 2)
    );
    assert_eq!(out.broken_groups, [0, 2]);
}

#[test]
fn impossible_reports_are_refused_with_every_problem_named() {
    let cat = Catalogue::builtin().unwrap();
    let mut r = report(&IDS, &[]);
    r.turns_played = 9;
    r.defender_objectives = 3;
    r.attacker_objectives = 2;
    r.elements
        .retain(|e| !(e.side == Side::Attacker && e.id == "si2"));
    r.elements.push(ElementReport {
        side: Side::Attacker,
        id: "ghost".into(),
        state: FinalState::Fit,
        hits: 0,
    });
    r.commanders.push(CommanderReport {
        side: Side::Defender,
        id: "nobody".into(),
        fate: CommanderFate::Killed,
    });
    let problems = assess(&cat, &setup(ScenarioId::TakeTheField), &r).expect_err("refused");
    let text: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.field, p.message))
        .collect();
    let all = text.join("\n");
    assert!(all.contains("1 to 6 turns"), "{all}");
    assert!(
        all.contains("Light 2"),
        "the unreported element is named: {all}"
    );
    assert!(all.contains("no element ghost"), "{all}");
    assert!(all.contains("no commander nobody"), "{all}");
    assert!(all.contains("4 objectives; 5 were claimed"), "{all}");
    assert!(
        all.contains("defender has no Fit or Shaken element left"),
        "{all}"
    );
    let mut r = report(&[], &[]);
    r.attacker_objectives = 1;
    let problems = assess(&cat, &setup(ScenarioId::Reconnoiter), &r)
        .expect_err("no objectives in this scenario");
    assert!(problems[0].message.contains("no objectives"));
}

/// Found by fuzzing: the two claims were added in 32 bits, so a huge claim panicked in debug
/// builds and wrapped round to an accepted one in release builds.
#[test]
fn claims_too_large_to_add_are_refused() {
    let cat = Catalogue::builtin().unwrap();
    for scenario in [ScenarioId::TakeTheField, ScenarioId::Reconnoiter] {
        let mut r = report(&[], &[]);
        r.attacker_objectives = u32::MAX;
        r.defender_objectives = 1;
        let problems = assess(&cat, &setup(scenario), &r).expect_err("refused");
        assert_eq!(problems[0].field, "objectives", "{scenario:?}");
    }
    let mut r = report(&[], &[]);
    r.attacker_objectives = u32::MAX;
    r.defender_objectives = u32::MAX;
    let problems = assess(&cat, &setup(ScenarioId::HoldTheGround), &r).expect_err("refused");
    assert!(
        problems[0].message.contains("8589934590 were claimed"),
        "{problems:?}"
    );
}

#[test]
fn preparing_a_battle_rolls_everything_once_and_replays_from_the_seed() {
    use crate::rules::systems::lotf::record::prepare_battle;
    let cat = Catalogue::builtin().unwrap();
    let a = prepare_battle(&cat, force("Crown"), force("Congress"), None, true, 42);
    let b = prepare_battle(&cat, force("Crown"), force("Congress"), None, true, 42);
    assert_eq!(a, b, "the same seed gives the same rolls");
    assert_eq!(
        a.setup.attacker.commanders.len(),
        3,
        "the force commander and two group commanders"
    );
    assert_eq!(a.setup.defender.commanders.len(), 3);
    assert!(a
        .setup
        .attacker
        .commanders
        .values()
        .all(|c| (1..=6).contains(&c.rating_roll)));
    assert!(a
        .rolls
        .iter()
        .any(|r| r.starts_with("Scenario: 2d6 rolled")));
    assert!(a.rolls.iter().any(|r| r.contains("Roll for the attack")));
    let chosen = prepare_battle(
        &cat,
        force("Crown"),
        force("Congress"),
        Some(ScenarioId::Ambush),
        false,
        42,
    );
    assert_eq!(chosen.setup.scenario, ScenarioId::Ambush);
    assert_eq!(
        chosen.setup.attacker.roster.name, "Crown",
        "roles as given when not rolled"
    );
    let different = (0..20).any(|s| {
        prepare_battle(&cat, force("Crown"), force("Congress"), None, true, s).rolls != a.rolls
    });
    assert!(different, "other seeds roll differently");
}

/// R-32: Take the Field has four objectives. A report of three held is legitimate; one side holding
/// all four is a Major Victory, two against none a Minor one (R-22); five are too many.
#[test]
fn take_the_field_has_four_objectives_r32() {
    use crate::rules::systems::lotf::record::objective_count;
    let cat = Catalogue::builtin().unwrap();
    assert_eq!(objective_count(ScenarioId::TakeTheField), 4);
    let mut r = report(&[], &[]);
    r.attacker_objectives = 2;
    r.defender_objectives = 1;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).expect("three held is legitimate");
    assert_eq!(
        (out.victory.winner, out.victory.level),
        (Some(Side::Attacker), VictoryLevel::Marginal)
    );
    r.attacker_objectives = 2;
    r.defender_objectives = 0;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).unwrap();
    assert_eq!(
        (out.victory.winner, out.victory.level),
        (Some(Side::Attacker), VictoryLevel::Minor),
        "two of four against none is Minor, not Major (R-32)"
    );
    r.attacker_objectives = 0;
    r.defender_objectives = 4;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).unwrap();
    assert_eq!(
        (
            out.victory.winner,
            out.victory.level,
            out.victory.defender_vp
        ),
        (Some(Side::Defender), VictoryLevel::Major, 6),
        "all four is a Major Victory (R-22)"
    );
    assert!(
        out.victory.arithmetic.contains("4 of 4"),
        "{}",
        out.victory.arithmetic
    );
    r.attacker_objectives = 1;
    let problems = assess(&cat, &setup(ScenarioId::TakeTheField), &r).expect_err("five");
    assert!(
        problems[0].message.contains("4 objectives; 5 were claimed"),
        "{problems:?}"
    );
}

/// M-26: a force still broken at the end of the last turn concedes, as if the count were made at
/// the start of another turn; a game that stopped earlier was stopped by the count at the start of
/// the turn after the last one played.
#[test]
fn a_force_broken_at_the_end_concedes_as_at_the_start_of_the_next_turn_m25() {
    let cat = Catalogue::builtin().unwrap();
    let broken = report(&["mi1", "mi2", "si1", "si2"], &[]);
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &broken).unwrap();
    assert_eq!(
        (out.victory.decided_by, out.victory.winner),
        (DecidedBy::ForceBroken, Some(Side::Attacker))
    );
    assert!(
        out.victory.arithmetic.contains("end of turn 6") && out.victory.arithmetic.contains("M-26"),
        "{}",
        out.victory.arithmetic
    );
    let mut early = broken.clone();
    early.turns_played = 3;
    let out = assess(&cat, &setup(ScenarioId::Reconnoiter), &early).unwrap();
    assert!(
        out.victory.arithmetic.contains("start of turn 4"),
        "three turns were played, so the count that ended it was at the start of turn 4: {}",
        out.victory.arithmetic
    );
}

/// M-26: when both forces are broken at the same count, neither concedes: each would hand the other
/// every objective, which leaves them level, so victory points decide (R-21, R-22), whatever
/// objectives the players report.
#[test]
fn both_forces_broken_at_once_are_decided_by_victory_points_m25() {
    let cat = Catalogue::builtin().unwrap();
    // Attacker loses 80 points, defender 75; both have both groups broken (R-23).
    let mut r = report(&["mi1", "sc", "si1", "si2"], &["mi1", "mi2", "si1", "si2"]);
    r.attacker_objectives = 1;
    let out = assess(&cat, &setup(ScenarioId::TakeTheField), &r).unwrap();
    assert_eq!(out.broken_groups, [2, 2]);
    assert_eq!(
        (
            out.victory.decided_by,
            out.victory.winner,
            out.victory.level
        ),
        (
            DecidedBy::VictoryPoints,
            Some(Side::Defender),
            VictoryLevel::Marginal
        ),
        "the attacker's one objective does not count: {}",
        out.victory.arithmetic
    );
    assert!(
        out.victory.arithmetic.contains("both forces") && out.victory.arithmetic.contains("M-26"),
        "{}",
        out.victory.arithmetic
    );
}
