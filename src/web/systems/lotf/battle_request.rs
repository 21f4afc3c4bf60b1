//! Reading battle requests (a set-up document or the short form) and running simulations for
//! the API and the pages.

use std::sync::atomic::{AtomicBool, AtomicU32};

use serde_json::Value;

use crate::app::odds::Chunked;
use crate::rules::systems::lotf::{
    self, BattleSetup, Catalogue, OddsSummary, ScenarioId, BATTLE_FORMAT,
};
use crate::rules::systems::RangeRunner;
use crate::web::error::ErrorDetail;
use crate::web::AppError;

/// Battles answered directly; larger requests run as a background job.
pub const DIRECT_RUNS_MAX: u32 = 10_000;
pub const RUNS_MAX: u32 = 100_000;
pub const DEFAULT_RUNS: u32 = 1_000;

pub use crate::app::dice::fresh_seed;

fn invalid(field: &str, message: impl Into<String>) -> AppError {
    AppError::Validation {
        message: "The battle request is not valid.".into(),
        details: vec![ErrorDetail {
            field: Some(field.into()),
            message: message.into(),
        }],
    }
}

/// Reads `{"format": "muster.lotf.battle/1", ...}` or the short form
/// `{"attacker": roster, "defender": roster, "scenario"?, "seed"?, "points"?}`.
/// Other top-level fields (`runs`, `narrate`) are left to the caller.
pub fn read_setup(value: &Value) -> Result<BattleSetup, AppError> {
    let object = value
        .as_object()
        .ok_or_else(|| invalid("", "Send a JSON object."))?;
    if object.get("format").and_then(Value::as_str) == Some(BATTLE_FORMAT) {
        let mut doc = value.clone();
        if let Value::Object(map) = &mut doc {
            map.remove("runs");
            map.remove("narrate");
        }
        return lotf::parse_battle(&doc.to_string()).map_err(|e| invalid("", e.to_string()));
    }
    for key in object.keys() {
        if ![
            "attacker", "defender", "scenario", "seed", "points", "runs", "narrate",
        ]
        .contains(&key.as_str())
        {
            return Err(invalid(key, format!("unknown field `{key}`; expected attacker, defender, scenario, seed, points, runs, narrate")));
        }
    }
    let roster = |side: &str| -> Result<lotf::RosterDoc, AppError> {
        let v = object
            .get(side)
            .ok_or_else(|| invalid(side, "missing: a muster.lotf.roster/1 document"))?;
        lotf::parse_roster(&v.to_string()).map_err(|e| {
            let field = e
                .path
                .as_ref()
                .map(|p| format!("{side}.{p}"))
                .unwrap_or_else(|| side.to_string());
            invalid(&field, e.message)
        })
    };
    let (attacker, defender) = (roster("attacker")?, roster("defender")?);
    let scenario = match object.get("scenario") {
        None | Some(Value::Null) => ScenarioId::TakeTheField,
        Some(v) => {
            let id = v.as_str().unwrap_or("");
            ScenarioId::from_id(id).ok_or_else(|| {
                let all: Vec<&str> = ScenarioId::ALL.iter().map(|s| s.id()).collect();
                invalid(
                    "scenario",
                    format!("unknown scenario `{id}`; choose one of {}", all.join(", ")),
                )
            })?
        }
    };
    let seed = match object.get("seed") {
        None | Some(Value::Null) => fresh_seed(),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| invalid("seed", "a whole number from 0 up"))?,
    };
    let mut setup = BattleSetup::new(attacker, defender, scenario, seed);
    if let Some(points) = object.get("points").filter(|v| !v.is_null()) {
        setup.points = Some(
            points
                .as_u64()
                .filter(|p| *p > 0 && *p <= 100_000)
                .ok_or_else(|| invalid("points", "a whole number from 1 to 100000"))?
                as u32,
        );
    }
    setup.check().map_err(|e| invalid("", e.to_string()))?;
    Ok(setup)
}

/// Number of battles asked for: `runs` or the default, within limits.
pub fn read_runs(value: &Value) -> Result<u32, AppError> {
    match value.get("runs") {
        None | Some(Value::Null) => Ok(DEFAULT_RUNS),
        Some(v) => v
            .as_u64()
            .filter(|r| (1..=RUNS_MAX as u64).contains(r))
            .map(|r| r as u32)
            .ok_or_else(|| invalid("runs", format!("a whole number from 1 to {RUNS_MAX}"))),
    }
}

/// Units on both sides, for the cost estimate.
pub fn size(setup: &BattleSetup) -> u64 {
    [&setup.attacker.roster, &setup.defender.roster]
        .iter()
        .flat_map(|r| r.groups.iter())
        .map(|g| g.elements.len() as u64)
        .sum()
}

/// The odds on one thread, stopping when `stop` is set (`None`).
pub fn odds(
    cat: &Catalogue,
    setup: &BattleSetup,
    runs: u32,
    stop: &AtomicBool,
) -> Option<Result<OddsSummary, String>> {
    let runner = Chunked {
        threads: 1,
        done: &AtomicU32::new(0),
        stop,
    };
    let run = match lotf::OddsRun::new(cat, setup) {
        Ok(run) => run,
        Err(e) => return Some(Err(e.to_string())),
    };
    let ranges =
        runner.fight_ranges(runs, |start, end, progress| run.range(start, end, progress))?;
    Some(lotf::merge_ranges(setup.seed, ranges).map_err(|e| e.to_string()))
}
