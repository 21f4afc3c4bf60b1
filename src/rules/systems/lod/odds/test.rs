//! ORDER and MORALE tests (4.2): successes, the chance to pass or the CHARGE grades, and what
//! each result does to the unit in its state.

use serde::{Deserialize, Serialize};

use super::super::catalogue::{Catalogue, Profile};
use super::super::mechanics::{success_faces, test_dice, test_rerolls, RerollSources, TestKind};
use super::super::types::{ChargeGrade, HitState, MoraleResult, MoraleTrigger, Order, SpecialRule};
use super::dist::{at_least, test_successes, with_retakes};
use super::{cite, unit, OddsError, StateChances};

/// `POST /api/v1/lod/odds/test`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRequest {
    pub kind: TestKind,
    #[serde(default)]
    pub order: Option<Order>,
    #[serde(default)]
    pub trigger: Option<MoraleTrigger>,
    pub list: String,
    pub entry: String,
    pub bases: u32,
    #[serde(default)]
    pub grenadiers_detached: bool,
    #[serde(default)]
    pub hits: u32,
    #[serde(default)]
    pub routing: bool,
    #[serde(default)]
    pub in_command: bool,
    #[serde(default)]
    pub supported: bool,
    #[serde(default)]
    pub fortified: bool,
    #[serde(default)]
    pub press_the_charge: bool,
    #[serde(default)]
    pub direct_order: bool,
    #[serde(default)]
    pub hold_the_line: bool,
    #[serde(default)]
    pub reinforce: bool,
}

/// One test roll as the calculator worked it out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestRoll {
    pub dice: u32,
    /// How the dice were counted ("4 dice for a STEADY unit", "+1 die DRILLED").
    pub dice_how: Vec<String>,
    /// Faces out of 6 scoring 0, 1 and 2 successes.
    pub success_faces: [u32; 3],
    pub rerolls: u32,
    pub rerolls_how: Vec<String>,
    /// The total the re-rolls try to reach (policy L-8).
    pub reroll_aim: u32,
    /// Which dice are re-rolled: `zero_then_one` (pass/fail) or `zero_only` (CHARGE).
    pub reroll_policy: &'static str,
    /// Successes needed to pass (for CHARGE: 1, anything but a failure).
    pub need: u32,
    /// Whole-test re-takes of a failed test (L-9).
    pub retakes: u32,
    pub retakes_how: Vec<String>,
    /// Successes of one take, index = successes.
    pub successes_one_take: Vec<f64>,
    /// Successes of the take that counts, after any re-takes.
    pub successes: Vec<f64>,
    /// `successes_at_least[k]` = chance of k or more successes.
    pub successes_at_least: Vec<f64>,
    pub p_pass_one_take: f64,
    pub p_pass: f64,
}

/// What the re-rolls of a test aim at and which dice they may touch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Aim {
    pub need: u32,
    pub reroll_aim: u32,
    pub zeros_only: bool,
}

/// Rolls a test of `unit` in `state` exactly, with its die re-rolls (L-8) and `retakes`.
pub(crate) fn roll_test(
    cat: &Catalogue,
    unit: &Profile,
    state: HitState,
    kind: TestKind,
    sources: RerollSources,
    aim: Aim,
    retakes: Vec<String>,
) -> TestRoll {
    let (dice, dice_how) = test_dice(cat, unit, state, kind);
    let faces = success_faces(cat, unit);
    let (rerolls, rerolls_how) = test_rerolls(unit, kind, sources);
    let one = test_successes(dice, faces, rerolls, aim.reroll_aim, aim.zeros_only);
    let need = aim.need as usize;
    let k = retakes.len() as u32;
    let successes = with_retakes(&one, |s| s < need, k);
    let pass = |d: &[f64]| d.iter().skip(need).sum::<f64>();
    TestRoll {
        dice,
        dice_how,
        success_faces: faces,
        rerolls,
        rerolls_how,
        reroll_aim: aim.reroll_aim,
        reroll_policy: if aim.zeros_only {
            "zero_only"
        } else {
            "zero_then_one"
        },
        need: aim.need,
        retakes: k,
        retakes_how: retakes,
        p_pass_one_take: pass(&one),
        p_pass: pass(&successes),
        successes_at_least: at_least(&successes),
        successes_one_take: one,
        successes,
    }
}

/// A MORALE test of `need` successes with the unit's re-rolls and re-takes (STUBBORN and Hold
/// The Line!, L-9); used by shooting and melee.
pub(crate) fn morale_test(
    cat: &Catalogue,
    unit: &Profile,
    state: HitState,
    need: u32,
    in_command: bool,
    supported: bool,
    hold_the_line: bool,
) -> TestRoll {
    let mut retakes = Vec::new();
    if unit.has(SpecialRule::Stubborn) {
        retakes.push("STUBBORN".to_string());
    }
    if hold_the_line {
        retakes.push("Hold The Line!".to_string());
    }
    roll_test(
        cat,
        unit,
        state,
        TestKind::Morale,
        RerollSources {
            in_command,
            supported,
            fortified: false,
        },
        Aim {
            need,
            reroll_aim: need,
            zeros_only: false,
        },
        retakes,
    )
}

/// One possible result and its chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultChance {
    pub result: String,
    pub label: String,
    pub probability: f64,
}

/// The answer to a test request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestOdds {
    pub unit: String,
    pub state: HitState,
    pub routing: bool,
    pub kind: TestKind,
    pub order: Option<Order>,
    pub trigger: Option<MoraleTrigger>,
    /// No dice are rolled: the order is carried out in this state.
    pub automatic: bool,
    pub roll: Option<TestRoll>,
    pub p_pass: f64,
    /// CHARGE only: the chance of each grade.
    pub grades: Option<Vec<ResultChance>>,
    /// What happens to the unit, by chance.
    pub results: Vec<ResultChance>,
    /// RALLY only: the unit's hits afterwards (index = hits) and its hit-state.
    pub hits_after: Option<Vec<f64>>,
    pub state_after: Option<StateChances>,
    /// The die re-roll policy used (L-8), in words.
    pub policy: String,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

fn chance(result: &str, label: &str, probability: f64) -> ResultChance {
    ResultChance {
        result: result.to_string(),
        label: label.to_string(),
        probability,
    }
}

pub(crate) const POLICY_PASS: &str = "L-8: while short of the need, re-roll a die that scored nothing (never one re-rolled already), else a die that scored 1; never a die that scored 2";
const POLICY_CHARGE: &str =
    "L-8 for CHARGE: re-roll only dice that scored nothing, while below the best grade";

/// Exact odds of an ORDER or MORALE test (4.2).
pub fn test_odds(cat: &Catalogue, req: &TestRequest) -> Result<TestOdds, OddsError> {
    let u = unit(
        cat,
        "",
        &req.list,
        &req.entry,
        req.bases,
        req.grenadiers_detached,
        req.hits,
    )?;
    let mut rulings = vec!["L-6", "L-8"];
    if req.routing {
        cite(&mut rulings, &["L-5", "L-37"]);
    }
    match req.kind {
        TestKind::Order => {
            for (on, field, what) in [
                (
                    req.hold_the_line,
                    "hold_the_line",
                    "Hold The Line! re-takes MORALE tests only",
                ),
                (
                    req.trigger.is_some(),
                    "trigger",
                    "an ORDER test has no trigger; give `order`",
                ),
            ] {
                if on {
                    return Err(OddsError::new(field, "not_allowed", what));
                }
            }
            order_odds(cat, req, u, rulings)
        }
        TestKind::Morale => {
            for (on, field, what) in [
                (
                    req.press_the_charge,
                    "press_the_charge",
                    "Press the Charge! is for CHARGE orders",
                ),
                (
                    req.direct_order,
                    "direct_order",
                    "A Direct Order! re-takes ORDER tests only",
                ),
                (req.reinforce, "reinforce", "Reinforce! is for RALLY orders"),
                (
                    req.order.is_some(),
                    "order",
                    "a MORALE test has no order; give `trigger`",
                ),
            ] {
                if on {
                    return Err(OddsError::new(field, "not_allowed", what));
                }
            }
            morale_odds(cat, req, u, rulings)
        }
    }
}

fn order_odds(
    cat: &Catalogue,
    req: &TestRequest,
    u: super::UnitAt,
    mut rulings: Vec<&'static str>,
) -> Result<TestOdds, OddsError> {
    let order = req.order.ok_or_else(|| {
        OddsError::new(
            "order",
            "missing",
            "an ORDER test needs the order: hold, reform, advance, run, charge or rally",
        )
    })?;
    let data = cat.tables.order(order);
    let mut notes = Vec::new();
    if req.routing && order != Order::Rally {
        return Err(OddsError::new(
            "order",
            "not_allowed",
            "a ROUTING unit can only be given RALLY",
        ));
    }
    if !data.allowed(u.state) {
        return Err(OddsError::new(
            "order",
            "not_allowed",
            format!("a {} unit cannot be given {}", u.state.label(), data.name),
        ));
    }
    if req.press_the_charge && order != Order::Charge {
        return Err(OddsError::new(
            "press_the_charge",
            "not_allowed",
            "Press the Charge! is for CHARGE orders",
        ));
    }
    if req.reinforce && order != Order::Rally {
        return Err(OddsError::new(
            "reinforce",
            "not_allowed",
            "Reinforce! is for RALLY orders",
        ));
    }
    if req.fortified || u.profile.has(SpecialRule::Reliable) {
        cite(&mut rulings, &["L-7"]);
    }
    if req.fortified {
        cite(&mut rulings, &["L-23"]);
    }
    if req.supported || req.in_command {
        cite(&mut rulings, &["L-10"]);
    }
    let base = TestOdds {
        unit: u.profile.describe(),
        state: u.state,
        routing: req.routing,
        kind: TestKind::Order,
        order: Some(order),
        trigger: None,
        automatic: false,
        roll: None,
        p_pass: 1.0,
        grades: None,
        results: Vec::new(),
        hits_after: None,
        state_after: None,
        policy: POLICY_PASS.to_string(),
        rulings: Vec::new(),
        notes: Vec::new(),
    };
    let Some(need) = data.need(u.state) else {
        notes.push(format!(
            "A {} unit carries out {} without a test.",
            u.state.label(),
            data.name
        ));
        return Ok(TestOdds {
            automatic: true,
            results: vec![chance("carried_out", "carried out", 1.0)],
            rulings,
            notes,
            ..base
        });
    };
    let sources = RerollSources {
        in_command: req.in_command,
        supported: req.supported,
        fortified: req.fortified,
    };
    // A Direct Order! re-takes a failed test; on a CHARGE only one with no success (L-56).
    let retakes = if req.direct_order {
        cite(&mut rulings, &["L-9"]);
        vec!["A Direct Order!".to_string()]
    } else {
        Vec::new()
    };
    if order == Order::Charge {
        let best = if req.press_the_charge { 1 } else { 3 };
        let roll = roll_test(
            cat,
            &u.profile,
            u.state,
            TestKind::Order,
            sources,
            Aim {
                need: 1,
                reroll_aim: best,
                zeros_only: true,
            },
            retakes,
        );
        let mut by_grade = [0.0; 4];
        for (s, p) in roll.successes.iter().enumerate() {
            let grade = if req.press_the_charge && s >= 1 {
                ChargeGrade::DeterminedCharge
            } else {
                cat.tables.charge_grade(s as u32)
            };
            by_grade[grade_index(grade)] += p;
        }
        if req.press_the_charge {
            cite(&mut rulings, &["L-42"]);
            notes.push(
                "Press the Charge!: any success makes a Determined Charge!; none still fails."
                    .into(),
            );
        }
        if req.direct_order {
            notes.push(
                "A Direct Order! re-takes a CHARGE test only when it failed (no success).".into(),
            );
        }
        let grades: Vec<ResultChance> = [
            ChargeGrade::Failed,
            ChargeGrade::Falters,
            ChargeGrade::Charge,
            ChargeGrade::DeterminedCharge,
        ]
        .iter()
        .map(|g| chance(g.id(), g.label(), by_grade[grade_index(*g)]))
        .collect();
        cite(&mut rulings, &["L-11"]);
        return Ok(TestOdds {
            p_pass: roll.p_pass,
            roll: Some(roll),
            results: grades.clone(),
            grades: Some(grades),
            policy: POLICY_CHARGE.to_string(),
            rulings,
            notes,
            ..base
        });
    }
    let rally = order == Order::Rally;
    let pass_need = if rally && req.reinforce {
        cite(&mut rulings, &["L-40"]);
        notes.push("Reinforce!: one success is enough, and the re-rolls aim at one (L-40).".into());
        1
    } else {
        need
    };
    let roll = roll_test(
        cat,
        &u.profile,
        u.state,
        TestKind::Order,
        sources,
        Aim {
            need: pass_need,
            reroll_aim: pass_need,
            zeros_only: false,
        },
        retakes,
    );
    let p = roll.p_pass;
    let mut odds = TestOdds {
        p_pass: p,
        roll: Some(roll),
        rulings,
        notes,
        ..base
    };
    if rally {
        rally_results(cat, req, &u, p, &mut odds);
    } else {
        odds.results = vec![
            chance("carried_out", "carried out", p),
            chance("disordered", "DISORDERED (1 marker, own turn)", 1.0 - p),
        ];
        cite(&mut odds.rulings, &["L-3", "L-4"]);
    }
    Ok(odds)
}

fn grade_index(g: ChargeGrade) -> usize {
    match g {
        ChargeGrade::Failed => 0,
        ChargeGrade::Falters => 1,
        ChargeGrade::Charge => 2,
        ChargeGrade::DeterminedCharge => 3,
    }
}

/// RALLY: what a pass or a failure does, and the hits afterwards (L-39, L-40).
fn rally_results(
    cat: &Catalogue,
    req: &TestRequest,
    u: &super::UnitAt,
    p: f64,
    odds: &mut TestOdds,
) {
    cite(&mut odds.rulings, &["L-39"]);
    let recover: Vec<(u32, f64)> = if req.reinforce {
        // D3+2
        vec![(3, 1.0 / 3.0), (4, 1.0 / 3.0), (5, 1.0 / 3.0)]
    } else if req.routing {
        vec![(0, 1.0)]
    } else {
        recovery(cat.tables.rally_recovers)
    };
    let failed_hits: Vec<(u32, f64)> = if req.routing {
        recovery(cat.tables.failed_rally_hits)
    } else {
        vec![(0, 1.0)]
    };
    let ab = u.profile.size.auto_broken;
    let mut hits = vec![0.0; (u.hits + 8).max(ab) as usize + 1];
    for (r, q) in &recover {
        hits[u.hits.saturating_sub(*r) as usize] += p * q;
    }
    for (h, q) in &failed_hits {
        hits[(u.hits + h).min(ab) as usize] += (1.0 - p) * q;
    }
    let hits = super::dist::trim(hits);
    let mut state = StateChances::default();
    for (h, q) in hits.iter().enumerate() {
        state.add(u.profile.state(h as u32), *q);
    }
    odds.results = if req.routing {
        cite(&mut odds.rulings, &["L-24", "L-38"]);
        vec![
            chance("stops_routing", "stops routing and may reform", p),
            chance(
                "keeps_routing",
                "keeps routing: route move and D3 more hits",
                1.0 - p,
            ),
        ]
    } else {
        cite(&mut odds.rulings, &["L-3"]);
        vec![
            chance("rallied", "rallies: takes back hits, no move", p),
            chance("disordered", "DISORDERED (1 marker, own turn)", 1.0 - p),
        ]
    };
    odds.hits_after = Some(hits);
    odds.state_after = Some(state);
}

fn recovery(roll: super::super::catalogue::DiceRoll) -> Vec<(u32, f64)> {
    let total: u32 = roll.outcomes().iter().map(|(_, w)| w).sum();
    roll.outcomes()
        .iter()
        .map(|(v, w)| (v.unsigned_abs(), f64::from(*w) / f64::from(total)))
        .collect()
}

fn morale_odds(
    cat: &Catalogue,
    req: &TestRequest,
    u: super::UnitAt,
    mut rulings: Vec<&'static str>,
) -> Result<TestOdds, OddsError> {
    let trigger = req.trigger.ok_or_else(|| {
        OddsError::new(
            "trigger",
            "missing",
            "a MORALE test needs its trigger: shooting, lost_melee, broken_friend or interpenetration",
        )
    })?;
    let t = cat.tables.trigger(trigger);
    let mut notes = Vec::new();
    if req.fortified {
        notes.push(
            "A fortified position's RELIABLE re-roll counts in ORDER tests only (L-7, L-23)."
                .into(),
        );
        cite(&mut rulings, &["L-7", "L-23"]);
    }
    if u.profile.has(SpecialRule::Reliable) {
        cite(&mut rulings, &["L-7"]);
    }
    if u.profile.has(SpecialRule::Stubborn) || req.hold_the_line {
        cite(&mut rulings, &["L-9"]);
    }
    if req.supported || req.in_command {
        cite(&mut rulings, &["L-10"]);
    }
    match trigger {
        MoraleTrigger::Shooting => cite(&mut rulings, &["L-21"]),
        MoraleTrigger::DefensiveFire => cite(&mut rulings, &["L-14"]),
        MoraleTrigger::BrokenFriend | MoraleTrigger::Interpenetration => {
            cite(&mut rulings, &["L-36"])
        }
        MoraleTrigger::LostMelee => cite(&mut rulings, &["L-30"]),
        MoraleTrigger::ReformTheRanks => {}
    }
    let roll = morale_test(
        cat,
        &u.profile,
        u.state,
        t.need,
        req.in_command,
        req.supported,
        req.hold_the_line,
    );
    let p = roll.p_pass;
    let results = if trigger == MoraleTrigger::ReformTheRanks {
        vec![
            chance(
                "disorder_removed",
                "all disorder removed; takes an order as usual",
                p,
            ),
            chance("no_effect", "no change", 1.0 - p),
        ]
    } else {
        [true, false]
            .iter()
            .map(|&passed| {
                let r = cat.tables.morale_results.result(u.state, t.melee, passed);
                let q = if passed { p } else { 1.0 - p };
                morale_chance(r, q, req.routing, trigger, &mut notes)
            })
            .collect()
    };
    Ok(TestOdds {
        unit: u.profile.describe(),
        state: u.state,
        routing: req.routing,
        kind: TestKind::Morale,
        order: None,
        trigger: Some(trigger),
        automatic: false,
        p_pass: p,
        roll: Some(roll),
        grades: None,
        results,
        hits_after: None,
        state_after: None,
        policy: POLICY_PASS.to_string(),
        rulings,
        notes,
    })
}

fn morale_chance(
    r: MoraleResult,
    q: f64,
    routing: bool,
    trigger: MoraleTrigger,
    notes: &mut Vec<String>,
) -> ResultChance {
    match r {
        MoraleResult::Disordered if routing => {
            notes.push("A ROUTING unit ignores a DISORDERED result.".into());
            chance("no_effect", "no effect (ROUTING units ignore disorder)", q)
        }
        MoraleResult::Disordered => chance(
            r.id(),
            if trigger == MoraleTrigger::DefensiveFire {
                "DISORDERED (1 marker, own turn); the charge stops"
            } else {
                "DISORDERED (2 markers in the enemy's turn, 1 in its own)"
            },
            q,
        ),
        _ => chance(r.id(), r.label(), q),
    }
}
