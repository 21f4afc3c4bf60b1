use super::*;
use crate::rules::system::RuleSystem;
use crate::rules::systems::lod::battle::EndReason;
use crate::rules::systems::lod::record::prepare;
use crate::rules::systems::lod::Lod;

fn cat() -> Catalogue {
    Catalogue::builtin().unwrap()
}

fn example_setup(cat: &Catalogue, seed: u64) -> BattleSetup {
    let ex = Lod::starting_rosters(cat);
    prepare(cat, ex[0].clone(), ex[1].clone(), None, false, seed)
        .unwrap()
        .setup
}

#[test]
fn the_same_set_up_gives_the_same_battle_and_log() {
    let cat = cat();
    let setup = example_setup(&cat, 7);
    let a = fight(&cat, &setup, true).unwrap();
    let b = fight(&cat, &setup, true).unwrap();
    assert_eq!(a, b);
    assert!(a.log.len() > 10);
    let mut other = setup.clone();
    other.seed ^= 1;
    let c = fight(&cat, &other, true).unwrap();
    assert_ne!(a.log, c.log, "another seed fights another battle");
}

#[test]
fn narration_does_not_change_the_battle() {
    let cat = cat();
    for seed in 0..20 {
        let setup = example_setup(&cat, seed);
        let mut told = fight(&cat, &setup, true).unwrap();
        let quiet = fight(&cat, &setup, false).unwrap();
        assert!(quiet.log.is_empty());
        told.log.clear();
        assert_eq!(told, quiet, "seed {seed}");
    }
}

#[test]
fn battles_end_at_a_break_point_at_once_or_after_the_last_turn() {
    let cat = cat();
    let mut by_break = 0;
    for seed in 0..60 {
        let setup = example_setup(&cat, seed);
        let o = fight(&cat, &setup, false).unwrap();
        let broke = o.attacker.reached_break_point || o.defender.reached_break_point;
        match o.ended_by {
            EndReason::BreakPoint => {
                by_break += 1;
                assert!(broke, "seed {seed}: ended by a break point no army reached");
                // L-47: the game stops at once, so only one army can be broken.
                assert!(!(o.attacker.reached_break_point && o.defender.reached_break_point));
            }
            EndReason::TurnLimit => {
                assert_eq!(o.turns_played, setup.turns, "seed {seed}");
                assert!(!broke, "seed {seed}: an army broke but the battle went on");
            }
            EndReason::Recorded => panic!("a simulated battle is not recorded"),
        }
    }
    assert!(by_break > 0, "no battle of 60 reached a break point");
}

#[test]
fn victory_points_follow_the_end_states() {
    let cat = cat();
    for seed in 0..30 {
        let o = fight(&cat, &example_setup(&cat, seed), false).unwrap();
        for (scorer, enemy) in [(&o.attacker, &o.defender), (&o.defender, &o.attacker)] {
            let mut vp: u32 = enemy
                .units
                .iter()
                .map(|u| match u.end {
                    EndState::Broken | EndState::RoutedOff => 5,
                    EndState::Shaken => 3,
                    EndState::Worn => 1,
                    EndState::Steady => 0,
                })
                .sum();
            if enemy.reached_break_point {
                vp += 10;
            }
            assert_eq!(scorer.vp, vp, "seed {seed}");
            let lost = enemy.units.iter().filter(|u| u.end.lost()).count() as u32;
            assert_eq!(enemy.lost_units, lost);
        }
        // Hits agree with the end state of every unit still standing.
        for side in [&o.attacker, &o.defender] {
            for u in side.units.iter().filter(|u| !u.end.lost()) {
                assert!(u.hits.is_some());
            }
        }
        assert_eq!(o.difference, o.attacker.vp.abs_diff(o.defender.vp));
    }
}

#[test]
fn charges_melees_and_rallies_happen_and_are_told() {
    let cat = cat();
    let mut seen = [false; 3];
    for seed in 0..40 {
        let o = fight(&cat, &example_setup(&cat, seed), true).unwrap();
        for line in &o.log {
            seen[0] |= line.phase == "command" && line.text.contains("charges home into");
            seen[1] |= line.phase == "melee" && line.text.contains("wins the melee");
            seen[2] |= line.phase == "command" && line.text.contains("RALLY");
        }
        if seen.iter().all(|&s| s) {
            return;
        }
    }
    panic!(
        "in 40 battles: charge {}, melee won {}, rally {}",
        seen[0], seen[1], seen[2]
    );
}

#[test]
fn an_army_twice_the_size_wins_far_more_often() {
    let cat = cat();
    let ex = Lod::starting_rosters(&cat);
    let m = crate::rules::systems::lod::montecarlo::calibration_matches(&ex);
    let two = m
        .iter()
        .find(|m| m.kind == crate::rules::systems::lod::montecarlo::MatchKind::TwoToOne)
        .unwrap();
    let t = crate::rules::systems::lod::montecarlo::run_match(&cat, two, 11, 0, 60, &mut |_| {})
        .unwrap();
    assert!(t.a_wins * 10 >= t.battles * 7, "{t:?}");
}

#[test]
fn a_set_up_naming_an_unknown_entry_is_refused_not_fought() {
    let cat = cat();
    let mut setup = example_setup(&cat, 1);
    setup.attacker.roster.brigades[0].units[0].entry = "no_such_entry".into();
    let e = fight(&cat, &setup, false).unwrap_err();
    assert!(e.contains("no_such_entry"), "{e}");
}

#[test]
fn positions_are_kept_for_every_turn_played_and_leave_the_battle_as_it_was() {
    let cat = cat();
    let mut by_break = 0;
    for seed in 0..30 {
        let setup = example_setup(&cat, seed);
        let mut pictured = fight_with_positions(&cat, &setup).unwrap();
        let told = fight(&cat, &setup, true).unwrap();
        let quiet = fight(&cat, &setup, false).unwrap();
        assert!(told.positions.is_empty() && quiet.positions.is_empty());
        // One picture a turn, in order, the break-point turn included.
        let turns: Vec<u32> = pictured.positions.iter().map(|p| p.turn).collect();
        assert_eq!(
            turns,
            (1..=pictured.turns_played).collect::<Vec<_>>(),
            "seed {seed}"
        );
        if pictured.ended_by == EndReason::BreakPoint {
            by_break += 1;
        }
        // The last picture holds exactly the units that ended the battle on the table.
        let last = pictured.positions.last().unwrap();
        for (side, result) in [
            (BattleSide::Attacker, &pictured.attacker),
            (BattleSide::Defender, &pictured.defender),
        ] {
            let mut standing: Vec<&str> = result
                .units
                .iter()
                .filter(|u| !u.end.lost())
                .map(|u| u.unit.as_str())
                .collect();
            let mut drawn: Vec<&str> = last
                .units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.unit.as_str())
                .collect();
            standing.sort_unstable();
            drawn.sort_unstable();
            assert_eq!(drawn, standing, "seed {seed}, {side:?}");
        }
        for p in &pictured.positions {
            for u in &p.units {
                assert!(u.sector < 3 && (0.0..=48.0).contains(&u.depth), "{u:?}");
                assert!(u.state != EndState::Broken && u.state != EndState::RoutedOff);
            }
        }
        // Keeping the positions changes nothing else: not the result, not the story.
        pictured.positions.clear();
        assert_eq!(pictured, told, "seed {seed}");
        pictured.log.clear();
        assert_eq!(pictured, quiet, "seed {seed}");
    }
    assert!(by_break > 0, "a break-point battle among the 30");
}

#[test]
fn an_outcome_stored_before_positions_existed_still_reads() {
    let cat = cat();
    let o = fight(&cat, &example_setup(&cat, 3), true).unwrap();
    let json = serde_json::to_string(&o).unwrap();
    assert!(!json.contains("positions"), "left out when there are none");
    let back: Outcome = serde_json::from_str(&json).unwrap();
    assert_eq!(back, o);
    assert!(back.positions.is_empty());
}
