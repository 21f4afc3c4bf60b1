//! The public odds calculator: shooting, melee and morale tests, worked out exactly by the
//! rules core, shown as a table and a bar chart with how each dice pool was built.

use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::rules::systems::lotf::{self, Catalogue};
use crate::web::page::{number_field, render, PageCtx};
use crate::web::state::AppState;
use crate::web::systems::lotf::options::{self, Choice};
use crate::web::AppError;

/// One bar of a chart: label, probability, and its height and position in the SVG.
pub struct Bar {
    pub label: String,
    pub percent: String,
    pub x: u32,
    pub y: u32,
    pub height: u32,
}

pub struct Chart {
    pub bars: Vec<Bar>,
    pub width: u32,
    pub title: String,
}

pub const CHART_HEIGHT: u32 = 120;
const BAR: u32 = 34;

/// Bars scaled so the most likely outcome fills the chart.
pub fn chart(title: &str, points: &[(String, f64)]) -> Chart {
    let max = points
        .iter()
        .map(|(_, p)| *p)
        .fold(0.0_f64, f64::max)
        .max(1e-12);
    let bars = points
        .iter()
        .enumerate()
        .map(|(i, (label, p))| {
            let height = ((p / max) * f64::from(CHART_HEIGHT - 20)).round() as u32;
            Bar {
                label: label.clone(),
                percent: format!("{:.1}%", p * 100.0),
                x: 4 + i as u32 * (BAR + 6),
                y: CHART_HEIGHT - height,
                height,
            }
        })
        .collect();
    Chart {
        bars,
        width: 8 + points.len() as u32 * (BAR + 6),
        title: title.to_string(),
    }
}

fn pct(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// The calculator's fields; all optional so that any query string renders a page.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OddsForm {
    pub calc: String,
    // shooting
    pub s_type: String,
    pub s_size: String,
    pub s_weapon: String,
    pub s_upgrade: String,
    pub s_disorder: String,
    pub s_level: String,
    pub t_type: String,
    pub t_size: String,
    pub t_formation: String,
    pub t_cover: String,
    pub t_hits: String,
    pub t_commander: String,
    pub t_rating: String,
    pub range: String,
    pub flank: String,
    pub ammo: String,
    // melee
    pub a_type: String,
    pub a_size: String,
    pub a_formation: String,
    pub a_level: String,
    pub a_flank: String,
    pub a_support: String,
    pub d_type: String,
    pub d_size: String,
    pub d_formation: String,
    pub d_level: String,
    pub d_support: String,
    pub d_counter: String,
    // morale
    pub m_morale: String,
    pub m_kind: String,
    pub m_supported: String,
    pub m_commander: String,
    pub m_rating: String,
    pub m_disordered: String,
    pub m_shaken: String,
    pub m_cover: String,
    pub m_excess: String,
}

fn on(v: &str) -> bool {
    matches!(v, "1" | "on" | "true" | "yes")
}

fn num(v: &str, default: u32) -> u32 {
    v.trim().parse().unwrap_or(default)
}

fn or<'a>(v: &'a str, default: &'a str) -> &'a str {
    if v.is_empty() {
        default
    } else {
        v
    }
}

fn formation(v: &str) -> Value {
    if v.is_empty() {
        Value::Null
    } else {
        json!(v)
    }
}

fn supporters(count: &str, close: bool) -> Value {
    let n = num(count, 0).min(3);
    json!((0..n)
        .map(|_| json!({"type": "infantry", "size": "medium", "close": close}))
        .collect::<Vec<_>>())
}

pub struct ShootingResult {
    pub explanation: String,
    pub expected: String,
    pub punishing: String,
    pub disordered: String,
    pub test_failed: String,
    pub rows: Vec<(String, String)>,
    pub chart: Chart,
    pub rulings: String,
    pub notes: Vec<String>,
}

pub struct MeleeResult {
    /// Result modifiers of each side, e.g. "+1 enemy unlimbered or in column".
    pub attacker_modifiers: String,
    pub defender_modifiers: String,
    /// Things the book would not allow, shown beside the odds.
    pub warnings: Vec<String>,
    pub attacker_win: String,
    pub tie: String,
    pub defender_win: String,
    pub attacker_pool: String,
    pub defender_pool: String,
    pub chart: Chart,
    pub rulings: String,
}

pub struct MoraleResult {
    pub pass: String,
    pub explanation: String,
    pub chart: Chart,
    pub rulings: String,
    /// Where the Morale value came from (an attached commander's rating, R-33).
    pub notes: Vec<String>,
}

#[derive(Template)]
#[template(path = "systems/lotf/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    f: OddsForm,
    types: Vec<Choice>,
    sizes: Vec<Choice>,
    weapons: Vec<Choice>,
    upgrades: Vec<Choice>,
    /// Commander ratings from the catalogue, with their Morale.
    ratings: Vec<Choice>,
    shooting: Option<ShootingResult>,
    melee: Option<MeleeResult>,
    morale: Option<MoraleResult>,
    error: Option<String>,
}

/// The commander ratings as choices, "Incompetent (Morale 8)", from the catalogue.
fn ratings(cat: &Catalogue) -> Vec<Choice> {
    cat.commander_ratings()
        .iter()
        .map(|r| Choice {
            value: r.id.clone(),
            label: format!("{} (Morale {})", r.name, r.morale),
            types: String::new(),
            sizes: String::new(),
            wars: String::new(),
        })
        .collect()
}

/// A ticked "commander attached" box needs his rating, whose Morale replaces the element's.
fn rating_for(attached: bool, rating: &str) -> Result<Value, String> {
    match (attached, rating.is_empty()) {
        (true, true) => Err(
            "Choose the attached commander's rating: his Morale replaces the element's (R-33)."
                .into(),
        ),
        (_, true) => Ok(Value::Null),
        (_, false) => Ok(json!(rating)),
    }
}

fn parse<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| format!("Those choices do not fit together: {e}"))
}

fn shooting(cat: &Catalogue, f: &OddsForm) -> Result<ShootingResult, String> {
    number_field(&f.range, 10, 0..=200, "The range")?;
    number_field(&f.s_disorder, 0, 0..=20, "Disorder Markers")?;
    number_field(&f.t_hits, 0, 0..=20, "Hits already on the target")?;
    let upgrades: Vec<&str> = f.s_upgrade.split('+').filter(|u| !u.is_empty()).collect();
    let weapon = if f.s_weapon.is_empty() {
        Value::Null
    } else {
        json!(f.s_weapon)
    };
    let ammo = if f.ammo == "grapeshot" {
        "grapeshot"
    } else {
        "solid_shot"
    };
    let t_rating = rating_for(on(&f.t_commander), &f.t_rating)?;
    let req: lotf::ShootingRequest = parse(json!({
        "shooter": {"type": or(&f.s_type, "infantry"), "size": or(&f.s_size, "medium"), "weapon": weapon, "upgrades": upgrades,
                    "disorder_markers": num(&f.s_disorder, 0).min(20), "discipline_level": or(&f.s_level, "fit")},
        "target": {"type": or(&f.t_type, "infantry"), "size": or(&f.t_size, "medium"), "formation": formation(&f.t_formation),
                   "in_cover": on(&f.t_cover), "hits": num(&f.t_hits, 0).min(20),
                   "commander_attached": on(&f.t_commander), "commander_rating": t_rating},
        "range_inches": num(&f.range, 10).min(200), "flank": on(&f.flank), "ammunition": ammo
    }))?;
    let o = lotf::shooting_odds(cat, &req).map_err(|e| e.to_string())?;
    let points: Vec<(String, f64)> = o
        .hits_distribution
        .iter()
        .enumerate()
        .map(|(i, p)| (i.to_string(), *p))
        .collect();
    Ok(ShootingResult {
        explanation: o.pool_explanation.clone(),
        expected: format!("{:.2}", o.expected_hits),
        punishing: pct(o.p_punishing_volley),
        disordered: pct(o.p_target_disordered),
        test_failed: pct(o.p_discipline_test_failed),
        rows: points.iter().map(|(k, p)| (k.clone(), pct(*p))).collect(),
        chart: chart("Chance of each number of hits", &points),
        rulings: o.rulings.join(", "),
        notes: o.notes.clone(),
    })
}

fn terms(list: &[crate::rules::systems::lotf::combat::Term]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|t| {
            format!(
                "{}{} {}",
                if t.value >= 0 { "+" } else { "−" },
                t.value.abs(),
                t.label
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn melee(cat: &Catalogue, f: &OddsForm) -> Result<MeleeResult, String> {
    if f.a_type == "artillery" {
        return Err(
            "Artillery never charges (R-28); pick infantry or cavalry as the attacker.".into(),
        );
    }
    // Up to three supporters: a larger count is refused, not quietly cut to three.
    number_field(&f.a_support, 0, 0..=3, "The attacker's supporters")?;
    number_field(&f.d_support, 0, 0..=3, "The defender's supporters")?;
    let req: lotf::MeleeRequest = parse(json!({
        "attacker": {"type": or(&f.a_type, "infantry"), "size": or(&f.a_size, "medium"), "formation": formation(&f.a_formation),
                     "discipline_level": or(&f.a_level, "fit"), "flank": on(&f.a_flank), "supporters": supporters(&f.a_support, false)},
        "defender": {"type": or(&f.d_type, "infantry"), "size": or(&f.d_size, "medium"), "formation": formation(&f.d_formation),
                     "discipline_level": or(&f.d_level, "fit"), "counter_charged": on(&f.d_counter), "supporters": supporters(&f.d_support, false)}
    }))?;
    let o = lotf::melee_odds(cat, &req).map_err(|e| e.to_string())?;
    let points = [
        ("Attacker".to_string(), o.attacker_win),
        ("Tie".to_string(), o.tie),
        ("Defender".to_string(), o.defender_win),
    ];
    Ok(MeleeResult {
        attacker_modifiers: terms(&o.attacker.resolution_terms),
        defender_modifiers: terms(&o.defender.resolution_terms),
        // The charge limits as the rules core judges them.
        warnings: o.warnings.clone(),
        attacker_win: pct(o.attacker_win),
        tie: pct(o.tie),
        defender_win: pct(o.defender_win),
        attacker_pool: o.attacker.pool_explanation.clone(),
        defender_pool: o.defender.pool_explanation.clone(),
        chart: chart("Who wins the melee", &points),
        rulings: o.rulings.join(", "),
    })
}

fn morale(cat: &Catalogue, f: &OddsForm) -> Result<MoraleResult, String> {
    number_field(&f.m_morale, 7, 2..=12, "The Morale value")?;
    number_field(&f.m_excess, 0, 0..=20, "Excess hits")?;
    let rating = rating_for(on(&f.m_commander), &f.m_rating)?;
    // With a rating, his Morale is the value to reach; the Morale box is the element's.
    let morale = if rating.is_null() {
        json!(num(&f.m_morale, 7).clamp(2, 12))
    } else {
        Value::Null
    };
    let req: lotf::MoraleRequest = parse(json!({
        "morale": morale, "commander_rating": rating, "kind": or(&f.m_kind, "morale"),
        "situation": {"supported": on(&f.m_supported), "commander_attached": on(&f.m_commander), "disordered": on(&f.m_disordered),
                      "shaken_or_exhausted": on(&f.m_shaken), "in_cover": on(&f.m_cover), "excess_hits": num(&f.m_excess, 0).min(20)}
    }))?;
    let o = lotf::morale_odds(cat, &req).map_err(|e| e.to_string())?;
    let points = [
        ("Pass".to_string(), o.p_pass),
        ("Fail".to_string(), o.p_fail),
    ];
    Ok(MoraleResult {
        pass: pct(o.p_pass),
        explanation: o.explanation.clone(),
        chart: chart("Pass or fail", &points),
        rulings: o.rulings.join(", "),
        notes: o.notes.clone(),
    })
}

pub async fn calculator(
    state: web::Data<AppState>,
    ctx: PageCtx,
    form: web::Query<OddsForm>,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let f = form.into_inner();
    let (mut s, mut m, mut mo, mut error) = (None, None, None, None);
    match f.calc.as_str() {
        "shooting" => match shooting(cat, &f) {
            Ok(r) => s = Some(r),
            Err(e) => error = Some(e),
        },
        "melee" => match melee(cat, &f) {
            Ok(r) => m = Some(r),
            Err(e) => error = Some(e),
        },
        "morale" => match morale(cat, &f) {
            Ok(r) => mo = Some(r),
            Err(e) => error = Some(e),
        },
        _ => {}
    }
    render(&OddsPage {
        ctx,
        types: options::types(cat),
        sizes: options::sizes(cat),
        weapons: options::weapons(cat, lotf::War::WarOf1812),
        upgrades: options::upgrades(cat),
        ratings: ratings(cat),
        f,
        shooting: s,
        melee: m,
        morale: mo,
        error,
    })
}
