//! The Liberty or Death! odds calculator: `POST /api/v1/lod/odds/{shooting,melee,test}` and the
//! public page `/lod/odds`. The rules core works the odds out exactly; this module reads the
//! requests, names the field at fault when one does not fit, and shows the answers.

use actix_web::web::ServiceConfig;
use actix_web::{post, web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::rules::systems::lod::mechanics::Pool;
use crate::rules::systems::lod::odds::{
    melee_odds, read_request, shooting_odds, test_odds, MeleeRequest, OddsError, ShootingRequest,
    TestRequest,
};
use crate::rules::systems::lod::{ArmyList, Catalogue, RosterDoc};
use crate::rules::SystemId;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::page::{number_field, render, PageCtx, SelectOption};
use crate::web::pages::odds::{
    distribution, outcomes, own_rosters, percent as pct, pick_value, picker, settle,
    situation_link, situation_query, Distribution, Outcomes, Pick, Picker, Picks, SituationLink,
};
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

/// The calculator's fields; all optional so that any query string renders a page. Serialized,
/// the filled ones make the link that reproduces the situation.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct OddsForm {
    pub calc: String,
    // Roster picks: fill a unit from one of the user's own rosters (`roster:unit`). Never part
    // of a link, which must work for anyone.
    #[serde(skip_serializing)]
    pub from_s: String,
    #[serde(skip_serializing)]
    pub from_t: String,
    #[serde(skip_serializing)]
    pub from_a: String,
    #[serde(skip_serializing)]
    pub from_b: String,
    #[serde(skip_serializing)]
    pub from_x: String,
    // shooting
    pub s_unit: String,
    pub s_gren: String,
    pub s_bases: String,
    pub s_hits: String,
    pub s_firing: String,
    pub t_unit: String,
    pub t_gren: String,
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
    pub a_gren: String,
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
    pub b_gren: String,
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
    pub x_gren: String,
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

/// A unit choice `list.entry`, its bases (the entry's middle size when left empty) and whether
/// its grenadiers are detached (L-50).
fn unit_json(
    cat: &Catalogue,
    choice: &str,
    grenadiers: &str,
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
        "list": list, "entry": entry, "grenadiers_detached": on(grenadiers),
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
    /// Who wins, and the like: a chart and a table of a few outcomes.
    pub outcomes: Option<Outcomes>,
    /// Counts (hits, successes): "exactly" and "at least", each with its chart.
    pub distributions: Vec<Distribution>,
    pub notes: Vec<String>,
    pub rulings: String,
}

fn shooting_answer(cat: &Catalogue, f: &OddsForm) -> Result<Answer, String> {
    let mut shooter = unit_json(
        cat,
        &f.s_unit,
        &f.s_gren,
        &f.s_bases,
        &f.s_hits,
        "the shooter",
    )?;
    if !f.s_firing.trim().is_empty() {
        shooter = merge(
            shooter,
            json!({"firing_bases": number_field(&f.s_firing, 1, 1..=6, "Firing bases")?}),
        );
    }
    let target = merge(
        unit_json(
            cat,
            &f.t_unit,
            &f.t_gren,
            &f.t_bases,
            &f.t_hits,
            "the target",
        )?,
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
        outcomes: None,
        distributions: vec![
            distribution("shooting-unsaved", "Unsaved hits", "Hits", &o.unsaved_hits),
            distribution(
                "shooting-before-saves",
                "Hits before saves",
                "Hits",
                &o.hits_before_saves,
            ),
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
    let (unit, grenadiers, bases, hits) = if a {
        (&f.a_unit, &f.a_gren, &f.a_bases, &f.a_hits)
    } else {
        (&f.b_unit, &f.b_gren, &f.b_bases, &f.b_hits)
    };
    let base = unit_json(cat, unit, grenadiers, bases, hits, who)?;
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
        outcomes: Some(outcomes(
            "Who wins the round",
            &[("A", o.a.wins), ("Draw", o.p_draw), ("B", o.b.wins)],
        )),
        distributions: vec![
            distribution(
                "melee-a-hits",
                "Unsaved hits A inflicts",
                "Hits",
                &o.a.hits_inflicted,
            ),
            distribution(
                "melee-b-hits",
                "Unsaved hits B inflicts",
                "Hits",
                &o.b.hits_inflicted,
            ),
        ],
        notes: o.notes.clone(),
        rulings: o.rulings.join(", "),
    })
}

fn test_answer(cat: &Catalogue, f: &OddsForm) -> Result<Answer, String> {
    let order = f.x_kind != "morale";
    let mut req = merge(
        unit_json(cat, &f.x_unit, &f.x_gren, &f.x_bases, &f.x_hits, "the unit")?,
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
    let mut distributions = Vec::new();
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
        distributions.push(distribution(
            "test-successes",
            "Successes",
            "Successes",
            &roll.successes,
        ));
    }
    if let Some(h) = &o.hits_after {
        distributions.push(distribution(
            "test-hits-after",
            "Hits afterwards",
            "Hits",
            h,
        ));
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
        outcomes: None,
        distributions,
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
    pub gren: String,
    /// Fills this side from a unit of the user's own rosters.
    pub picker: Picker,
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
            gren: f.a_gren.clone(),
            picker: picker("from_a", "Side A from your rosters"),
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
            gren: f.b_gren.clone(),
            picker: picker("from_b", "Side B from your rosters"),
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
    /// Units of the user's own rosters a side can be filled from (none for visitors).
    picks: Vec<SelectOption>,
    shooter_picker: Picker,
    target_picker: Picker,
    test_picker: Picker,
    shooting: Option<Answer>,
    melee: Option<Answer>,
    test: Option<Answer>,
    /// Why the calculator `f.calc` gave no answer; shown where the answer would be.
    error: Option<String>,
    /// Reproduces the situation with its answer.
    link: Option<SituationLink>,
}

impl OddsPage {
    /// The message for the calculator `calc` when it gave no answer; with `""`, a message that
    /// belongs to no calculator on the page (shown at the top).
    fn error_for(&self, calc: &str) -> Option<&str> {
        let known = matches!(self.f.calc.as_str(), "shooting" | "melee" | "test");
        let here = if calc.is_empty() {
            !known
        } else {
            self.f.calc == calc
        };
        self.error.as_deref().filter(|_| here)
    }
}

/// A roster's unit as the form takes it: `list.entry`, bases, grenadiers detached.
pub struct UnitValues {
    pub unit: String,
    pub bases: String,
    pub grenadiers: String,
}

/// Every unit of the user's own Liberty or Death! rosters, as "Roster — Unit (Entry, 4 bases)".
/// Units whose entry the lists do not have are left out: the form could not show them.
fn unit_picks(cat: &Catalogue, rosters: Vec<(i64, String, RosterDoc)>) -> Picks<UnitValues> {
    let mut picks = Vec::new();
    for (roster_id, roster_name, doc) in rosters {
        let Some(army) = ArmyList::from_id(&doc.army_list) else {
            continue;
        };
        for u in doc.brigades.iter().flat_map(|b| &b.units) {
            let (Some(id), Some((list, entry))) = (&u.id, cat.find_entry(army, &u.entry)) else {
                continue;
            };
            let name = if u.name.trim().is_empty() {
                format!("{} ({} bases)", entry.name, u.bases)
            } else {
                format!("{} ({}, {} bases)", u.name, entry.name, u.bases)
            };
            picks.push(Pick {
                value: pick_value(roster_id, id),
                label: format!("{roster_name} — {name}"),
                element: UnitValues {
                    unit: format!("{}.{}", list.id(), entry.id),
                    bases: u.bases.to_string(),
                    grenadiers: if u.grenadiers_detached { "1" } else { "" }.to_string(),
                },
            });
        }
    }
    Picks(picks)
}

/// Fills the units the user picked from their rosters: entry, bases and detached grenadiers.
/// A pick that is not one of the user's units fills nothing and says so.
fn fill_from_rosters(picks: &Picks<UnitValues>, f: &mut OddsForm) -> Result<(), String> {
    let fill = |v: &UnitValues, unit: &mut String, bases: &mut String, gren: &mut String| {
        unit.clone_from(&v.unit);
        bases.clone_from(&v.bases);
        gren.clone_from(&v.grenadiers);
    };
    if let Some(v) = picks.find(&f.from_s)? {
        fill(v, &mut f.s_unit, &mut f.s_bases, &mut f.s_gren);
    }
    if let Some(v) = picks.find(&f.from_t)? {
        fill(v, &mut f.t_unit, &mut f.t_bases, &mut f.t_gren);
    }
    if let Some(v) = picks.find(&f.from_a)? {
        fill(v, &mut f.a_unit, &mut f.a_bases, &mut f.a_gren);
    }
    if let Some(v) = picks.find(&f.from_b)? {
        fill(v, &mut f.b_unit, &mut f.b_bases, &mut f.b_gren);
    }
    if let Some(v) = picks.find(&f.from_x)? {
        fill(v, &mut f.x_unit, &mut f.x_bases, &mut f.x_gren);
    }
    Ok(())
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
    req: HttpRequest,
    form: web::Query<OddsForm>,
) -> Result<HttpResponse, AppError> {
    use crate::rules::systems::lod::types::{MoraleTrigger, Order};
    let cat = &state.app.rules.lod;
    let mut f = form.into_inner();
    let picks = unit_picks(cat, own_rosters(&state, &ctx, SystemId::Lod).await?);
    let (mut shooting, mut melee, mut test, mut error) = (None, None, None, None);
    match fill_from_rosters(&picks, &mut f) {
        Err(e) => error = Some(e),
        Ok(()) => match f.calc.as_str() {
            "shooting" => settle(shooting_answer(cat, &f), &mut shooting, &mut error),
            "melee" => settle(melee_answer(cat, &f), &mut melee, &mut error),
            "test" => settle(test_answer(cat, &f), &mut test, &mut error),
            _ => {}
        },
    }
    let answered = shooting.is_some() || melee.is_some() || test.is_some();
    let link =
        answered.then(|| situation_link(&state, &req, &f.calc, "/lod/odds", &situation_query(&f)));
    render(&OddsPage {
        ctx,
        picks: picks.options(),
        shooter_picker: picker("from_s", "Shooter from your rosters"),
        target_picker: picker("from_t", "Target from your rosters"),
        test_picker: picker("from_x", "Unit from your rosters"),
        link,
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
