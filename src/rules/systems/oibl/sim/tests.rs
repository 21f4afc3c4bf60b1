//! The simulator's own tests: replayable, ends by B-34/B-35, the deck, markers, move or fire,
//! cavalry's single round, and the policy's charge odds against `odds::charge`.

use super::*;
use crate::rules::system::BattleSide;
use crate::rules::systems::oibl::battle::Level;
use crate::rules::systems::oibl::montecarlo::{merge_ranges, ordinary_army, run_range};
use crate::rules::systems::oibl::record::prepare;
use crate::rules::systems::oibl::roster::{RosterDoc, UnitDoc};

fn cat() -> Catalogue {
    Catalogue::builtin().expect("the built-in catalogue")
}

fn setup(cat: &Catalogue, a: RosterDoc, d: RosterDoc, seed: u64) -> BattleSetup {
    prepare(cat, a, d, Some("open_field"), false, seed)
        .expect("a battle sets up")
        .setup
}

fn ordinary(cat: &Catalogue, seed: u64) -> BattleSetup {
    setup(cat, ordinary_army("A", 1), ordinary_army("B", 1), seed)
}

/// A force of one brigade holding `units`.
fn force(name: &str, units: Vec<UnitDoc>) -> RosterDoc {
    let mut r = RosterDoc::new(name, "american");
    r.brigades[0].units = units;
    r
}

#[test]
fn the_same_setup_gives_the_same_battle_and_log() {
    let cat = cat();
    let s = ordinary(&cat, 7);
    let one = fight(&cat, &s).expect("fights");
    let two = fight(&cat, &s).expect("fights");
    assert_eq!(one, two);
    assert!(one.log.len() > 10, "the battle is narrated");
    // Through the stored document too.
    let text = serde_json::to_string(&s).expect("serialises");
    let back: BattleSetup = serde_json::from_str(&text).expect("reads back");
    assert_eq!(fight(&cat, &back).expect("fights"), one);
    // Another seed, another battle.
    let mut other = s.clone();
    other.seed = 8;
    assert_ne!(fight(&cat, &other).expect("fights").log, one.log);
}

#[test]
fn narration_changes_nothing_but_the_log() {
    let cat = cat();
    for seed in 0..4 {
        let s = ordinary(&cat, seed);
        let told = fight_with(&cat, &s, &StandardPolicy, true).expect("fights");
        let quiet = fight_with(&cat, &s, &StandardPolicy, false).expect("fights");
        assert!(quiet.log.is_empty());
        assert_eq!(
            Outcome {
                log: Vec::new(),
                ..told
            },
            quiet
        );
    }
}

#[test]
fn battles_end_by_army_morale_or_time() {
    let cat = cat();
    let mut seen_decisive = false;
    for seed in 0..12 {
        let s = ordinary(&cat, seed);
        let o = fight(&cat, &s).expect("fights");
        assert_eq!(o.method, Method::Simulated);
        assert!(o.turns >= 1 && o.turns <= s.turns);
        match o.level {
            Level::Decisive => {
                seen_decisive = true;
                let loser = match o.winner {
                    Some(BattleSide::Attacker) => &o.defender,
                    Some(BattleSide::Defender) => &o.attacker,
                    None => panic!("a decisive result has a winner"),
                };
                // B-34: the loser lost at least half its units.
                assert!(loser.lost_units() * 2 >= loser.start_units(), "{o:?}");
                assert!(loser.defeated);
                assert!(o.reason.contains("B-34"));
            }
            Level::Marginal => {
                assert_eq!(o.turns, s.turns, "marginal only when time runs out (B-35)");
                assert!(o.reason.contains("B-35"));
            }
            Level::Draw => assert!(o.reason.contains("B-34") || o.reason.contains("B-35")),
        }
    }
    assert!(seen_decisive, "some battle is won by army morale");
}

#[test]
fn a_one_turn_battle_is_decided_on_time() {
    let cat = cat();
    let mut s = ordinary(&cat, 3);
    s.turns = 1;
    let o = fight(&cat, &s).expect("fights");
    assert_eq!(o.turns, 1);
    s.turns = 0;
    assert!(fight(&cat, &s).is_err(), "no battle lasts no turns");
}

#[test]
fn each_brigade_acts_once_a_turn() {
    let cat = cat();
    let s = setup(&cat, ordinary_army("A", 2), ordinary_army("B", 1), 5);
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    for turn in 1..=3 {
        b.turn = turn;
        b.log.clear();
        let deck = b.deck();
        assert_eq!(deck.len(), 3, "one card per brigade (B-29)");
        b.play_turn(&StandardPolicy);
        let cards: Vec<&String> = b.log.iter().filter(|l| l.contains("'s card:")).collect();
        assert_eq!(cards.len(), 3, "{:?}", b.log);
        assert!(b.units.iter().all(|u| !u.standing() || u.activated));
    }
}

#[test]
fn division_cards_move_their_brigades_once() {
    let cat = cat();
    let mut a = ordinary_army("A", 2);
    a.divisions
        .push(crate::rules::systems::oibl::roster::DivisionDoc {
            id: Some("d1".into()),
            name: "First Division".into(),
            commander: None,
            brigades: vec!["b1".into(), "b2".into()],
        });
    let s = setup(&cat, a, ordinary_army("B", 1), 9);
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    assert_eq!(b.deck().len(), 4, "three brigade cards and a division card");
    b.turn = 1;
    b.play_turn(&StandardPolicy);
    // Whichever card came first, the other two of side A moved nobody twice: exactly two
    // activations of side A did something (the division, or its brigades one by one).
    let a_cards = b.log.iter().filter(|l| l.starts_with("A's card:")).count();
    assert!((1..=2).contains(&a_cards), "{:?}", b.log);
}

#[test]
fn a_panic_marker_waits_for_the_next_activation_and_a_pass_removes_it() {
    let cat = cat();
    let s = ordinary(&cat, 11);
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    let i = b.order[0][0];
    // Casualties mark the unit but test nothing yet (B-12).
    b.casualties(i, 2, true);
    assert!(b.units[i].panic);
    assert!(b.log.iter().all(|l| !l.contains("tests")));
    // Its next activation tests the marker in step 1; a pass removes it.
    b.units[i].s.morale_number = 20;
    b.turn = 1;
    b.activate(&[i], &StandardPolicy);
    assert!(b.log.iter().any(|l| l.contains("tests its Panic Marker")));
    assert!(!b.units[i].panic, "a pass removes the marker");
    // A unit without a marker takes no test in step 1.
    b.log.clear();
    b.units[i].activated = false;
    b.activate(&[i], &StandardPolicy);
    assert!(b.log.iter().all(|l| !l.contains("tests its Panic Marker")));
    // Failing by 2 or more routs it, keeping the marker.
    b.units[i].panic = true;
    b.units[i].s.morale_number = -100;
    b.units[i].activated = false;
    b.activate(&[i], &StandardPolicy);
    assert!(b.units[i].routing && b.units[i].panic, "{:?}", b.log);
    // Failing by 1 keeps the marker and restricts the unit (B-23); a pass clears both.
    let mut c = Battle::new(&cat, &s, false).expect("sets up");
    c.apply_test(i, MoraleResult::FailedBy1);
    assert!(c.units[i].panic && c.units[i].failed_by_1);
    c.apply_test(i, MoraleResult::Pass);
    assert!(!c.units[i].panic && !c.units[i].failed_by_1);
}

/// The standard policy that never charges (to watch movement and fire alone).
struct NoCharge;

impl Policy for NoCharge {
    fn charge_target(&self, _: &Battle, _: usize, _: &[usize]) -> Option<usize> {
        None
    }
    fn movement(&self, b: &Battle, i: usize) -> Move {
        StandardPolicy.movement(b, i)
    }
    fn fire_target(&self, b: &Battle, i: usize) -> Option<usize> {
        StandardPolicy.fire_target(b, i)
    }
    fn evade_with_fire(&self, b: &Battle, i: usize, by: usize) -> bool {
        StandardPolicy.evade_with_fire(b, i, by)
    }
    fn commander_post(&self, b: &Battle, brigade: usize) -> Option<usize> {
        StandardPolicy.commander_post(b, brigade)
    }
}

#[test]
fn a_unit_that_moves_does_not_fire() {
    let cat = cat();
    let s = ordinary(&cat, 2);
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    // Turn 1: the lines are 26" apart; muskets must walk, and walking they do not fire (B-27).
    b.turn = 1;
    let line: Vec<usize> = b.order[0]
        .iter()
        .copied()
        .filter(|&k| b.units[k].s.class == "british_line")
        .collect();
    b.activate(&line, &StandardPolicy);
    for &k in &line {
        assert!(b.units[k].moved, "{:?}", b.log);
        assert!(!b.units[k].fired);
    }
    // Put an enemy at 5": it stands and fires.
    let e = b.order[1][0];
    b.units[e].sector = b.units[line[0]].sector;
    b.units[e].depth = b.units[line[0]].depth + 5.0;
    b.units[line[0]].activated = false;
    b.activate(&[line[0]], &NoCharge);
    let u = &b.units[line[0]];
    assert!(u.fired && !u.moved, "it stands and fires: {:?}", b.log);
}

#[test]
fn light_infantry_move_and_fire_with_half_their_figures() {
    let cat = cat();
    let mut li = UnitDoc::new("Light Bobs", "british_line", 6, "regular");
    li.light_infantry = true;
    let s = setup(
        &cat,
        force("A", vec![li]),
        force("B", vec![UnitDoc::new("Line", "continental", 6, "regular")]),
        4,
    );
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    let (i, e) = (b.order[0][0], b.order[1][0]);
    b.units[e].depth = b.units[i].depth + 9.0;
    b.turn = 1;
    b.activate(&[i], &NoCharge);
    let u = &b.units[i];
    assert!(u.moved && u.move_fire && u.fired, "{:?}", b.log);
    let shot = b
        .log
        .iter()
        .find(|l| l.contains("fires"))
        .expect("it fired");
    assert!(
        shot.contains("fires 9 figures"),
        "half of 18, rounded up: {shot}"
    );
    // A line battalion without the skirmish ability walks and does not fire (B-27).
    let s = setup(
        &cat,
        force(
            "A",
            vec![UnitDoc::new("Line", "british_line", 6, "regular")],
        ),
        force("B", vec![UnitDoc::new("Line", "continental", 6, "regular")]),
        4,
    );
    let mut b = Battle::new(&cat, &s, true).expect("sets up");
    let (i, e) = (b.order[0][0], b.order[1][0]);
    b.units[e].depth = b.units[i].depth + 9.0;
    b.turn = 1;
    b.activate(&[i], &NoCharge);
    assert!(b.units[i].moved && !b.units[i].fired, "{:?}", b.log);
}

#[test]
fn mounted_cavalry_against_foot_fight_one_round() {
    let cat = cat();
    let s = setup(
        &cat,
        force("A", vec![UnitDoc::new("Dragoons", "cavalry", 4, "elite")]),
        force("B", vec![UnitDoc::new("Militia", "militia", 4, "wretched")]),
        1,
    );
    let mut saw_melee = false;
    for seed in 0..20 {
        let mut s = s.clone();
        s.seed = seed;
        let mut b = Battle::new(&cat, &s, true).expect("sets up");
        let (i, j) = (b.order[0][0], b.order[1][0]);
        b.units[i].depth = b.units[j].depth - 6.0;
        b.turn = 1;
        b.activate(&[i], &StandardPolicy);
        if b.log.iter().any(|l| l.starts_with("  Melee:")) {
            saw_melee = true;
            assert!(
                b.log.iter().any(|l| l.contains("one round (B-21)")),
                "{:?}",
                b.log
            );
            assert!(b.log.iter().all(|l| !l.contains("Round 2")), "{:?}", b.log);
        }
    }
    assert!(saw_melee, "elite cavalry charge wretched militia");
}

#[test]
fn foot_melee_fights_two_rounds() {
    let cat = cat();
    let mut seen = false;
    for seed in 0..30 {
        let s = setup(
            &cat,
            force(
                "A",
                vec![UnitDoc::new("Grenadiers", "british_line", 6, "elite")],
            ),
            force("B", vec![UnitDoc::new("Militia", "militia", 4, "wretched")]),
            seed,
        );
        let mut b = Battle::new(&cat, &s, true).expect("sets up");
        let (i, j) = (b.order[0][0], b.order[1][0]);
        b.units[i].depth = b.units[j].depth - 5.0;
        b.turn = 1;
        b.activate(&[i], &StandardPolicy);
        if b.log.iter().any(|l| l.starts_with("  Melee:")) {
            let both_stand = b.log.iter().any(|l| l.contains("Round 1"));
            if both_stand && b.units[j].standing() && b.units[i].standing() {
                seen |= b.log.iter().any(|l| l.contains("Round 2"));
            }
        }
    }
    assert!(seen, "a foot melee goes to a second round");
}

#[test]
fn the_policys_charge_odds_are_the_exact_ones() {
    let cat = cat();
    let s = ordinary(&cat, 1);
    let mut b = Battle::new(&cat, &s, false).expect("sets up");
    let (i, j) = (b.order[0][0], b.order[1][0]);
    b.units[i].depth = b.units[j].depth - 5.0;
    let key = b.charge_key(i, j);
    let exact = policy::charge_parts_exact(&cat, &key).expect("odds");
    let cached = policy::charge_parts(&cat, &key).expect("odds");
    assert_eq!(exact, cached);
    assert_eq!(policy::charge_parts(&cat, &key), Some(exact), "cached");
    // Against the odds calculator's own answer for the same request (spec 4.7).
    let a = crate::rules::systems::oibl::odds::charge(&cat, &key.request()).expect("odds");
    assert_eq!(exact.0, a.ends.charger_routs_at_declaration);
    let full = policy::charge_margin(&cat, &key, 1.0).expect("odds");
    let fail = a.ends.charger_routs_at_declaration
        + a.ends.charger_routs_closing
        + a.melee_outcomes.defender_wins
        + a.melee_outcomes.both_rout;
    assert!((full - (a.p_charge_succeeds - fail)).abs() < 1e-12);
    // A charge that cannot reach only risks the declaration.
    assert_eq!(policy::charge_margin(&cat, &key, 0.0), Some(-exact.0));
    // 5" for a close-order line: 2 + d6 + 3 always reaches; 11" only on a 6.
    assert_eq!(b.p_reach(i, j), 1.0);
    b.units[i].depth = b.units[j].depth - 11.0;
    assert!((b.p_reach(i, j) - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn monte_carlo_ranges_merge_to_the_same_summary() {
    let cat = cat();
    let s = ordinary(&cat, 21);
    let whole = run_range(&cat, &s, 0, 6, &mut |_| {}).expect("runs");
    let a = run_range(&cat, &s, 0, 2, &mut |_| {});
    let b = run_range(&cat, &s, 2, 6, &mut |_| {});
    let merged = merge_ranges(s.seed, vec![a, b]).expect("merges");
    assert_eq!(merged.runs, 6);
    assert_eq!(merged.attacker_wins, whole.attacker_wins);
    assert_eq!(merged.defender_wins, whole.defender_wins);
    assert_eq!(merged.draws, whole.draws);
    assert!(merged.attacker.low <= merged.attacker.p && merged.attacker.p <= merged.attacker.high);
}

#[test]
fn results_list_every_unit_and_commander_of_the_rosters() {
    let cat = cat();
    let s = ordinary(&cat, 13);
    let o = fight(&cat, &s).expect("fights");
    assert_eq!(o.attacker.units.len(), 5);
    assert_eq!(o.defender.units.len(), 5);
    assert_eq!(o.attacker.commanders.len(), 1);
    for u in o.attacker.units.iter().chain(&o.defender.units) {
        assert!(u.figures_lost <= u.start_figures);
        if u.destroyed {
            assert_eq!(u.figures_lost, u.start_figures);
        }
    }
}
