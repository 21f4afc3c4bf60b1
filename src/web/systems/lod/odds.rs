//! The Liberty or Death! odds calculator: `POST /api/v1/lod/odds/{shooting,melee,test}` and the
//! public page `/lod/odds`. The rules core works the odds out exactly; this module reads the
//! requests, names the field at fault when one does not fit, and shows the answers.

use actix_web::web::ServiceConfig;
use actix_web::{post, web, HttpResponse};
use askama::Template;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::rules::systems::lod::mechanics::Pool;
use crate::rules::systems::lod::odds::{
    at_least, melee_odds, read_request, shooting_odds, test_odds, MeleeRequest, OddsError,
    ShootingRequest, TestRequest,
};
use crate::rules::systems::lod::Catalogue;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::page::{number_field, render, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

fn odds_error(e: OddsError) -> AppError {
    AppError::Validation {
        message: "The odds cannot be worked out for that situation.".into(),
        details: vec![ErrorDetail {
            field: (!e.field.is_empty()).then(|| e.field.clone()),
            message: e.to_string(),
        }],
    }
}

/// Exact shooting odds
///
/// One shooting action (or defensive fire at a charger, L-14) of *Liberty or Death!*: how the
/// dice were built, the chance a die hits, hits before and after saves (artillery hits become
/// D2/D3/D3+1, or 2D3 at canister range, before saves), the under-fire marker, the target's
/// hit-state afterwards and what its MORALE test does. Exact, with the rulings used. Shots
/// beyond long range are refused with the reason.
#[utoipa::path(tag = "liberty-or-death", request_body(content = Object, description = "`{\"shooter\": {\"list\", \"entry\", \"bases\", \"grenadiers_detached\"?, \"hits\", \"firing_bases\"?}, \"target\": {\"list\", \"entry\", \"bases\", \"hits\", \"formation\"?, \"in_cover\", \"obscured\", \"enfiladed\", \"fortified\", \"in_command\", \"supported\"}, \"range_inches\", \"concentrate_fire\", \"defensive_fire\"}`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 422, description = "A field that does not fit, or a shot that cannot be made; the detail names the field", body = ErrorBody)
))]
#[post("/odds/shooting")]
pub async fn odds_shooting(
    state: web::Data<AppState>,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let req: ShootingRequest = read_request(&body).map_err(odds_error)?;
    let result = shooting_odds(&state.app.rules.lod, &req).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

/// Exact melee odds
///
/// One melee round between two units (`a` and `b`), both rolling at once: each side's dice and
/// how they were built, unsaved hits inflicted, who wins, draws, units BROKEN by hits, the
/// loser's MORALE test (need 3) and its result, a SHAKEN winner routing, pursuit and
/// breakthrough, and the risk to an attached General.
#[utoipa::path(tag = "liberty-or-death", request_body(content = Object, description = "`{\"a\": side, \"b\": side}`, side = `{\"list\", \"entry\", \"bases\", \"hits\", \"disorder_markers\", \"direct_bases\", \"supporting_bases\", \"charging\", \"against\": \"front|flank|rear\", \"enemy_defending_obstacle\", \"enemy_uphill\", \"in_the_open\", \"general_attached\", \"lead_the_fight\", \"in_command\", \"supported\", \"hold_the_line\"}`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 422, description = "A field that does not fit; the detail names it", body = ErrorBody)
))]
#[post("/odds/melee")]
pub async fn odds_melee(
    state: web::Data<AppState>,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let req: MeleeRequest = read_request(&body).map_err(odds_error)?;
    let result = melee_odds(&state.app.rules.lod, &req).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

/// Exact ORDER or MORALE test odds
///
/// The successes of an ORDER or MORALE test with the unit's re-rolls used by policy L-8, whole
/// re-takes (STUBBORN, Hold The Line!, A Direct Order!), the chance to pass (or the CHARGE
/// grades) and what each result does to the unit in its state.
#[utoipa::path(tag = "liberty-or-death", request_body(content = Object, description = "`{\"kind\": \"order|morale\", \"order\"?, \"trigger\"?, \"list\", \"entry\", \"bases\", \"hits\", \"routing\", \"in_command\", \"supported\", \"fortified\", \"press_the_charge\", \"direct_order\", \"hold_the_line\", \"reinforce\"}`"), responses(
    (status = 200, description = "The odds", body = Object),
    (status = 422, description = "A field that does not fit; the detail names it", body = ErrorBody)
))]
#[post("/odds/test")]
pub async fn odds_test(
    state: web::Data<AppState>,
    body: web::Json<Value>,
) -> Result<HttpResponse, AppError> {
    let req: TestRequest = read_request(&body).map_err(odds_error)?;
    let result = test_odds(&state.app.rules.lod, &req).map_err(odds_error)?;
    Ok(HttpResponse::Ok().json(result))
}

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(web::resource("/lod/odds").get(calculator));
}

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(odds_shooting)
        .service(odds_melee)
        .service(odds_test);
}

// The page

/// One bar of a chart.
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

fn chart(title: &str, points: &[(String, f64)]) -> Chart {
    let max = points.iter().map(|(_, p)| *p).fold(1e-12_f64, f64::max);
    let bars = points
        .iter()
        .enumerate()
        .map(|(i, (label, p))| {
            let height = ((p / max) * 100.0).round() as u32;
            Bar {
                label: label.clone(),
                percent: format!("{:.1}%", p * 100.0),
                x: 4 + i as u32 * 40,
                y: 120 - height,
                height,
            }
        })
        .collect();
    Chart {
        bars,
        width: 8 + points.len() as u32 * 40,
        title: title.to_string(),
    }
}

fn pct(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// A distribution shown as "exactly" and "at least" rows.
pub struct Table {
    pub caption: String,
    pub heads: Vec<String>,
    pub exactly: Vec<String>,
    pub at_least: Vec<String>,
}

fn table(caption: &str, d: &[f64]) -> Table {
    let cut = d
        .iter()
        .rposition(|p| *p >= 0.0005)
        .map_or(d.len(), |i| i + 1);
    Table {
        caption: caption.to_string(),
        heads: (0..cut).map(|k| k.to_string()).collect(),
        exactly: d[..cut].iter().map(|p| pct(*p)).collect(),
        at_least: at_least(d)[..cut].iter().map(|p| pct(*p)).collect(),
    }
}

fn dist_chart(title: &str, d: &[f64]) -> Chart {
    let cut = d
        .iter()
        .rposition(|p| *p >= 0.0005)
        .map_or(d.len(), |i| i + 1);
    let points: Vec<(String, f64)> = d[..cut]
        .iter()
        .enumerate()
        .map(|(k, p)| (k.to_string(), *p))
        .collect();
    chart(title, &points)
}

/// "1½ per base − ½ long range − 1 target in cover, raised to at least ½ dice per base = ½ × 3
/// firing bases = 1½ → 2 dice".
fn explain(pool: &Pool, what: &str) -> String {
    use crate::rules::systems::lod::types::HalfDice;
    let mut s = format!("{} per base", pool.base_per_base);
    for step in pool.steps.iter().filter(|s| s.applies == "per_base") {
        if step.what.starts_with("at least") {
            s.push_str(&format!(", raised to {}", step.what));
        } else {
            let sign = if step.change.0 < 0 { "−" } else { "+" };
            s.push_str(&format!(
                " {sign} {} {}",
                HalfDice(step.change.0.abs()),
                step.what
            ));
        }
    }
    let product = HalfDice(pool.per_base.0 * pool.bases as i32);
    s.push_str(&format!(
        " = {} × {} {what} = {product}",
        pool.per_base, pool.bases
    ));
    if product.0 % 2 != 0 {
        s.push_str(&format!(" → {}", pool.from_bases));
    }
    let extras: Vec<String> = pool
        .steps
        .iter()
        .filter(|s| s.applies == "dice")
        .map(|step| format!(", + {} {}", step.change.0 / 2, step.what))
        .collect();
    if extras.is_empty() {
        format!("{s} dice")
    } else {
        format!("{s}{} = {} dice", extras.concat(), pool.dice)
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OddsForm {
    pub calc: String,
    // shooting
    pub s_unit: String,
    pub s_bases: String,
    pub s_hits: String,
    pub s_firing: String,
    pub t_unit: String,
    pub t_bases: String,
    pub t_hits: String,
    pub t_limbered: String,
    pub range: String,
    pub t_cover: String,
    pub t_obscured: String,
    pub t_enfiladed: String,
    pub t_fortified: String,
    pub t_command: String,
    pub t_supported: String,
    pub t_hold: String,
    pub t_determined: String,
    pub concentrate: String,
    pub defensive: String,
    // melee
    pub a_unit: String,
    pub a_bases: String,
    pub a_hits: String,
    pub a_disorder: String,
    pub a_direct: String,
    pub a_support: String,
    pub a_against: String,
    pub a_charging: String,
    pub a_general: String,
    pub a_lead: String,
    pub a_command: String,
    pub a_supported: String,
    pub a_hold: String,
    pub b_unit: String,
    pub b_bases: String,
    pub b_hits: String,
    pub b_disorder: String,
    pub b_direct: String,
    pub b_support: String,
    pub b_against: String,
    pub b_charging: String,
    pub b_general: String,
    pub b_lead: String,
    pub b_command: String,
    pub b_supported: String,
    pub b_hold: String,
    pub open: String,
    pub obstacle: String,
    // tests
    pub x_kind: String,
    pub x_order: String,
    pub x_trigger: String,
    pub x_unit: String,
    pub x_bases: String,
    pub x_hits: String,
    pub x_routing: String,
    pub x_command: String,
    pub x_supported: String,
    pub x_fortified: String,
    pub x_press: String,
    pub x_direct: String,
    pub x_hold: String,
    pub x_reinforce: String,
}

fn on(v: &str) -> bool {
    matches!(v, "1" | "on" | "true" | "yes")
}

/// A whole-number field: empty means `default`; anything else must be a number 0–99.
/// A unit choice `list.entry` and its bases (the entry's middle size when left empty).
fn unit_json(
    cat: &Catalogue,
    choice: &str,
    bases: &str,
    hits: &str,
    who: &str,
) -> Result<Value, String> {
    let choice = if choice.is_empty() {
        "continental.continental_regiment"
    } else {
        choice
    };
    let (list, entry) = choice
        .split_once('.')
        .ok_or_else(|| format!("Choose a unit for {who}."))?;
    let default_bases = crate::rules::systems::lod::ArmyList::from_id(list)
        .and_then(|l| cat.find_entry(l, entry))
        .map_or(4, |(_, e)| e.bases[e.bases.len() / 2]);
    Ok(json!({
        "list": list, "entry": entry,
        "bases": number_field(bases, default_bases, 1..=6, &format!("The bases of {who}"))?,
        "hits": number_field(hits, 0, 0..=40, &format!("The hits on {who}"))?,
    }))
}

fn merge(mut v: Value, more: Value) -> Value {
    if let (Some(o), Some(m)) = (v.as_object_mut(), more.as_object()) {
        for (k, x) in m {
            o.insert(k.clone(), x.clone());
        }
    }
    v
}

/// An odds error in the page's words: which part of the form it is about (as the form names
/// it, not the API's field path) and the message as a sentence.
fn wording(e: OddsError) -> String {
    let whose = match e.field.split('.').next() {
        Some("shooter") => "Shooter: ",
        Some("target") => "Target: ",
        Some("a") => "Side A: ",
        Some("b") => "Side B: ",
        _ => "",
    };
    let message = capitalise(&e.message);
    let stop = if message.ends_with(['.', '!']) {
        ""
    } else {
        "."
    };
    format!("{whose}{message}{stop}")
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A fact line: label and value.
pub struct Fact {
    pub label: String,
    pub value: String,
}

fn fact(label: &str, value: String) -> Fact {
    Fact {
        label: label.to_string(),
        value,
    }
}

pub struct Answer {
    pub headline: String,
    pub pools: Vec<String>,
    pub facts: Vec<Fact>,
    pub charts: Vec<Chart>,
    pub tables: Vec<Table>,
    pub notes: Vec<String>,
    pub rulings: String,
}

fn shooting_answer(cat: &Catalogue, f: &OddsForm) -> Result<Answer, String> {
    let mut shooter = unit_json(cat, &f.s_unit, &f.s_bases, &f.s_hits, "the shooter")?;
    if !f.s_firing.trim().is_empty() {
        shooter = merge(
            shooter,
            json!({"firing_bases": number_field(&f.s_firing, 1, 1..=6, "Firing bases")?}),
        );
    }
    let target = merge(
        unit_json(cat, &f.t_unit, &f.t_bases, &f.t_hits, "the target")?,
        json!({"in_cover": on(&f.t_cover), "obscured": on(&f.t_obscured), "enfiladed": on(&f.t_enfiladed),
               "fortified": on(&f.t_fortified), "in_command": on(&f.t_command), "supported": on(&f.t_supported),
               "hold_the_line": on(&f.t_hold), "determined_charge": on(&f.t_determined) && on(&f.defensive),
               "formation": if on(&f.t_limbered) { json!("limbered") } else { Value::Null }}),
    );
    let req = json!({"shooter": shooter, "target": target,
        "range_inches": number_field(&f.range, 12, 0..=99, "The range")?, "concentrate_fire": on(&f.concentrate),
        "defensive_fire": on(&f.defensive)});
    let o = read_request::<ShootingRequest>(&req)
        .and_then(|r| shooting_odds(cat, &r))
        .map_err(wording)?;
    let out = &o.outcome;
    let mut facts = vec![
        fact(
            "Range",
            format!("{}\" ({} range)", o.range_inches, o.band.label()),
        ),
        fact(
            "Each die hits on",
            format!("{} ({})", o.to_hit, pct(o.p_hit)),
        ),
        fact(
            "Hits are saved on",
            format!("{}+ ({})", o.save_on, pct(o.p_save)),
        ),
        fact(
            "Expected hits before saves",
            format!("{:.2}", o.expected_hits_before_saves),
        ),
        fact(
            "Expected unsaved hits",
            format!("{:.2}", o.expected_unsaved_hits),
        ),
        fact("Under-fire marker", pct(o.p_under_fire_marker)),
        fact("No MORALE test", pct(out.no_test)),
        fact("Test passed", pct(out.passed)),
        fact("DISORDERED", pct(out.disordered)),
        fact("RETIRE", pct(out.retire)),
        fact("BROKEN by the test", pct(out.broken_by_test)),
        fact("BROKEN by hits", pct(out.broken_by_hits)),
    ];
    if let Some(e) = &o.each_hit_becomes {
        facts.insert(2, fact("Each hit becomes", e.clone()));
    }
    if let Some(p) = o.p_charge_stopped {
        facts.push(fact("The charge is stopped", pct(p)));
    }
    let s = &o.target_state_after;
    facts.push(fact(
        "Target afterwards",
        format!(
            "STEADY {} · WORN {} · SHAKEN {} · BROKEN {}",
            pct(s.steady),
            pct(s.worn),
            pct(s.shaken),
            pct(s.broken)
        ),
    ));
    Ok(Answer {
        headline: format!("{} shooting at {}", o.shooter, o.target),
        pools: vec![explain(&o.pool, "firing bases")],
        facts,
        charts: vec![dist_chart("Unsaved hits", &o.unsaved_hits)],
        tables: vec![
            table("Hits before saves", &o.hits_before_saves),
            table("Unsaved hits", &o.unsaved_hits),
        ],
        notes: o.notes.clone(),
        rulings: o.rulings.join(", "),
    })
}

fn side_json(cat: &Catalogue, f: &OddsForm, a: bool) -> Result<Value, String> {
    let g = |x: &str, y: &str| -> String {
        if a {
            x.to_string()
        } else {
            y.to_string()
        }
    };
    let who = if a { "side A" } else { "side B" };
    let (unit, bases, hits) = if a {
        (&f.a_unit, &f.a_bases, &f.a_hits)
    } else {
        (&f.b_unit, &f.b_bases, &f.b_hits)
    };
    let base = unit_json(cat, unit, bases, hits, who)?;
    let pick = |x: &String, y: &String| if a { x.clone() } else { y.clone() };
    let mut more = json!({
        "disorder_markers": number_field(&pick(&f.a_disorder, &f.b_disorder), 0, 0..=9, "Disorder markers")?,
        "supporting_bases": number_field(&pick(&f.a_support, &f.b_support), 0, 0..=6, "Supporting bases")?,
        "charging": on(&pick(&f.a_charging, &f.b_charging)),
        "against": match pick(&f.a_against, &f.b_against).as_str() { "flank" => "flank", "rear" => "rear", _ => "front" },
        "in_the_open": on(&f.open),
        "enemy_defending_obstacle": on(&f.obstacle) && a,
        "general_attached": on(&pick(&f.a_general, &f.b_general)),
        "lead_the_fight": on(&pick(&f.a_lead, &f.b_lead)),
        "in_command": on(&pick(&f.a_command, &f.b_command)),
        "supported": on(&pick(&f.a_supported, &f.b_supported)),
        "hold_the_line": on(&pick(&f.a_hold, &f.b_hold)),
    });
    let direct = pick(&f.a_direct, &f.b_direct);
    if !direct.trim().is_empty() {
        more["direct_bases"] = json!(number_field(
            &direct,
            1,
            0..=6,
            &g("Direct bases (A)", "Direct bases (B)")
        )?);
    }
    Ok(merge(base, more))
}

fn melee_answer(cat: &Catalogue, f: &OddsForm) -> Result<Answer, String> {
    let req = json!({"a": side_json(cat, f, true)?, "b": side_json(cat, f, false)?});
    let o = read_request::<MeleeRequest>(&req)
        .and_then(|r| melee_odds(cat, &r))
        .map_err(wording)?;
    let mut facts = vec![
        fact("A wins on the score", pct(o.p_a_wins)),
        fact("Draw (the melee goes on)", pct(o.p_draw)),
        fact("B wins on the score", pct(o.p_b_wins)),
        fact("A BROKEN by hits", pct(o.p_a_broken_by_hits)),
        fact("B BROKEN by hits", pct(o.p_b_broken_by_hits)),
        fact("Both BROKEN by hits", pct(o.p_both_broken_by_hits)),
    ];
    for (name, s) in [("A", &o.a), ("B", &o.b)] {
        let l = &s.as_loser;
        facts.push(fact(
            &format!("{name} loses and…"),
            format!(
                "holds {} · RETIRE {} · ROUTE {} · BROKEN by the test {} · BROKEN by hits {}",
                pct(l.holds),
                pct(l.retire),
                pct(l.route),
                pct(l.broken_by_test),
                pct(l.broken_by_hits)
            ),
        ));
        facts.push(fact(
            &format!("{name} wins and…"),
            format!(
                "routes because SHAKEN {} · pursues {} · breaks through {}",
                pct(s.winner_routes_shaken),
                pct(s.pursues),
                pct(s.breaks_through)
            ),
        ));
        if s.p_general_killed > 0.0 {
            facts.push(fact(
                &format!("{name}'s General killed"),
                pct(s.p_general_killed),
            ));
        }
    }
    let points = [
        ("A".to_string(), o.a.wins),
        ("Draw".to_string(), o.p_draw),
        ("B".to_string(), o.b.wins),
    ];
    Ok(Answer {
        headline: format!("{} against {}", o.a.unit, o.b.unit),
        pools: vec![
            format!(
                "A: {}; hits on {} ({} per die unsaved)",
                explain(&o.a.pool, "direct bases"),
                o.a.to_hit,
                pct(o.a.p_unsaved_per_die)
            ),
            format!(
                "B: {}; hits on {} ({} per die unsaved)",
                explain(&o.b.pool, "direct bases"),
                o.b.to_hit,
                pct(o.b.p_unsaved_per_die)
            ),
        ],
        facts,
        charts: vec![chart("Who wins the round", &points)],
        tables: vec![
            table("Unsaved hits A inflicts", &o.a.hits_inflicted),
            table("Unsaved hits B inflicts", &o.b.hits_inflicted),
        ],
        notes: o.notes.clone(),
        rulings: o.rulings.join(", "),
    })
}

fn test_answer(cat: &Catalogue, f: &OddsForm) -> Result<Answer, String> {
    let order = f.x_kind != "morale";
    let mut req = merge(
        unit_json(cat, &f.x_unit, &f.x_bases, &f.x_hits, "the unit")?,
        json!({"kind": if order { "order" } else { "morale" }, "routing": on(&f.x_routing),
               "in_command": on(&f.x_command), "supported": on(&f.x_supported), "fortified": on(&f.x_fortified)}),
    );
    if order {
        req = merge(
            req,
            json!({"order": if f.x_order.is_empty() { "advance" } else { &f.x_order },
                   "press_the_charge": on(&f.x_press) && f.x_order == "charge",
                   "direct_order": on(&f.x_direct), "reinforce": on(&f.x_reinforce) && f.x_order == "rally"}),
        );
    } else {
        req = merge(
            req,
            json!({"trigger": if f.x_trigger.is_empty() { "shooting" } else { &f.x_trigger },
                   "hold_the_line": on(&f.x_hold)}),
        );
    }
    let o = read_request::<TestRequest>(&req)
        .and_then(|r| test_odds(cat, &r))
        .map_err(wording)?;
    let what = match (o.order, o.trigger) {
        (Some(order), _) => format!("{} order", order.label()),
        (_, Some(t)) => format!("MORALE test: {}", t.label()),
        _ => String::new(),
    };
    let mut facts = vec![fact("Chance to pass", pct(o.p_pass))];
    for r in &o.results {
        facts.push(fact(&capitalise(&r.label), pct(r.probability)));
    }
    let mut pools = Vec::new();
    let mut charts = Vec::new();
    let mut tables = Vec::new();
    if let Some(roll) = &o.roll {
        let mut how = roll.dice_how.join(", ");
        how.push_str(&format!(
            " = {} dice; each scores 0 on {} faces, 1 on {}, 2 on {}",
            roll.dice, roll.success_faces[0], roll.success_faces[1], roll.success_faces[2]
        ));
        if roll.rerolls > 0 {
            how.push_str(&format!(
                "; {} re-roll{} ({})",
                roll.rerolls,
                if roll.rerolls == 1 { "" } else { "s" },
                roll.rerolls_how.join(", ")
            ));
        }
        if roll.retakes > 0 {
            how.push_str(&format!(
                "; re-taken if failed: {}",
                roll.retakes_how.join(", ")
            ));
        }
        pools.push(how);
        facts.insert(1, fact("Successes needed", roll.need.to_string()));
        if roll.retakes > 0 {
            facts.insert(
                2,
                fact("Pass at the first attempt", pct(roll.p_pass_one_take)),
            );
        }
        charts.push(dist_chart("Successes", &roll.successes));
        tables.push(table("Successes", &roll.successes));
    }
    if let Some(h) = &o.hits_after {
        tables.push(table("Hits afterwards", h));
    }
    let mut notes = o.notes.clone();
    if !o.automatic {
        notes.push(format!("Re-rolls: {}.", o.policy));
    }
    Ok(Answer {
        headline: format!(
            "{}, {}{}: {what}",
            o.unit,
            o.state.label(),
            if o.routing { ", ROUTING" } else { "" }
        ),
        pools,
        facts,
        charts,
        tables,
        notes,
        rulings: o.rulings.join(", "),
    })
}

/// An entry a form may pick: `list.entry`.
pub struct UnitChoice {
    pub value: String,
    pub label: String,
}

/// One melee side's fields as the form shows them again.
pub struct SideFields {
    pub side: &'static str,
    pub label: &'static str,
    pub unit_field: String,
    pub unit: String,
    pub bases: String,
    pub hits: String,
    pub disorder: String,
    pub direct: String,
    pub support: String,
    pub against: String,
    pub charging: String,
    pub general: String,
    pub lead: String,
    pub command: String,
    pub supported: String,
    pub hold: String,
}

fn sides(f: &OddsForm) -> Vec<SideFields> {
    vec![
        SideFields {
            side: "a",
            label: "A",
            unit_field: "a_unit".into(),
            unit: f.a_unit.clone(),
            bases: f.a_bases.clone(),
            hits: f.a_hits.clone(),
            disorder: f.a_disorder.clone(),
            direct: f.a_direct.clone(),
            support: f.a_support.clone(),
            against: f.a_against.clone(),
            charging: f.a_charging.clone(),
            general: f.a_general.clone(),
            lead: f.a_lead.clone(),
            command: f.a_command.clone(),
            supported: f.a_supported.clone(),
            hold: f.a_hold.clone(),
        },
        SideFields {
            side: "b",
            label: "B",
            unit_field: "b_unit".into(),
            unit: f.b_unit.clone(),
            bases: f.b_bases.clone(),
            hits: f.b_hits.clone(),
            disorder: f.b_disorder.clone(),
            direct: f.b_direct.clone(),
            support: f.b_support.clone(),
            against: f.b_against.clone(),
            charging: f.b_charging.clone(),
            general: f.b_general.clone(),
            lead: f.b_lead.clone(),
            command: f.b_command.clone(),
            supported: f.b_supported.clone(),
            hold: f.b_hold.clone(),
        },
    ]
}

#[derive(Template)]
#[template(path = "systems/lod/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    f: OddsForm,
    units: Vec<UnitChoice>,
    sides: Vec<SideFields>,
    orders: Vec<(&'static str, &'static str)>,
    triggers: Vec<(&'static str, &'static str)>,
    shooting: Option<Answer>,
    melee: Option<Answer>,
    test: Option<Answer>,
    error: Option<String>,
}

fn units(cat: &Catalogue) -> Vec<UnitChoice> {
    cat.lists
        .iter()
        .flat_map(|l| {
            l.entries.iter().map(move |e| UnitChoice {
                value: format!("{}.{}", l.id.id(), e.id),
                label: format!("{} — {} ({})", l.name, e.name, e.bases_label()),
            })
        })
        .collect()
}

pub async fn calculator(
    state: web::Data<AppState>,
    ctx: PageCtx,
    form: web::Query<OddsForm>,
) -> Result<HttpResponse, AppError> {
    use crate::rules::systems::lod::types::{MoraleTrigger, Order};
    let cat = &state.app.rules.lod;
    let f = form.into_inner();
    let (mut shooting, mut melee, mut test, mut error) = (None, None, None, None);
    match f.calc.as_str() {
        "shooting" => match shooting_answer(cat, &f) {
            Ok(a) => shooting = Some(a),
            Err(e) => error = Some(e),
        },
        "melee" => match melee_answer(cat, &f) {
            Ok(a) => melee = Some(a),
            Err(e) => error = Some(e),
        },
        "test" => match test_answer(cat, &f) {
            Ok(a) => test = Some(a),
            Err(e) => error = Some(e),
        },
        _ => {}
    }
    render(&OddsPage {
        ctx,
        units: units(cat),
        sides: sides(&f),
        orders: [
            Order::Hold,
            Order::Reform,
            Order::Advance,
            Order::Run,
            Order::Charge,
            Order::Rally,
        ]
        .iter()
        .map(|o| (o.id(), o.label()))
        .collect(),
        triggers: [
            MoraleTrigger::Shooting,
            MoraleTrigger::LostMelee,
            MoraleTrigger::BrokenFriend,
            MoraleTrigger::Interpenetration,
            MoraleTrigger::DefensiveFire,
        ]
        .iter()
        .map(|t| (t.id(), t.label()))
        .collect(),
        f,
        shooting,
        melee,
        test,
        error,
    })
}
