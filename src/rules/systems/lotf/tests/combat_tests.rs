//! Worked cases for the combat mechanics, from the book and the rulings.

use super::support::cat;
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::combat::*;
use crate::rules::systems::lotf::odds::*;
use crate::rules::systems::lotf::types::*;

fn shooter(t: ElementType, action: u8, weapon: Weapon, range: u8) -> ShooterState {
    ShooterState {
        element_type: t,
        weapon,
        action,
        extra_dice: 0,
        range,
        min_range: 0,
        exhausted: false,
        disorder_markers: 0,
    }
}

#[test]
fn pool_explanation_matches_the_issue_example() {
    // R-15: medium infantry (4 Action) at 3" into cover.
    let c = cat();
    let s = shooter(ElementType::Infantry, 4, Weapon::Smoothbore, 12);
    let sit = ShotSituation {
        range_inches: 3,
        target_in_cover: true,
        ..ShotSituation::default()
    };
    let (pool, kind) = shooting_pool(&c, &s, &sit).unwrap();
    assert_eq!(kind, ShotKind::Musket);
    assert_eq!(pool.total, 6);
    assert_eq!(
        pool.explanation(),
        "2 base + 4 Action + 1 point blank − 1 cover = 6 dice"
    );
}

#[test]
fn empty_pool_rolls_one_die_hitting_on_six() {
    // R-14: 2 + 1 Action − 1 long range... tiny rifles with 4 Disorder Markers.
    let c = cat();
    let mut s = shooter(ElementType::Infantry, 1, Weapon::Rifled, 18);
    s.disorder_markers = 4;
    let sit = ShotSituation {
        range_inches: 15,
        ..ShotSituation::default()
    };
    let (pool, _) = shooting_pool(&c, &s, &sit).unwrap();
    assert_eq!(pool.total, -2);
    assert_eq!(pool.dice(), 1);
    assert_eq!(pool.to_hit(), 6);
    assert!(pool.explanation().contains("one die that hits only on a 6"));
}

#[test]
fn out_of_range_and_grapeshot_limits() {
    let c = cat();
    let s = shooter(ElementType::Infantry, 4, Weapon::Smoothbore, 12);
    let sit = ShotSituation {
        range_inches: 13,
        ..ShotSituation::default()
    };
    assert!(matches!(
        shooting_pool(&c, &s, &sit),
        Err(ShotBar::OutOfRange { .. })
    ));
    let gun = shooter(ElementType::Artillery, 3, Weapon::LightGun, 36);
    let grape = ShotSituation {
        range_inches: 14,
        ammunition: Ammunition::Grapeshot,
        ..ShotSituation::default()
    };
    assert!(matches!(
        shooting_pool(&c, &gun, &grape),
        Err(ShotBar::GrapeshotTooFar { .. })
    ));
    // R-15: grapeshot adds 2 dice.
    let near = ShotSituation {
        range_inches: 8,
        ammunition: Ammunition::Grapeshot,
        ..ShotSituation::default()
    };
    let (pool, kind) = shooting_pool(&c, &gun, &near).unwrap();
    assert_eq!((pool.total, kind), (7, ShotKind::Grapeshot));
    // R-17: mortars ignore cover, long range applies to artillery.
    let mut mortar = shooter(ElementType::Artillery, 3, Weapon::SiegeMortar, 36);
    mortar.min_range = 12;
    let covered = ShotSituation {
        range_inches: 20,
        target_in_cover: true,
        ..ShotSituation::default()
    };
    let (pool, kind) = shooting_pool(&c, &mortar, &covered).unwrap();
    assert_eq!((pool.total, kind), (4, ShotKind::Mortar));
    let close = ShotSituation {
        range_inches: 6,
        ..ShotSituation::default()
    };
    assert!(matches!(
        shooting_pool(&c, &mortar, &close),
        Err(ShotBar::TooClose { .. })
    ));
}

fn spec(kind: ShotKind) -> ShotSpec {
    ShotSpec {
        dice: 6,
        to_hit: 5,
        kind,
        raking: false,
        reroll_misses: false,
        ignore_ragged: false,
        marksmen: false,
    }
}

#[test]
fn ragged_and_punishing_volleys() {
    let c = cat();
    let s = spec(ShotKind::Musket);
    // R-16: two 1s take a hit off.
    let e = judge_volley(&c, &s, 3, 2, 0);
    assert_eq!((e.hits, e.disorder_markers, e.ragged), (2, 0, true));
    // Two 6s: a Disorder Marker as well as the hits.
    let e = judge_volley(&c, &s, 3, 0, 2);
    assert_eq!((e.hits, e.disorder_markers, e.punishing), (3, 1, true));
    // Both: they cancel, only the hits count.
    let e = judge_volley(&c, &s, 3, 2, 2);
    assert_eq!(
        (e.hits, e.disorder_markers, e.ragged, e.punishing),
        (3, 0, false, false)
    );
    // Ragged with no hits has no further effect.
    assert_eq!(judge_volley(&c, &s, 0, 3, 0).hits, 0);
    // Marksmen: one 6 disorders; punishing gives two; cancelled still one (R-16).
    let mut m = s;
    m.marksmen = true;
    assert_eq!(judge_volley(&c, &m, 1, 0, 1).disorder_markers, 1);
    assert_eq!(judge_volley(&c, &m, 2, 0, 2).disorder_markers, 2);
    assert_eq!(judge_volley(&c, &m, 2, 2, 2).disorder_markers, 1);
    // M-14: a Concentrated Volley ignores ragged, so punishing stands.
    let mut cv = s;
    cv.ignore_ragged = true;
    let e = judge_volley(&c, &cv, 3, 2, 2);
    assert_eq!((e.hits, e.disorder_markers), (3, 1));
}

#[test]
fn artillery_disorder_and_rockets() {
    let c = cat();
    // R-17: a cannon order that hits adds one Disorder Marker (not one per hit).
    let e = judge_volley(&c, &spec(ShotKind::SolidShot), 3, 0, 0);
    assert_eq!((e.hits, e.disorder_markers), (3, 1));
    let e = judge_volley(&c, &spec(ShotKind::Grapeshot), 0, 0, 0);
    assert_eq!((e.hits, e.disorder_markers), (0, 0));
    // Rockets: hits become Disorder Markers.
    let e = judge_volley(&c, &spec(ShotKind::Rockets), 2, 0, 0);
    assert_eq!((e.hits, e.disorder_markers), (0, 2));
}

#[test]
fn solid_shot_penetration_keeps_rolling_sixes() {
    let c = cat();
    let s = ShotSpec {
        dice: 3,
        ..spec(ShotKind::SolidShot)
    };
    let mut d = Dice::from_seed(99);
    let mut extra = 0;
    for _ in 0..2000 {
        let r = roll_volley(&c, &s, &mut d);
        let sixes_in_pool = r.faces[..3].iter().filter(|&&f| f == 6).count();
        // Every 6 anywhere adds exactly one die (R-17).
        let all_sixes = r.faces.iter().filter(|&&f| f == 6).count();
        assert_eq!(r.faces.len(), 3 + all_sixes);
        extra += r.faces.len() - 3;
        assert!(sixes_in_pool <= all_sixes);
    }
    assert!(extra > 0);
    // Raking fire: 5s penetrate too.
    let rk = ShotSpec { raking: true, ..s };
    assert_eq!(rk.penetration_face(&c), Some(5));
    // M-13: an empty pool's die hits only on 6, so only a 6 penetrates.
    let empty = ShotSpec { to_hit: 6, ..rk };
    assert_eq!(empty.penetration_face(&c), Some(6));
}

#[test]
fn excess_hits_follow_the_books_example() {
    // The book: a Fit element with Discipline 2 takes 3 hits from shooting.
    // It keeps 2, tests at −1 for the one excess hit, then drops to Shaken
    // and loses all its hits (R-20).
    let c = cat();
    let r = take_hits(0, 2, 0, 3);
    assert_eq!(
        (r.hits_now, r.excess, r.test_due, r.suffered),
        (2, 1, true, 3)
    );
    let s = MoraleSituation {
        excess_hits: r.excess,
        ..MoraleSituation::default()
    };
    assert_eq!(morale_modifier(&c, &s, TestKind::Discipline).0, -1);
    assert_eq!(degrade(DisciplineLevel::Fit), DisciplineLevel::Shaken);
    // Hits accumulate across orders; the order that crosses the line counts the excess.
    let r = take_hits(1, 3, 0, 4);
    assert_eq!((r.hits_now, r.excess, r.test_due), (3, 2, true));
    let r = take_hits(1, 3, 0, 1);
    assert_eq!((r.hits_now, r.test_due), (2, false));
    // R-10 Resilient: the first two hits of the game are ignored.
    let r = take_hits(0, 2, 2, 3);
    assert_eq!(
        (r.ignored, r.suffered, r.resilient_left, r.test_due),
        (2, 1, 0, false)
    );
}

#[test]
fn discipline_levels_cost_orders_and_dice() {
    // R-19: Shaken and Exhausted lose a Combat Order, never below 1.
    assert_eq!(combat_orders(3, DisciplineLevel::Fit), 3);
    assert_eq!(combat_orders(3, DisciplineLevel::Shaken), 2);
    assert_eq!(combat_orders(2, DisciplineLevel::Exhausted), 1);
    assert_eq!(combat_orders(1, DisciplineLevel::Exhausted), 1);
    assert_eq!(action_dice(4, DisciplineLevel::Exhausted), 3);
    assert_eq!(
        degrade(DisciplineLevel::Exhausted),
        DisciplineLevel::Shattered
    );
}

#[test]
fn morale_tests_and_modifiers() {
    let c = cat();
    // R-20: 2d6 ≥ 7 with no modifiers is 21/36.
    let t = MoraleTest {
        target: 7,
        ..MoraleTest::default()
    };
    assert!((morale_pass_probability(&t) - 21.0 / 36.0).abs() < 1e-12);
    // R-19: Disordered is −1 however many markers; Shaken −1 once.
    let s = MoraleSituation {
        disordered: true,
        shaken_or_exhausted: true,
        battle_line: true,
        supported: true,
        ..MoraleSituation::default()
    };
    assert_eq!(morale_modifier(&c, &s, TestKind::Morale).0, 0);
    // Forced orders: only those after the first cost.
    let f = MoraleSituation {
        forced_orders: 3,
        ..MoraleSituation::default()
    };
    assert_eq!(morale_modifier(&c, &f, TestKind::Disorder).0, -2);
    // Preserve the Nation: −1 on Discipline Tests only.
    let p = MoraleSituation {
        preserve_the_nation: true,
        ..MoraleSituation::default()
    };
    assert_eq!(morale_modifier(&c, &p, TestKind::Discipline).0, -1);
    assert_eq!(morale_modifier(&c, &p, TestKind::Morale).0, 0);
    // Esprit de Corps re-rolls both dice once: p + (1 − p) p.
    let e = MoraleTest {
        target: 8,
        esprit_de_corps: true,
        ..MoraleTest::default()
    };
    let p = 15.0 / 36.0;
    assert!((morale_pass_probability(&e) - (p + (1.0 - p) * p)).abs() < 1e-12);
    // Rolled tests agree with the exact odds.
    let mut d = Dice::from_seed(5);
    let w = MoraleTest {
        target: 9,
        modifier: -1,
        encouraging_words: true,
        ..MoraleTest::default()
    };
    let n = 60_000;
    let passed = (0..n).filter(|_| roll_morale(&w, &mut d).passed).count() as f64 / n as f64;
    let exact = morale_pass_probability(&w);
    let se = (exact * (1.0 - exact) / n as f64).sqrt();
    assert!((passed - exact).abs() < 4.5 * se, "{passed} vs {exact}");
    assert!(exact > 6.0 / 36.0);
}

#[test]
fn commanders_ratings_points_and_casualties() {
    let c = cat();
    // R-11.
    let r1 = rating_for_roll(&c, 1).unwrap();
    assert_eq!((r1.morale, r1.spi), (8, 12));
    assert_eq!(r1.command_points.notation(), "d3-1");
    assert_eq!(
        rating_for_roll(&c, 5).unwrap().command_points.notation(),
        "best of 2d3"
    );
    assert_eq!(rating_for_roll(&c, 6).unwrap().morale, 6);
    assert!(rating_for_roll(&c, 7).is_none());
    // R-12: field promotion at −1, a 1 stays a 1.
    let mut d = Dice::from_seed(1);
    for _ in 0..200 {
        let r = roll_rating(&c, &mut d, true).unwrap();
        assert!(r.roll <= 5);
    }
    // R-13: 2 hits need 9+ on 2d6: 10/36; Marksmen 8+: 15/36; no hits no roll.
    assert!((commander_casualty_probability(&c, 2, false) - 10.0 / 36.0).abs() < 1e-12);
    assert!((commander_casualty_probability(&c, 2, true) - 15.0 / 36.0).abs() < 1e-12);
    assert_eq!(commander_casualty_probability(&c, 0, true), 0.0);
    assert!((commander_casualty_probability(&c, 9, false) - 1.0).abs() < 1e-12);
}

#[test]
fn charge_limits() {
    // R-28.
    assert!(size_may_charge(Size::Tiny, Size::Small));
    assert!(!size_may_charge(Size::Tiny, Size::Medium));
    assert!(size_may_charge(Size::Small, Size::Medium));
    assert!(!size_may_charge(Size::Small, Size::Large));
    assert!(size_may_charge(Size::Medium, Size::Large));
    let p = |lvl, flank| {
        charge_permission(
            ElementType::Infantry,
            Size::Medium,
            Formation::BattleLine,
            lvl,
            false,
            Size::Medium,
            flank,
        )
    };
    assert_eq!(
        p(DisciplineLevel::Fit, false).map(|x| x.disorder_test),
        Ok(false)
    );
    assert_eq!(
        p(DisciplineLevel::Shaken, false).map(|x| x.disorder_test),
        Ok(true)
    );
    assert_eq!(
        p(DisciplineLevel::Exhausted, false),
        Err(ChargeBar::ExhaustedNeedsFlank)
    );
    assert_eq!(
        p(DisciplineLevel::Exhausted, true).map(|x| x.disorder_test),
        Ok(true)
    );
    assert_eq!(
        charge_permission(
            ElementType::Artillery,
            Size::Large,
            Formation::Unlimbered,
            DisciplineLevel::Fit,
            false,
            Size::Tiny,
            false
        ),
        Err(ChargeBar::Artillery)
    );
    assert!(counter_charge_allowed(
        ElementType::Infantry,
        ElementType::Infantry
    ));
    assert!(!counter_charge_allowed(
        ElementType::Infantry,
        ElementType::Cavalry
    ));
    assert!(counter_charge_allowed(
        ElementType::Cavalry,
        ElementType::Infantry
    ));
    assert!(!counter_charge_allowed(
        ElementType::Cavalry,
        ElementType::Artillery
    ));
    // R-30: withdraw reaction uses the Group Commander's die, +1 if Fit; d3 without him.
    let c = cat();
    let skilled = rating_for_roll(&c, 4).unwrap();
    let (e, b) = withdraw_reaction_expr(&c, Some(&skilled), DisciplineLevel::Fit);
    assert_eq!((e.notation(), b), ("best of 2d3", 1));
    let (e, b) = withdraw_reaction_expr(&c, None, DisciplineLevel::Shaken);
    assert_eq!((e.notation(), b), ("d3", 0));
}

/// R-28 as amended: besides "smaller or one size larger", a small element may charge only small or
/// medium elements, so never a tiny one; the same limit holds for counter-charges (the simulator
/// asks `charge_permission` for both).
#[test]
fn a_small_element_may_not_charge_or_counter_charge_a_tiny_one_r28() {
    assert!(!size_may_charge(Size::Small, Size::Tiny));
    assert!(size_may_charge(Size::Small, Size::Small));
    assert!(size_may_charge(Size::Small, Size::Medium));
    assert!(size_may_charge(Size::Tiny, Size::Tiny));
    assert!(size_may_charge(Size::Medium, Size::Tiny));
    assert!(size_may_charge(Size::Large, Size::Tiny));
    for ty in [ElementType::Infantry, ElementType::Cavalry] {
        let charge = charge_permission(
            ty,
            Size::Small,
            Formation::BattleLine,
            DisciplineLevel::Fit,
            false,
            Size::Tiny,
            false,
        );
        let bar = charge.expect_err("a small element may not charge a tiny one");
        assert!(bar.to_string().contains("R-28"), "{bar}");
        // Into the flank makes no difference to the size limit.
        assert!(charge_permission(
            ty,
            Size::Small,
            Formation::OpenOrder,
            DisciplineLevel::Shaken,
            false,
            Size::Tiny,
            true,
        )
        .is_err());
    }
}

#[test]
fn melee_pools_support_and_resolution() {
    let c = cat();
    // R-18: initiated +2, Battle Line +2; supporters half rounded up or all.
    let mut a = MeleeSide::plain(ElementType::Infantry, 4, Formation::BattleLine);
    a.initiated = true;
    a.supporters = vec![
        Supporter {
            action: 3,
            extra_dice: 0,
            disorder_markers: 0,
            close: false,
            level: DisciplineLevel::Fit,
            formation: Formation::BattleLine,
        },
        Supporter {
            action: 4,
            extra_dice: 2,
            disorder_markers: 1,
            close: true,
            level: DisciplineLevel::Fit,
            formation: Formation::OpenOrder,
        },
        Supporter {
            action: 6,
            extra_dice: 0,
            disorder_markers: 0,
            close: true,
            level: DisciplineLevel::Exhausted,
            formation: Formation::BattleLine,
        },
    ];
    let d = MeleeSide::plain(ElementType::Infantry, 4, Formation::OpenOrder);
    let pool = melee_pool(&c, &a, &d);
    // 2 + 4 + 2 + 2 + (2 + 5) = 17; the Exhausted supporter adds nothing.
    assert_eq!(pool.total, 17);
    let (ra, _) = melee_resolution(&c, &a, &d);
    assert_eq!(ra, 1); // line against open order
                       // R-29: Self-preservation loses the line dice and the line bonus.
    let mut m = a.clone();
    m.self_preservation = true;
    m.supporters.clear();
    assert_eq!(melee_pool(&c, &m, &d).total, 8);
    assert_eq!(melee_resolution(&c, &m, &d).0, 0);
    // Fit against Shaken +1; against Exhausted +2; vs March Column +2.
    let mut sh = d.clone();
    sh.level = DisciplineLevel::Shaken;
    sh.formation = Formation::MarchColumn;
    assert_eq!(melee_resolution(&c, &m, &sh).0, 3);
    // Buildings: half Action rounded up for both, no support for the occupant.
    let mut b = MeleeSide::plain(ElementType::Infantry, 3, Formation::OpenOrder);
    b.in_building = true;
    b.supporters = a.supporters.clone();
    assert_eq!(melee_pool(&c, &b, &d).total, 2 + 2);
    // R-14 extended: an empty melee pool rolls one die needing a 6.
    let mut weak = MeleeSide::plain(ElementType::Infantry, 1, Formation::OpenOrder);
    weak.disorder_markers = 5;
    let p = melee_pool(&c, &weak, &d);
    assert_eq!((p.dice(), p.to_hit()), (1, 6));
}

#[test]
fn victory_levels() {
    let c = cat();
    // R-21: difference over the game's size.
    let v = victory_by_points(&c, 25, 60, 150);
    assert_eq!(
        (v.winner, v.level, v.attacker_vp, v.defender_vp),
        (Some(Side::Attacker), VictoryLevel::Minor, 5, 2)
    );
    assert!(v.arithmetic.contains("23.3 %"));
    assert_eq!(victory_by_points(&c, 0, 40, 150).level, VictoryLevel::Major);
    assert_eq!(
        victory_by_points(&c, 15, 0, 150).level,
        VictoryLevel::Marginal
    );
    let t = victory_by_points(&c, 30, 30, 150);
    assert_eq!((t.winner, t.attacker_vp, t.defender_vp), (None, 3, 3));
    // Exactly 25 % is Minor, exactly 10 % Marginal (thresholds are "more than").
    assert_eq!(victory_by_points(&c, 0, 50, 200).level, VictoryLevel::Minor);
    assert_eq!(
        victory_by_points(&c, 0, 20, 200).level,
        VictoryLevel::Marginal
    );
    // R-22.
    assert_eq!(
        victory_by_objectives(&c, 3, 0, 3, 100, 0, 150).level,
        VictoryLevel::Major
    );
    assert_eq!(
        victory_by_objectives(&c, 2, 0, 3, 0, 0, 150).level,
        VictoryLevel::Minor
    );
    assert_eq!(
        victory_by_objectives(&c, 1, 2, 3, 0, 0, 150).winner,
        Some(Side::Defender)
    );
    let eq = victory_by_objectives(&c, 1, 1, 3, 0, 30, 150);
    assert_eq!(
        (eq.decided_by, eq.winner),
        (DecidedBy::VictoryPoints, Some(Side::Attacker))
    );
    // R-23.
    assert!(!group_is_broken(2, 4));
    assert!(group_is_broken(3, 5));
    assert!(!group_is_broken(0, 0));
    assert!(element_counts_as_broken(DisciplineLevel::Exhausted, false));
    assert!(!element_counts_as_broken(DisciplineLevel::Shaken, false));
    let b = victory_by_broken_force(&c, Side::Defender, 4);
    assert_eq!((b.winner, b.attacker_vp), (Some(Side::Attacker), 6));
}

/// R-23 and M-26: one function judges a count of broken groups for the recorder and the simulator.
/// A force is broken when its broken groups outnumber the unbroken ones; a tie is not broken.
#[test]
fn broken_force_verdict_r23_m25() {
    use crate::rules::systems::lotf::combat::victory::{broken_force_verdict, BrokenForces};
    assert_eq!(broken_force_verdict((0, 3), (1, 3)), BrokenForces::Neither);
    assert_eq!(
        broken_force_verdict((1, 2), (2, 4)),
        BrokenForces::Neither,
        "half broken is not broken"
    );
    assert_eq!(
        broken_force_verdict((2, 3), (1, 3)),
        BrokenForces::Concedes(Side::Attacker)
    );
    assert_eq!(
        broken_force_verdict((0, 2), (3, 5)),
        BrokenForces::Concedes(Side::Defender)
    );
    assert_eq!(
        broken_force_verdict((2, 2), (3, 5)),
        BrokenForces::Both,
        "both at once, however unequal the shares"
    );
    assert_eq!(broken_force_verdict((0, 0), (0, 0)), BrokenForces::Neither);
}

/// M-26: what each verdict decides. A count after the last turn reads as such; both forces broken
/// at once go to victory points.
#[test]
fn victory_by_broken_forces_m25() {
    use crate::rules::systems::lotf::combat::victory::{victory_by_broken_forces, BrokenForces};
    let c = cat();
    assert!(victory_by_broken_forces(&c, BrokenForces::Neither, 3, 0, 90, 150).is_none());
    let v = victory_by_broken_forces(&c, BrokenForces::Concedes(Side::Attacker), 3, 0, 90, 150)
        .expect("a concession");
    assert_eq!(
        (v.winner, v.decided_by, v.defender_vp),
        (Some(Side::Defender), DecidedBy::ForceBroken, 6)
    );
    assert!(v.arithmetic.contains("start of turn 3"), "{}", v.arithmetic);
    let v = victory_by_broken_forces(&c, BrokenForces::Concedes(Side::Defender), 7, 0, 0, 150)
        .expect("a concession");
    assert!(
        v.arithmetic.contains("end of turn 6") && v.arithmetic.contains("M-26"),
        "{}",
        v.arithmetic
    );
    // Attacker lost 40, defender 90, of 150: a Major Victory on points for the attacker.
    let v = victory_by_broken_forces(&c, BrokenForces::Both, 4, 40, 90, 150).expect("ends");
    assert_eq!(
        (v.winner, v.level, v.decided_by),
        (
            Some(Side::Attacker),
            VictoryLevel::Major,
            DecidedBy::VictoryPoints
        )
    );
    assert!(v.arithmetic.contains("M-26"), "{}", v.arithmetic);
    let v = victory_by_broken_forces(&c, BrokenForces::Both, 4, 60, 60, 150).expect("ends");
    assert_eq!((v.winner, v.level), (None, VictoryLevel::Tie));
}

#[test]
fn morale_odds_handles_bad_input() {
    let c = cat();
    let req: MoraleRequest =
        serde_json::from_str(r#"{"morale": 7, "situation": {"battle_line": true}}"#).unwrap();
    let o = morale_odds(&c, &req).unwrap();
    assert!((o.p_pass - 26.0 / 36.0).abs() < 1e-12);
    assert_eq!(o.need_on_2d6, 6);
    let none: MoraleRequest = serde_json::from_str("{}").unwrap();
    assert!(morale_odds(&c, &none).is_err());
    assert!(serde_json::from_str::<MoraleRequest>(r#"{"morale": 7, "bogus": 1}"#).is_err());
}

/// The exact hit distribution, built in place, is the textbook one die at a
/// time to the last bit (the simulator's battles depend on every bit).
#[test]
fn binomial_in_place_matches_the_die_by_die_sum_exactly() {
    fn die_by_die(n: u32, p: f64) -> Vec<f64> {
        let mut dist = vec![1.0];
        for _ in 0..n {
            let mut next = vec![0.0; dist.len() + 1];
            for (k, q) in dist.iter().enumerate() {
                next[k] += q * (1.0 - p);
                next[k + 1] += q * p;
            }
            dist = next;
        }
        dist
    }
    for n in 0..=40 {
        for p in [1.0 / 6.0, 1.0 / 3.0, 0.5, 0.5555, 2.0 / 3.0, 11.0 / 36.0] {
            let fast: Vec<u64> = crate::rules::systems::lotf::combat::binomial(n, p)
                .iter()
                .map(|x| x.to_bits())
                .collect();
            let slow: Vec<u64> = die_by_die(n, p).iter().map(|x| x.to_bits()).collect();
            assert_eq!(fast, slow, "{n} dice at {p}");
        }
    }
}

/// The simulator takes a test's modifier without its explanation; it must be
/// the total the odds calculator shows, in every situation.
#[test]
fn a_test_modifier_without_its_terms_is_the_same_total() {
    let c = cat();
    for bits in 0u32..(1 << 11) {
        let on = |k: u32| bits & (1 << k) != 0;
        let s = MoraleSituation {
            march_column: on(0),
            forced_orders: if on(1) { 3 } else { 1 },
            excess_hits: if on(2) { 2 } else { 0 },
            shaken_or_exhausted: on(3),
            disordered: on(4),
            group_broken: on(5),
            supported: on(6),
            battle_line: on(7),
            commander_attached: on(8),
            in_cover: on(9),
            in_defenses: on(10),
            preserve_the_nation: on(2) && on(5),
        };
        for kind in [TestKind::Morale, TestKind::Discipline, TestKind::Disorder] {
            let (total, terms) = morale_modifier(&c, &s, kind);
            assert_eq!(morale_modifier_total(&c, &s, kind), total, "{s:?} {kind:?}");
            assert!(
                terms.iter().all(|t| t.value != 0),
                "only non-zero terms are shown"
            );
        }
    }
}

/// The simulator's lean paths roll exactly what the explained ones roll: the
/// same totals, the same effect, and the dice left in the same state.
#[test]
fn unexplained_pools_and_rolls_match_the_explained_ones() {
    let c = cat();
    let kinds = [
        (ElementType::Infantry, Weapon::Smoothbore, 12),
        (ElementType::Artillery, Weapon::LightGun, 24),
        (ElementType::Artillery, Weapon::Rockets, 24),
    ];
    let mut checked = 0;
    for (et, weapon, range) in kinds {
        for dm in 0..3 {
            for range_inches in [1, 3, 8, 13, 20] {
                for (cover, open, flank) in [
                    (false, false, false),
                    (true, false, true),
                    (false, true, true),
                ] {
                    let mut s = shooter(et, 4, weapon, range);
                    s.disorder_markers = dm;
                    let sit = ShotSituation {
                        range_inches,
                        target_in_cover: cover,
                        target_open_order: open,
                        flank,
                        ammunition: if range_inches <= 6 {
                            Ammunition::Grapeshot
                        } else {
                            Ammunition::SolidShot
                        },
                    };
                    let full = shooting_pool(&c, &s, &sit);
                    let lean = shooting_pool_unexplained(&c, &s, &sit);
                    assert_eq!(full.is_ok(), lean.is_ok());
                    let (Ok((pool, kind)), Ok((lean, lean_kind))) = (full, lean) else {
                        continue;
                    };
                    assert_eq!(
                        (pool.total, pool.dice(), pool.to_hit()),
                        (lean.total, lean.dice(), lean.to_hit())
                    );
                    assert_eq!(kind, lean_kind);
                    let mut spec = ShotSpec::from_pool(&pool, kind, flank);
                    for (reroll, marksmen) in [(false, false), (true, true)] {
                        spec.reroll_misses = reroll;
                        spec.ignore_ragged = reroll;
                        spec.marksmen = marksmen;
                        for seed in 0..40 {
                            let (mut d1, mut d2) = (Dice::from_seed(seed), Dice::from_seed(seed));
                            let full = roll_volley(&c, &spec, &mut d1);
                            assert_eq!(full.effect, roll_volley_effect(&c, &spec, &mut d2));
                            assert_eq!(d1.d6(), d2.d6());
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000);
    let sup = |close: bool, dm: u32| Supporter {
        action: 4,
        extra_dice: 0,
        disorder_markers: dm,
        close,
        level: DisciplineLevel::Fit,
        formation: Formation::BattleLine,
    };
    for (fa, fd) in [
        (Formation::BattleLine, Formation::OpenOrder),
        (Formation::OpenOrder, Formation::MarchColumn),
        (Formation::BattleLine, Formation::Unlimbered),
    ] {
        for level in [
            DisciplineLevel::Fit,
            DisciplineLevel::Shaken,
            DisciplineLevel::Exhausted,
        ] {
            let mut a = MeleeSide::plain(ElementType::Infantry, 4, fa);
            a.initiated = true;
            a.flank = level == DisciplineLevel::Shaken;
            a.in_spi = true;
            a.reroll_misses = level == DisciplineLevel::Fit;
            a.supporters = vec![sup(true, 0), sup(false, 1)];
            let mut d = MeleeSide::plain(ElementType::Cavalry, 3, fd);
            d.level = level;
            d.disorder_markers = 2;
            d.counter_charged = true;
            d.defenses = level == DisciplineLevel::Exhausted;
            for (x, y) in [(&a, &d), (&d, &a)] {
                assert_eq!(
                    melee_pool(&c, x, y).total,
                    melee_pool_unexplained(&c, x, y).total
                );
                assert_eq!(
                    melee_resolution(&c, x, y).0,
                    melee_resolution_total(&c, x, y)
                );
            }
            for seed in 0..200 {
                let (mut d1, mut d2) = (Dice::from_seed(seed), Dice::from_seed(seed));
                let full = resolve_melee(&c, &a, &d, &mut d1);
                let lean = resolve_melee_round(&c, &a, &d, &mut d2);
                assert_eq!(
                    (
                        full.attacker_faces.len() as u32,
                        full.defender_faces.len() as u32,
                        full.attacker_hits,
                        full.defender_hits,
                        full.attacker_result,
                        full.defender_result,
                        full.outcome,
                        full.margin
                    ),
                    (
                        lean.attacker_dice,
                        lean.defender_dice,
                        lean.attacker_hits,
                        lean.defender_hits,
                        lean.attacker_result,
                        lean.defender_result,
                        lean.outcome,
                        lean.margin
                    )
                );
                assert_eq!(d1.d6(), d2.d6());
            }
        }
    }
}
