//! Exact odds: sums to one, book cases, degenerate input, and agreement with
//! 50 000 rolled volleys for more than forty situations.

use super::support::cat;
use crate::rules::dice::Dice;
use crate::rules::systems::lotf::combat::*;
use crate::rules::systems::lotf::odds::*;
use crate::rules::systems::lotf::types::*;

fn req(json: &str) -> ShootingRequest {
    serde_json::from_str(json).expect("request parses")
}

#[test]
fn simple_volley_is_binomial() {
    let c = cat();
    let o = shooting_odds(
        &c,
        &req(r#"{"shooter": {"type": "infantry", "size": "medium"},
                 "target": {"type": "infantry", "size": "medium", "in_cover": true},
                 "range_inches": 3}"#),
    )
    .unwrap();
    assert_eq!(o.dice, 6);
    assert_eq!(
        o.pool_explanation,
        "2 base + 4 Action + 1 point blank − 1 cover = 6 dice"
    );
    let total: f64 = o.hits_distribution.iter().sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Without ragged/punishing interplay the mean would be 2; a ragged volley
    // (two or more 1s without two 6s) takes a little off.
    assert!(
        o.expected_hits < 2.0 && o.expected_hits > 1.7,
        "{}",
        o.expected_hits
    );
    assert!(o.rulings.contains(&"R-14".to_string()));
    // Discipline 3 target with no hits: a test is due on 3+ hits.
    assert!(o.p_discipline_test > 0.0 && o.p_discipline_test_failed < o.p_discipline_test);
    assert!(o.omitted_probability < 1e-15);
    let js = serde_json::to_value(&o).unwrap();
    for k in [
        "dice",
        "to_hit",
        "hits_distribution",
        "expected_hits",
        "p_punishing_volley",
        "p_discipline_test_failed",
        "omitted_probability",
        "pool_explanation",
        "rulings",
    ] {
        assert!(js.get(k).is_some(), "{k}");
    }
}

#[test]
fn degenerate_and_bad_requests() {
    let c = cat();
    // R-14: a hopeless pool still rolls one die on 6.
    let o = shooting_odds(
        &c,
        &req(r#"{"shooter": {"type": "infantry", "size": "tiny", "disorder_markers": 9},
                 "target": {"type": "infantry", "size": "large", "formation": "open_order", "in_cover": true},
                 "range_inches": 12}"#),
    )
    .unwrap();
    assert_eq!((o.dice, o.to_hit, o.pool_total), (1, 6, -8));
    assert!((o.hits_distribution[1] - 1.0 / 6.0).abs() < 1e-12);
    // Tiny artillery does not exist.
    let e = shooting_odds(
        &c,
        &req(
            r#"{"shooter": {"type": "artillery", "size": "tiny"}, "target": {"type": "infantry", "size": "small"}, "range_inches": 10}"#,
        ),
    );
    assert!(matches!(e, Err(OddsError::NoSuchElement { .. })));
    // Out of range.
    let e = shooting_odds(
        &c,
        &req(
            r#"{"shooter": {"type": "cavalry", "size": "small"}, "target": {"type": "infantry", "size": "small"}, "range_inches": 7}"#,
        ),
    );
    assert!(matches!(e, Err(OddsError::Shot(_))));
    // Absurd numbers are refused, not computed.
    let e = shooting_odds(
        &c,
        &req(
            r#"{"shooter": {"type": "infantry", "size": "small", "disorder_markers": 4000000000}, "target": {"type": "infantry", "size": "small"}, "range_inches": 7}"#,
        ),
    );
    assert!(matches!(e, Err(OddsError::OutOfRange { .. })));
    assert!(serde_json::from_str::<ShootingRequest>(r#"{"shooter": {"type": "infantry", "size": "small", "colour": "red"}, "target": {"type": "infantry", "size": "small"}, "range_inches": 7}"#).is_err());
    // Melee: too many supporters, and a hopeless side.
    let m: MeleeRequest = serde_json::from_str(
        r#"{"attacker": {"type": "infantry", "size": "tiny", "disorder_markers": 8},
            "defender": {"type": "infantry", "size": "large", "defenses": true}}"#,
    )
    .unwrap();
    let o = melee_odds(&c, &m).unwrap();
    assert_eq!(o.attacker.dice, 1);
    assert!((o.attacker_win + o.tie + o.defender_win - 1.0).abs() < 1e-12);
    assert!(o.defender_win > 0.99);
    let m: MeleeRequest = serde_json::from_str(
        r#"{"attacker": {"type": "infantry", "size": "medium", "supporters": [
              {"type": "infantry", "size": "small"}, {"type": "infantry", "size": "small"},
              {"type": "infantry", "size": "small"}, {"type": "infantry", "size": "small"}]},
            "defender": {"type": "infantry", "size": "medium"}}"#,
    )
    .unwrap();
    assert!(matches!(
        melee_odds(&c, &m),
        Err(OddsError::TooManySupporters { .. })
    ));
}

#[test]
fn melee_odds_match_simulation() {
    let c = cat();
    let m: MeleeRequest = serde_json::from_str(
        r#"{"attacker": {"type": "infantry", "size": "medium", "in_spi": true, "inspired": true,
                         "supporters": [{"type": "infantry", "size": "small"}]},
            "defender": {"type": "cavalry", "size": "medium", "formation": "open_order", "discipline_level": "shaken"}}"#,
    )
    .unwrap();
    let o = melee_odds(&c, &m).unwrap();
    let total: f64 = o.margin_distribution.iter().map(|x| x.p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Rebuild the sides as the simulator would and roll.
    let mut a = MeleeSide::plain(ElementType::Infantry, 4, Formation::BattleLine);
    a.initiated = true;
    a.in_spi = true;
    a.reroll_misses = true;
    a.supporters = vec![Supporter {
        action: 2,
        extra_dice: 0,
        disorder_markers: 0,
        close: false,
        level: DisciplineLevel::Fit,
        formation: Formation::BattleLine,
    }];
    let mut d = MeleeSide::plain(ElementType::Cavalry, 4, Formation::OpenOrder);
    d.level = DisciplineLevel::Shaken;
    let mut dice = Dice::from_seed(17);
    let n = 50_000;
    let (mut w, mut t) = (0u32, 0u32);
    for _ in 0..n {
        match resolve_melee(&c, &a, &d, &mut dice).outcome {
            MeleeOutcome::AttackerWins => w += 1,
            MeleeOutcome::Tie => t += 1,
            MeleeOutcome::DefenderWins => {}
        }
    }
    for (obs, p) in [(w, o.attacker_win), (t, o.tie)] {
        let f = f64::from(obs) / f64::from(n);
        let se = (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!((f - p).abs() <= 4.5 * se, "{f} vs {p}");
    }
}

/// The same volley rolled for real.
fn spec_of(
    c: &crate::rules::systems::lotf::Catalogue,
    r: &ShootingRequest,
    o: &ShootingOdds,
) -> ShotSpec {
    let marksmen = r
        .shooter
        .upgrades
        .iter()
        .any(|u| matches!(u, Upgrade::Riflemen | Upgrade::MilitiaRiflemen));
    let german = r.shooter.upgrades.contains(&Upgrade::Hessians);
    let _ = c;
    ShotSpec {
        dice: o.dice,
        to_hit: o.to_hit,
        kind: o.kind,
        raking: r.flank && o.kind == ShotKind::SolidShot,
        reroll_misses: r.concentrated_volley || german,
        ignore_ragged: r.concentrated_volley || german,
        marksmen,
    }
}

fn situations() -> Vec<String> {
    let mut v = Vec::new();
    let shooters = [
        r#"{"type": "infantry", "size": "tiny"}"#,
        r#"{"type": "infantry", "size": "small"}"#,
        r#"{"type": "infantry", "size": "medium"}"#,
        r#"{"type": "infantry", "size": "large"}"#,
        r#"{"type": "infantry", "size": "large", "upgrades": ["additional_ranks"]}"#,
        r#"{"type": "infantry", "size": "medium", "upgrades": ["riflemen"]}"#,
        r#"{"type": "infantry", "size": "medium", "upgrades": ["hessians"]}"#,
        r#"{"type": "infantry", "size": "medium", "disorder_markers": 2}"#,
        r#"{"type": "infantry", "size": "small", "disorder_markers": 5}"#,
        r#"{"type": "infantry", "size": "medium", "discipline_level": "exhausted"}"#,
        r#"{"type": "cavalry", "size": "medium"}"#,
        r#"{"type": "infantry", "size": "medium", "weapon": "rifled"}"#,
    ];
    let targets = [
        r#"{"type": "infantry", "size": "medium"}"#,
        r#"{"type": "infantry", "size": "small", "formation": "open_order"}"#,
        r#"{"type": "infantry", "size": "large", "in_cover": true, "hits": 2}"#,
        r#"{"type": "cavalry", "size": "medium", "formation": "march_column"}"#,
    ];
    let ranges = [3u32, 6, 10];
    for (i, s) in shooters.iter().enumerate() {
        let t = targets[i % targets.len()];
        let r = if s.contains("cavalry") {
            5
        } else {
            ranges[i % ranges.len()]
        };
        let flank = i % 3 == 0;
        let cv = i % 4 == 1;
        v.push(format!(
            r#"{{"shooter": {s}, "target": {t}, "range_inches": {r}, "flank": {flank}, "concentrated_volley": {cv}}}"#
        ));
        let t2 = targets[(i + 1) % targets.len()];
        v.push(format!(
            r#"{{"shooter": {s}, "target": {t2}, "range_inches": 2}}"#
        ));
    }
    v.push(r#"{"shooter": {"type": "infantry", "size": "medium", "weapon": "rifled"}, "target": {"type": "infantry", "size": "medium"}, "range_inches": 16}"#.into());
    // Artillery: solid shot (with raking), grapeshot, mortar, rockets.
    for (size, r, flank, ammo) in [
        ("small", 20, false, "solid_shot"),
        ("medium", 24, false, "solid_shot"),
        ("large", 30, true, "solid_shot"),
        ("medium", 8, true, "solid_shot"),
        ("large", 2, false, "solid_shot"),
        ("small", 10, false, "grapeshot"),
        ("medium", 3, true, "grapeshot"),
        ("large", 12, false, "grapeshot"),
    ] {
        v.push(format!(
            r#"{{"shooter": {{"type": "artillery", "size": "{size}"}}, "target": {{"type": "infantry", "size": "large"}}, "range_inches": {r}, "flank": {flank}, "ammunition": "{ammo}"}}"#
        ));
    }
    v.push(r#"{"shooter": {"type": "artillery", "size": "large", "weapon": "heavy_gun", "disorder_markers": 3}, "target": {"type": "infantry", "size": "medium"}, "range_inches": 40, "flank": true}"#.into());
    v.push(r#"{"shooter": {"type": "artillery", "size": "medium", "weapon": "siege_mortar"}, "target": {"type": "infantry", "size": "medium", "in_cover": true}, "range_inches": 20}"#.into());
    v.push(r#"{"shooter": {"type": "artillery", "size": "large", "weapon": "rockets"}, "target": {"type": "cavalry", "size": "medium"}, "range_inches": 30}"#.into());
    v.push(r#"{"shooter": {"type": "artillery", "size": "medium"}, "target": {"type": "infantry", "size": "medium"}, "range_inches": 20, "concentrated_volley": true, "flank": true}"#.into());
    v.push(r#"{"shooter": {"type": "artillery", "size": "small", "disorder_markers": 6}, "target": {"type": "infantry", "size": "medium", "formation": "open_order"}, "range_inches": 20, "flank": true}"#.into());
    v.push(r#"{"shooter": {"type": "infantry", "size": "large", "upgrades": ["militia_riflemen"]}, "target": {"type": "infantry", "size": "small", "upgrades": ["elite"], "hits": 1}, "range_inches": 15, "concentrated_volley": true}"#.into());
    v.push(r#"{"shooter": {"type": "infantry", "size": "medium"}, "target": {"type": "artillery", "size": "medium"}, "range_inches": 11, "flank": true}"#.into());
    v.push(r#"{"shooter": {"type": "cavalry", "size": "large", "upgrades": ["additional_ranks"], "disorder_markers": 1}, "target": {"type": "infantry", "size": "tiny", "upgrades": ["indians"], "formation": "open_order"}, "range_inches": 1}"#.into());
    v.push(r#"{"shooter": {"type": "infantry", "size": "tiny", "disorder_markers": 3}, "target": {"type": "infantry", "size": "medium"}, "range_inches": 12}"#.into());
    v
}

#[test]
fn exact_shooting_odds_match_fifty_thousand_rolls_in_over_forty_situations() {
    let c = cat();
    let sits = situations();
    assert!(sits.len() >= 40, "{} situations", sits.len());
    let n: u32 = 50_000;
    let mut dice = Dice::from_seed(2024);
    for json in &sits {
        let r = req(json);
        let o = shooting_odds(&c, &r).unwrap_or_else(|e| panic!("{json}: {e}"));
        let total: f64 = o.hits_distribution.iter().sum::<f64>() + o.omitted_probability;
        assert!((total - 1.0).abs() < 1e-9, "{json}: sums to {total}");
        assert!(o.omitted_probability < 1e-12, "{json}");
        let spec = spec_of(&c, &r, &o);
        let mut counts = vec![0u32; o.hits_distribution.len() + 64];
        let mut dm_counts = vec![0u32; o.disorder_distribution.len() + 64];
        let mut punishing = 0u32;
        for _ in 0..n {
            let v = roll_volley(&c, &spec, &mut dice);
            let h = (v.effect.hits as usize).min(counts.len() - 1);
            counts[h] += 1;
            let d = (v.effect.disorder_markers as usize).min(dm_counts.len() - 1);
            dm_counts[d] += 1;
            punishing += u32::from(v.effect.punishing);
        }
        let check = |what: &str, k: usize, obs: u32, p: f64| {
            let f = f64::from(obs) / f64::from(n);
            // Standard error with a floor of one roll in n, so that outcomes
            // of vanishing probability are judged sensibly.
            let pf = p.max(1.0 / f64::from(n));
            let se = (pf * (1.0 - pf) / f64::from(n)).sqrt();
            assert!(
                (f - p).abs() <= 4.5 * se,
                "{json}: {what} {k}: observed {f}, exact {p}, se {se}"
            );
        };
        for (k, obs) in counts.iter().enumerate() {
            check(
                "hits",
                k,
                *obs,
                o.hits_distribution.get(k).copied().unwrap_or(0.0),
            );
        }
        for (k, obs) in dm_counts.iter().enumerate() {
            check(
                "markers",
                k,
                *obs,
                o.disorder_distribution.get(k).copied().unwrap_or(0.0),
            );
        }
        check("punishing", 0, punishing, o.p_punishing_volley);
    }
}

/// The melee calculator warns when the charge or counter-charge it is asked about could not
/// happen under R-28 as amended (a small element may not charge a tiny one), and works the odds
/// out anyway.
#[test]
fn melee_odds_warn_when_a_small_element_charges_or_counter_charges_a_tiny_one_r28() {
    let c = cat();
    let warnings = |json: &str| {
        let m: MeleeRequest = serde_json::from_str(json).expect("request parses");
        let o = melee_odds(&c, &m).expect("worked out anyway");
        assert!((o.attacker_win + o.tie + o.defender_win - 1.0).abs() < 1e-12);
        let v = serde_json::to_value(&o).expect("serialises");
        v["warnings"]
            .as_array()
            .unwrap_or_else(|| panic!("no warnings list: {v}"))
            .iter()
            .map(|w| w.as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let w = warnings(
        r#"{"attacker": {"type": "cavalry", "size": "small"}, "defender": {"type": "infantry", "size": "tiny"}}"#,
    );
    assert!(
        w.iter().any(|w| w.contains("R-28") && w.contains("tiny")),
        "{w:?}"
    );
    let w = warnings(
        r#"{"attacker": {"type": "infantry", "size": "tiny"},
            "defender": {"type": "infantry", "size": "small", "counter_charged": true}}"#,
    );
    assert!(
        w.iter()
            .any(|w| w.contains("R-28") && w.contains("counter-charge")),
        "{w:?}"
    );
    assert!(warnings(
        r#"{"attacker": {"type": "infantry", "size": "small"}, "defender": {"type": "infantry", "size": "medium"}}"#
    )
    .is_empty());
}

fn morale_req(json: &str) -> MoraleRequest {
    serde_json::from_str(json).expect("request parses")
}

/// R-33: an attached commander's Morale replaces the element's, even when worse, and the +1 for
/// the attached commander (R-20) still applies. The calculator asks for his rating and takes the
/// Morale from the catalogue's rating table (R-11).
#[test]
fn morale_odds_use_the_attached_commanders_morale_r33() {
    let c = cat();
    // Medium infantry has Morale 7. An Incompetent commander has 8: 2d6 + 1 ≥ 8 is 7+, 21/36.
    let o = morale_odds(
        &c,
        &morale_req(
            r#"{"element": {"type": "infantry", "size": "medium"}, "kind": "discipline",
                "situation": {"commander_attached": true}, "commander_rating": "incompetent"}"#,
        ),
    )
    .expect("worked out");
    assert_eq!((o.target, o.modifier, o.need_on_2d6), (8, 1, 7));
    assert!((o.p_pass - 21.0 / 36.0).abs() < 1e-12, "{}", o.p_pass);
    assert!(o.rulings.contains(&"R-33".to_string()), "{:?}", o.rulings);
    // A Morale value that disagrees with the commander's is refused rather than silently dropped.
    let o = morale_odds(
        &c,
        &morale_req(
            r#"{"morale": 7, "kind": "morale", "situation": {"commander_attached": true},
                "commander_rating": "highly_skilled"}"#,
        ),
    );
    let e = o.expect_err("7 is not a Highly Skilled commander's Morale");
    assert!(
        e.to_string().contains("morale") && e.to_string().contains("R-33"),
        "{e}"
    );
    let o = morale_odds(
        &c,
        &morale_req(
            r#"{"kind": "morale", "situation": {"commander_attached": true},
                "commander_rating": "highly_skilled"}"#,
        ),
    )
    .expect("the rating alone is enough");
    // A Highly Skilled commander has 6: 2d6 + 1 ≥ 6 is 5+, 30/36.
    assert_eq!((o.target, o.need_on_2d6), (6, 5));
    assert!((o.p_pass - 30.0 / 36.0).abs() < 1e-12);
    // A rating without attachment: a special order that does not attach him (a Forced Order) uses
    // his Morale with no +1 (R-20).
    let o = morale_odds(
        &c,
        &morale_req(r#"{"kind": "disorder", "commander_rating": "incompetent"}"#),
    )
    .expect("worked out");
    assert_eq!((o.target, o.modifier), (8, 0));
}

/// R-33: "commander attached" without his rating cannot be worked out; the calculator says which
/// field is missing instead of guessing a Morale.
#[test]
fn an_attached_commander_without_a_rating_is_refused_r33() {
    let c = cat();
    let e = morale_odds(
        &c,
        &morale_req(r#"{"morale": 7, "situation": {"commander_attached": true}}"#),
    )
    .expect_err("which commander?");
    let v = serde_json::to_value(&e).expect("serialises");
    assert!(v.to_string().contains("\"commander_rating\""), "{v}");
    assert!(e.to_string().contains("R-33"), "{e}");
    let e = morale_odds(
        &c,
        &morale_req(
            r#"{"morale": 7, "situation": {"commander_attached": true}, "commander_rating": "brilliant"}"#,
        ),
    )
    .expect_err("no such rating");
    assert!(
        e.to_string().contains("brilliant") && e.to_string().contains("highly_skilled"),
        "{e}"
    );
    let e = shooting_odds(
        &c,
        &req(r#"{"shooter": {"type": "infantry", "size": "large"},
                 "target": {"type": "infantry", "size": "medium", "commander_attached": true},
                 "range_inches": 6}"#),
    )
    .expect_err("which commander?");
    assert!(
        serde_json::to_value(&e)
            .expect("serialises")
            .to_string()
            .contains("target.commander_rating"),
        "{e}"
    );
}

/// R-33 in the shooting odds: the target's Discipline Test after the volley uses the attached
/// commander's Morale (+1 for him), so a worse commander makes failing it likelier.
#[test]
fn the_targets_discipline_test_uses_the_attached_commanders_morale_r33() {
    let c = cat();
    let fail = |rating: &str| {
        let o = shooting_odds(
            &c,
            &req(&format!(
                r#"{{"shooter": {{"type": "infantry", "size": "large"}},
                     "target": {{"type": "infantry", "size": "medium", "hits": 2,
                                 "commander_attached": true, "commander_rating": "{rating}"}},
                     "range_inches": 6}}"#
            )),
        )
        .unwrap_or_else(|e| panic!("{rating}: {e}"));
        assert!(o.rulings.contains(&"R-33".to_string()), "{:?}", o.rulings);
        assert!(o.notes.iter().any(|n| n.contains("R-33")), "{:?}", o.notes);
        (o.p_discipline_test, o.p_discipline_test_failed)
    };
    let (due, incompetent) = fail("incompetent");
    let (due2, competent) = fail("competent");
    let (_, highly) = fail("highly_skilled");
    assert!(
        due > 0.0 && (due - due2).abs() < 1e-15,
        "the rating does not change the hits"
    );
    assert!(
        incompetent > competent && competent > highly,
        "{incompetent} > {competent} > {highly}"
    );
}

/// The simulator's policy remembers melee odds by their `MeleeNumbers` alone (issue 17): that is
/// sound only if two melees with the same numbers have the same odds to the bit, however they
/// came to them (supporters, flags, levels, formations). A thousand different pairs of sides
/// fall into far fewer sets of numbers, and within each set the full calculation agrees.
#[test]
fn melee_odds_depend_only_on_their_numbers() {
    use std::collections::HashMap;
    let c = cat();
    let base = MeleeSide::plain(ElementType::Infantry, 4, Formation::BattleLine);
    let helper = |action: u8, close: bool, dm: u32| Supporter {
        action,
        extra_dice: 0,
        disorder_markers: dm,
        close,
        level: DisciplineLevel::Fit,
        formation: Formation::BattleLine,
    };
    let mut sides = Vec::new();
    for et in [ElementType::Infantry, ElementType::Cavalry] {
        for formation in [Formation::BattleLine, Formation::OpenOrder] {
            for level in [DisciplineLevel::Fit, DisciplineLevel::Shaken] {
                for dm in 0..2 {
                    for supporters in [
                        vec![],
                        vec![helper(2, false, 0)],
                        vec![helper(1, true, 0)],
                        vec![helper(4, false, 1), helper(2, true, 0)],
                    ] {
                        for in_spi in [false, true] {
                            sides.push(MeleeSide {
                                element_type: et,
                                formation,
                                level,
                                disorder_markers: dm,
                                supporters: supporters.clone(),
                                in_spi,
                                ..base.clone()
                            });
                        }
                    }
                }
            }
        }
    }
    let mut by_numbers: HashMap<MeleeNumbers, (u64, u64, usize)> = HashMap::new();
    let mut pairs = 0;
    for a in sides.iter().step_by(3) {
        for d in sides.iter().step_by(5) {
            let mut a = a.clone();
            a.initiated = true;
            a.flank = pairs % 7 == 0;
            a.reroll_misses = pairs % 4 == 0;
            let odds = melee_odds_for_sides(&c, &a, d);
            let seen = (odds.attacker_win.to_bits(), odds.defender_win.to_bits(), 1);
            let numbers = melee_numbers(&c, &a, d);
            // Re-rolling misses changes nothing but the re-roll (the policy
            // judges an Inspirational Charge by flipping it).
            let mut flipped = a.clone();
            flipped.reroll_misses = !a.reroll_misses;
            assert_eq!(
                melee_numbers(&c, &flipped, d),
                MeleeNumbers {
                    reroll: [!a.reroll_misses, numbers.reroll[1]],
                    ..numbers
                }
            );
            let entry = by_numbers.entry(numbers).or_insert((seen.0, seen.1, 0));
            assert_eq!(
                (entry.0, entry.1),
                (seen.0, seen.1),
                "same numbers {numbers:?}, different odds"
            );
            entry.2 += 1;
            assert_eq!(
                win_lose_of(&c, &numbers),
                (odds.attacker_win, odds.defender_win)
            );
            pairs += 1;
        }
    }
    let shared = by_numbers.values().filter(|e| e.2 > 1).count();
    assert!(pairs > 1_000, "{pairs} pairs");
    assert!(
        by_numbers.len() * 3 < pairs * 2 && shared > 100,
        "{pairs} pairs, {} sets of numbers, {shared} shared",
        by_numbers.len()
    );
}
