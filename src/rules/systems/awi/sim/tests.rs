//! The simulator: replayable, narrated, ending by W-31/W-32.

use super::super::record::prepare;
use super::super::system::example_force;
use super::super::Catalogue;
use super::fight;
use crate::rules::system::BattleSide;

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue reads")
}

fn setup(seed: u64) -> super::super::BattleSetup {
    let a = example_force("example:british").expect("example");
    let d = example_force("example:continental").expect("example");
    prepare(&cat(), a, d, None, false, seed)
        .expect("sets up")
        .setup
}

#[test]
fn the_same_set_up_gives_the_same_battle_and_log() {
    let c = cat();
    let s = setup(11);
    let one = fight(&c, &s).expect("fought");
    let two = fight(&c, &s).expect("fought");
    assert_eq!(one, two);
    assert!(one.log.len() > 10, "the battle is narrated");
    assert!(one.log.iter().any(|l| l.contains("fires at")));
    assert!(one.moves <= 12, "6 turns of two moves at most (W-32)");
    assert!(one.verdict.contains("W-31"));
}

#[test]
fn battles_end_by_a_break_or_the_game_length_and_are_scored() {
    let c = cat();
    let mut breaks = 0;
    let mut decisive = 0;
    for seed in 0..40 {
        let o = fight(&c, &setup(seed)).expect("fought");
        match o.ending {
            super::super::battle::Ending::ArmyBreak => {
                breaks += 1;
                assert!(o.attacker.broke || o.defender.broke);
                assert_eq!(o.moves % 2, 0, "a break is judged at the end of a turn");
            }
            _ => assert_eq!(o.moves, 12),
        }
        if o.winner.is_some() {
            decisive += 1;
        }
        if o.attacker.broke && !o.defender.broke {
            assert_eq!(o.winner, Some(BattleSide::Defender));
        }
        for side in [&o.attacker, &o.defender] {
            for u in &side.units {
                assert!(u.figures_lost <= u.start_figures);
            }
        }
    }
    assert!(breaks > 0, "some battles end by an army break");
    assert!(decisive > 0);
}
