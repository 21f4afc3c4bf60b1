//! One shooting action (4.3), or defensive fire at a charger (L-14): the dice, the hits before
//! and after saves, the under-fire marker, and what the target's MORALE test does.

use serde::{Deserialize, Serialize};

use super::super::catalogue::Catalogue;
use super::super::mechanics::{
    hard_target, save_faces, shooting_hit_faces, shooting_pool, Pool, Shot,
};
use super::super::types::{HitState, Kind, MoraleResult, MoraleTrigger, RangeBand};
use super::dist::{at_least, binomial, explode, mean, roll, thin};
use super::test::{morale_test, TestRoll};
use super::{cite, unit, OddsError, StateChances};

/// The shooting unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShooterSpec {
    pub list: String,
    pub entry: String,
    pub bases: u32,
    #[serde(default)]
    pub grenadiers_detached: bool,
    #[serde(default)]
    pub hits: u32,
    /// Front-rank bases with line of sight (L-17); all its bases when absent, or as its
    /// `formation` allows.
    #[serde(default)]
    pub firing_bases: Option<u32>,
    /// `line`, `column`, `march_column`, `skirmish`, `unlimbered` (L-17, L-46).
    #[serde(default)]
    pub formation: Option<String>,
}

/// The target unit and its situation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSpec {
    pub list: String,
    pub entry: String,
    pub bases: u32,
    #[serde(default)]
    pub grenadiers_detached: bool,
    #[serde(default)]
    pub hits: u32,
    /// `limbered` guns are not the hard target unlimbered guns are.
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub in_cover: bool,
    #[serde(default)]
    pub obscured: bool,
    #[serde(default)]
    pub enfiladed: bool,
    #[serde(default)]
    pub fortified: bool,
    #[serde(default)]
    pub in_command: bool,
    #[serde(default)]
    pub supported: bool,
    /// Hold The Line! would be used on a failed MORALE test.
    #[serde(default)]
    pub hold_the_line: bool,
    /// Defensive fire only: the charger made a Determined Charge! and ignores the test (L-14).
    #[serde(default)]
    pub determined_charge: bool,
}

/// `POST /api/v1/lod/odds/shooting`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShootingRequest {
    pub shooter: ShooterSpec,
    pub target: TargetSpec,
    /// Measured and rounded down to whole inches (L-18).
    pub range_inches: f64,
    #[serde(default)]
    pub concentrate_fire: bool,
    /// The shot is defensive fire at a charging target (L-14).
    #[serde(default)]
    pub defensive_fire: bool,
}

/// How the target comes out of the shot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TargetOutcome {
    /// No unsaved hit (or a Determined Charge! ignoring the test): no MORALE test.
    pub no_test: f64,
    pub passed: f64,
    pub disordered: f64,
    pub retire: f64,
    pub broken_by_test: f64,
    /// Hits reached AUTO BROKEN (L-24): no test.
    pub broken_by_hits: f64,
}

/// The answer to a shooting request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShootingOdds {
    pub shooter: String,
    pub target: String,
    pub shooter_state: HitState,
    pub target_state: HitState,
    pub range_inches: u32,
    pub band: RangeBand,
    pub pool: Pool,
    pub dice: u32,
    /// Faces of a D6 out of 6 that hit (L-19), and the roll needed.
    pub hit_faces: u32,
    pub to_hit: String,
    /// The chance one die hits, after Concentrate Fire! when used.
    pub p_hit: f64,
    pub concentrate_fire: bool,
    /// Dice that hit, index = hits.
    pub hits_rolled: Vec<f64>,
    /// Artillery: what each hit becomes (L-20), e.g. `D3` or `2D3 (canister)`.
    pub each_hit_becomes: Option<String>,
    /// Hits before saves (after exploding for artillery).
    pub hits_before_saves: Vec<f64>,
    pub hits_before_saves_at_least: Vec<f64>,
    /// The roll that saves a hit (5 = 5+, 4 fortified).
    pub save_on: u8,
    pub p_save: f64,
    pub unsaved_hits: Vec<f64>,
    pub unsaved_hits_at_least: Vec<f64>,
    pub expected_hits_before_saves: f64,
    pub expected_unsaved_hits: f64,
    pub p_under_fire_marker: f64,
    /// The target's hit-state after the hits.
    pub target_state_after: StateChances,
    /// The target's MORALE test (need 2) in each state it can take it in.
    pub morale_tests: Vec<StateTest>,
    pub outcome: TargetOutcome,
    /// Defensive fire: the charge does not go in (BROKEN, or a failed test).
    pub p_charge_stopped: Option<f64>,
    pub rulings: Vec<&'static str>,
    pub notes: Vec<String>,
}

/// A MORALE test in one hit-state and the chance it is taken in that state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateTest {
    pub state: HitState,
    pub p_taken: f64,
    pub failed_result: MoraleResult,
    pub test: TestRoll,
}

fn formation_is(f: &Option<String>, allowed: &[&str], field: &str) -> Result<(), OddsError> {
    match f {
        Some(v) if !allowed.contains(&v.as_str()) => Err(OddsError::new(
            field,
            "invalid",
            format!("unknown formation \"{v}\" (one of {})", allowed.join(", ")),
        )),
        _ => Ok(()),
    }
}

const FORMATIONS: &[&str] = &[
    "line",
    "column",
    "march_column",
    "skirmish",
    "unlimbered",
    "limbered",
    "mounted",
    "dismounted",
];

/// Exact odds of one shooting action (4.3) or of defensive fire (L-14).
pub fn shooting_odds(cat: &Catalogue, req: &ShootingRequest) -> Result<ShootingOdds, OddsError> {
    let s = &req.shooter;
    let t = &req.target;
    let shooter = unit(
        cat,
        "shooter",
        &s.list,
        &s.entry,
        s.bases,
        s.grenadiers_detached,
        s.hits,
    )?;
    let target = unit(
        cat,
        "target",
        &t.list,
        &t.entry,
        t.bases,
        t.grenadiers_detached,
        t.hits,
    )?;
    formation_is(&s.formation, FORMATIONS, "shooter.formation")?;
    formation_is(&t.formation, FORMATIONS, "target.formation")?;
    let mut rulings = vec!["L-17", "L-18", "L-19", "L-24"];
    let mut notes = Vec::new();
    let sk = shooter.profile.kind();
    if s.formation.as_deref() == Some("limbered") {
        return Err(OddsError::new(
            "shooter.formation",
            "not_allowed",
            "limbered guns cannot shoot",
        ));
    }
    let bases = shooter.profile.bases();
    let by_formation = match s.formation.as_deref() {
        Some("column") if !matches!(sk, Kind::Skirmishers | Kind::Artillery) => bases.min(2),
        Some("march_column") if !matches!(sk, Kind::Skirmishers | Kind::Artillery) => 1,
        _ => bases,
    };
    if s.formation.is_some() {
        cite(&mut rulings, &["L-46"]);
    }
    let firing_bases = match s.firing_bases {
        Some(n) if n == 0 || n > by_formation => {
            return Err(OddsError::new(
                "shooter.firing_bases",
                "out_of_range",
                format!("from 1 to {by_formation} front-rank bases can fire (L-17)"),
            ))
        }
        Some(n) => n,
        None => by_formation,
    };
    if !req.range_inches.is_finite() || req.range_inches < 0.0 {
        return Err(OddsError::new(
            "range_inches",
            "invalid",
            "the range is a distance in inches, 0 or more",
        ));
    }
    let range = req.range_inches.floor().min(1000.0) as u32;
    let weapon = cat.weapon(shooter.profile.entry.weapon);
    let band = weapon.band(range).ok_or_else(|| {
        OddsError::new(
            "range_inches",
            "out_of_range",
            format!(
                "{range}\" is beyond the long range of {} ({}\"): there is no shot (L-18)",
                weapon.name,
                weapon.max_range()
            ),
        )
    })?;
    let limbered_target = t.formation.as_deref() == Some("limbered");
    let fortified = t.fortified;
    if fortified {
        cite(&mut rulings, &["L-23"]);
        if !t.in_cover {
            notes.push("A fortified position counts as cover (L-23).".into());
        }
    }
    let shot = Shot {
        firing_bases,
        shooter_state: shooter.state,
        band,
        target_skirmishers_or_guns: hard_target(target.profile.kind(), limbered_target),
        cover: t.in_cover || fortified,
        obscured: t.obscured,
        enfiladed: t.enfiladed,
    };
    let pool = shooting_pool(cat, &shooter.profile, &shot);
    cite(&mut rulings, &pool.rulings);
    let dice = pool.dice;
    let hit_faces = shooting_hit_faces(cat, &shooter.profile);
    let mut p_hit = f64::from(hit_faces) / 6.0;
    if req.concentrate_fire {
        p_hit += (1.0 - p_hit) * p_hit;
        cite(&mut rulings, &["L-42"]);
        notes.push("Concentrate Fire!: every miss is rolled once more.".into());
    }
    let hits_rolled = binomial(dice, p_hit);
    let explodes = if weapon.artillery {
        cite(&mut rulings, &["L-20"]);
        let canister = range >= cat.canister.range[0] && range <= cat.canister.range[1];
        if canister {
            Some((cat.canister.explodes, true))
        } else {
            weapon.explodes.map(|e| (e, false))
        }
    } else {
        weapon.explodes.map(|e| (e, false))
    };
    let hits_before_saves = match explodes {
        Some((e, _)) => explode(&hits_rolled, &roll(e)),
        None => hits_rolled.clone(),
    };
    let save_on = if fortified {
        cat.tables.saves.fortified
    } else {
        cat.tables.saves.shooting
    };
    let p_save = f64::from(save_faces(save_on)) / 6.0;
    let unsaved = thin(&hits_before_saves, 1.0 - p_save);
    let p_under_fire = 1.0 - hits_rolled.first().copied().unwrap_or(1.0);

    let (trigger, trigger_ruling) = if req.defensive_fire {
        (MoraleTrigger::DefensiveFire, "L-14")
    } else {
        (MoraleTrigger::Shooting, "L-21")
    };
    cite(&mut rulings, &[trigger_ruling]);
    if t.determined_charge && !req.defensive_fire {
        return Err(OddsError::new(
            "target.determined_charge",
            "not_allowed",
            "only a charger under defensive fire can ignore its test by a Determined Charge! (L-14)",
        ));
    }
    let need = cat.tables.trigger(trigger).need;
    let mut tests: Vec<StateTest> = Vec::new();
    let mut state_after = StateChances::default();
    let mut outcome = TargetOutcome::default();
    for (u, p) in unsaved.iter().enumerate() {
        let state = target.profile.state(target.hits + u as u32);
        state_after.add(state, *p);
        if u == 0 || (req.defensive_fire && t.determined_charge) {
            outcome.no_test += p;
            continue;
        }
        if state == HitState::Broken {
            outcome.broken_by_hits += p;
            continue;
        }
        let i = match tests.iter().position(|x| x.state == state) {
            Some(i) => i,
            None => {
                let test = morale_test(
                    cat,
                    &target.profile,
                    state,
                    need,
                    t.in_command,
                    t.supported,
                    t.hold_the_line,
                );
                let failed_result = cat.tables.morale_results.result(state, false, false);
                tests.push(StateTest {
                    state,
                    p_taken: 0.0,
                    failed_result,
                    test,
                });
                tests.len() - 1
            }
        };
        tests[i].p_taken += p;
        let pass = tests[i].test.p_pass;
        outcome.passed += p * pass;
        let fail = p * (1.0 - pass);
        match tests[i].failed_result {
            MoraleResult::Disordered => outcome.disordered += fail,
            MoraleResult::Retire => outcome.retire += fail,
            _ => outcome.broken_by_test += fail,
        }
    }
    if !tests.is_empty() {
        cite(&mut rulings, &["L-6", "L-8"]);
        if t.in_command || t.supported {
            cite(&mut rulings, &["L-10"]);
        }
        if tests.iter().any(|x| x.test.retakes > 0) {
            cite(&mut rulings, &["L-9"]);
        }
    }
    if req.defensive_fire {
        notes.push(
            "Defensive fire: the charger tests at once; a failure stops the charge and DISORDERED gives 1 marker (its own turn).".into(),
        );
        if t.determined_charge {
            notes.push("A Determined Charge! ignores the test; the hits stand (L-14).".into());
        }
    } else {
        notes.push(
            "The MORALE test is taken once, after all the phase's shooting (L-21); DISORDERED in the enemy's turn gives 2 markers (L-3).".into(),
        );
        cite(&mut rulings, &["L-3"]);
    }
    if let Some((e, canister)) = explodes {
        notes.push(if canister {
            format!(
                "Canister: within {}\" each hit becomes {} before saves (L-20).",
                cat.canister.range[1],
                e.label()
            )
        } else {
            format!("Each hit becomes {} hits before saves (L-20).", e.label())
        });
    }
    let p_charge_stopped = req.defensive_fire.then_some(
        outcome.broken_by_hits + outcome.disordered + outcome.retire + outcome.broken_by_test,
    );
    let each_hit_becomes = explodes.map(|(e, canister)| {
        if canister {
            format!("{} (canister)", e.label())
        } else {
            e.label().to_string()
        }
    });
    Ok(ShootingOdds {
        shooter: shooter.profile.describe(),
        target: target.profile.describe(),
        shooter_state: shooter.state,
        target_state: target.state,
        range_inches: range,
        band,
        dice,
        pool,
        hit_faces,
        to_hit: if hit_faces == 0 {
            "none".to_string()
        } else {
            format!("{}+", 7 - hit_faces)
        },
        p_hit,
        concentrate_fire: req.concentrate_fire,
        hits_rolled,
        each_hit_becomes,
        expected_hits_before_saves: mean(&hits_before_saves),
        hits_before_saves_at_least: at_least(&hits_before_saves),
        hits_before_saves,
        save_on,
        p_save,
        expected_unsaved_hits: mean(&unsaved),
        unsaved_hits_at_least: at_least(&unsaved),
        unsaved_hits: unsaved,
        p_under_fire_marker: p_under_fire,
        target_state_after: state_after,
        morale_tests: tests,
        outcome,
        p_charge_stopped,
        rulings,
        notes,
    })
}
