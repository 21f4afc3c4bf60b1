//! The public odds calculator: shooting, melee and morale tests, worked out exactly by the
//! rules core, shown as a table and a bar chart with how each dice pool was built.

use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::rules::systems::lotf::{self, Catalogue, ElementDoc, RosterDoc};
use crate::rules::SystemId;
use crate::web::page::{number_field, render, PageCtx, SelectOption};
use crate::web::pages::odds::{
    distribution, outcomes, own_rosters, percent as pct, pick_value, picker, settle,
    situation_link, situation_query, Distribution, Outcomes, Pick, Picker, Picks, SituationLink,
};
use crate::web::state::AppState;
use crate::web::systems::lotf::options::{self, Choice};
use crate::web::AppError;

/// The calculator's fields; all optional so that any query string renders a page. Serialized,
/// the filled ones make the link that reproduces the situation.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct OddsForm {
    pub calc: String,
    // Roster picks: fill a side from an element of the user's own roster (`roster:element`).
    // Never part of a link, which must work for anyone.
    #[serde(skip_serializing)]
    pub from_s: String,
    #[serde(skip_serializing)]
    pub from_t: String,
    #[serde(skip_serializing)]
    pub from_a: String,
    #[serde(skip_serializing)]
    pub from_d: String,
    #[serde(skip_serializing)]
    pub from_m: String,
    // shooting
    pub s_type: String,
    pub s_size: String,
    pub s_weapon: String,
    pub s_upgrade: String,
    pub s_disorder: String,
    pub s_level: String,
    pub t_type: String,
    pub t_size: String,
    pub t_upgrade: String,
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
    pub a_upgrade: String,
    pub a_formation: String,
    pub a_level: String,
    pub a_flank: String,
    pub a_support: String,
    pub d_type: String,
    pub d_size: String,
    pub d_upgrade: String,
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

/// An upgrade select's value: one upgrade or an allowed combination joined by `+`.
fn upgrades(v: &str) -> Vec<&str> {
    v.split('+').filter(|u| !u.is_empty()).collect()
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
    pub hits: Distribution,
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
    pub winner: Outcomes,
    pub attacker_hits: Distribution,
    pub defender_hits: Distribution,
    pub rulings: String,
}

pub struct MoraleResult {
    pub pass: String,
    pub explanation: String,
    pub outcome: Outcomes,
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
    /// Elements of the user's own rosters a side can be filled from (none for visitors).
    picks: Vec<SelectOption>,
    pickers: LotfPickers,
    shooting: Option<ShootingResult>,
    melee: Option<MeleeResult>,
    morale: Option<MoraleResult>,
    /// Why the calculator `f.calc` gave no answer; shown where the answer would be.
    error: Option<String>,
    /// Reproduces the situation with its answer.
    link: Option<SituationLink>,
}

impl OddsPage {
    /// The message for the calculator `calc` when it gave no answer; with `""`, a message that
    /// belongs to no calculator on the page (shown at the top).
    fn error_for(&self, calc: &str) -> Option<&str> {
        let known = matches!(self.f.calc.as_str(), "shooting" | "melee" | "morale");
        let here = if calc.is_empty() {
            !known
        } else {
            self.f.calc == calc
        };
        self.error.as_deref().filter(|_| here)
    }
}

/// The sides of the situations a roster element can fill.
struct LotfPickers {
    shooter: Picker,
    target: Picker,
    attacker: Picker,
    defender: Picker,
    morale: Picker,
}

fn pickers() -> LotfPickers {
    LotfPickers {
        shooter: picker("from_s", "Shooter from your rosters"),
        target: picker("from_t", "Target from your rosters"),
        attacker: picker("from_a", "Attacker from your rosters"),
        defender: picker("from_d", "Defender from your rosters"),
        morale: picker("from_m", "Element from your rosters"),
    }
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
        "shooter": {"type": or(&f.s_type, "infantry"), "size": or(&f.s_size, "medium"), "weapon": weapon, "upgrades": upgrades(&f.s_upgrade),
                    "disorder_markers": num(&f.s_disorder, 0).min(20), "discipline_level": or(&f.s_level, "fit")},
        "target": {"type": or(&f.t_type, "infantry"), "size": or(&f.t_size, "medium"), "upgrades": upgrades(&f.t_upgrade), "formation": formation(&f.t_formation),
                   "in_cover": on(&f.t_cover), "hits": num(&f.t_hits, 0).min(20),
                   "commander_attached": on(&f.t_commander), "commander_rating": t_rating},
        "range_inches": num(&f.range, 10).min(200), "flank": on(&f.flank), "ammunition": ammo
    }))?;
    let o = lotf::shooting_odds(cat, &req).map_err(|e| e.to_string())?;
    Ok(ShootingResult {
        explanation: o.pool_explanation.clone(),
        expected: format!("{:.2}", o.expected_hits),
        punishing: pct(o.p_punishing_volley),
        disordered: pct(o.p_target_disordered),
        test_failed: pct(o.p_discipline_test_failed),
        hits: distribution(
            "shooting-hits",
            "Chance of each number of hits",
            "Hits",
            &o.hits_distribution,
        ),
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
        "attacker": {"type": or(&f.a_type, "infantry"), "size": or(&f.a_size, "medium"), "upgrades": upgrades(&f.a_upgrade), "formation": formation(&f.a_formation),
                     "discipline_level": or(&f.a_level, "fit"), "flank": on(&f.a_flank), "supporters": supporters(&f.a_support, false)},
        "defender": {"type": or(&f.d_type, "infantry"), "size": or(&f.d_size, "medium"), "upgrades": upgrades(&f.d_upgrade), "formation": formation(&f.d_formation),
                     "discipline_level": or(&f.d_level, "fit"), "counter_charged": on(&f.d_counter), "supporters": supporters(&f.d_support, false)}
    }))?;
    let o = lotf::melee_odds(cat, &req).map_err(|e| e.to_string())?;
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
        winner: outcomes(
            "Who wins the melee",
            &[
                ("Attacker", o.attacker_win),
                ("Tie", o.tie),
                ("Defender", o.defender_win),
            ],
        ),
        attacker_hits: distribution(
            "melee-attacker-hits",
            "Hits the attacker scores",
            "Hits",
            &o.attacker.hits_distribution,
        ),
        defender_hits: distribution(
            "melee-defender-hits",
            "Hits the defender scores",
            "Hits",
            &o.defender.hits_distribution,
        ),
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
    Ok(MoraleResult {
        pass: pct(o.p_pass),
        explanation: o.explanation.clone(),
        outcome: outcomes("Pass or fail", &[("Pass", o.p_pass), ("Fail", o.p_fail)]),
        rulings: o.rulings.join(", "),
        notes: o.notes.clone(),
    })
}

/// Every element of the user's own Land of the Free rosters, as "Roster — Element (size type)".
fn element_picks(cat: &Catalogue, rosters: Vec<(i64, String, RosterDoc)>) -> Picks<ElementDoc> {
    let mut picks = Vec::new();
    for (roster_id, roster_name, doc) in rosters {
        for e in doc.groups.into_iter().flat_map(|g| g.elements) {
            let Some(id) = e.id.clone() else { continue };
            let kind = format!(
                "{} {}",
                e.size.label(),
                cat.element_type(e.element_type)
                    .map_or_else(|| e.element_type.id().to_string(), |t| t.name.clone())
            )
            .to_lowercase();
            let name = if e.name.trim().is_empty() {
                kind.clone()
            } else {
                format!("{} ({kind})", e.name)
            };
            picks.push(Pick {
                value: pick_value(roster_id, &id),
                label: format!("{roster_name} — {name}"),
                element: e,
            });
        }
    }
    Picks(picks)
}

/// Fills the sides the user picked from their rosters: type, size, weapon and upgrades as the
/// roster has them, or the element's Morale for a test. A pick that is not one of the user's
/// elements fills nothing and says so.
fn fill_from_rosters(
    cat: &Catalogue,
    picks: &Picks<ElementDoc>,
    f: &mut OddsForm,
) -> Result<(), String> {
    let upgrades = |e: &ElementDoc| options::upgrade_value(cat, &e.upgrades);
    if let Some(e) = picks.find(&f.from_s)? {
        f.s_type = e.element_type.id().to_string();
        f.s_size = e.size.id().to_string();
        f.s_weapon = e.weapon.map(|w| w.id().to_string()).unwrap_or_default();
        f.s_upgrade = upgrades(e);
    }
    if let Some(e) = picks.find(&f.from_t)? {
        f.t_type = e.element_type.id().to_string();
        f.t_size = e.size.id().to_string();
        f.t_upgrade = upgrades(e);
    }
    if let Some(e) = picks.find(&f.from_a)? {
        f.a_type = e.element_type.id().to_string();
        f.a_size = e.size.id().to_string();
        f.a_upgrade = upgrades(e);
    }
    if let Some(e) = picks.find(&f.from_d)? {
        f.d_type = e.element_type.id().to_string();
        f.d_size = e.size.id().to_string();
        f.d_upgrade = upgrades(e);
    }
    if let Some(e) = picks.find(&f.from_m)? {
        f.m_morale = lotf::profile(cat, e).morale.to_string();
    }
    Ok(())
}

pub async fn calculator(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
    form: web::Query<OddsForm>,
) -> Result<HttpResponse, AppError> {
    let cat = &state.app.rules.lotf;
    let mut f = form.into_inner();
    let picks = element_picks(cat, own_rosters(&state, &ctx, SystemId::Lotf).await?);
    let (mut s, mut m, mut mo, mut error) = (None, None, None, None);
    match fill_from_rosters(cat, &picks, &mut f) {
        Err(e) => error = Some(e),
        Ok(()) => match f.calc.as_str() {
            "shooting" => settle(shooting(cat, &f), &mut s, &mut error),
            "melee" => settle(melee(cat, &f), &mut m, &mut error),
            "morale" => settle(morale(cat, &f), &mut mo, &mut error),
            _ => {}
        },
    }
    let answered = s.is_some() || m.is_some() || mo.is_some();
    let link =
        answered.then(|| situation_link(&state, &req, &f.calc, "/lotf/odds", &situation_query(&f)));
    render(&OddsPage {
        ctx,
        types: options::types(cat),
        sizes: options::sizes(cat),
        weapons: options::all_weapons(cat),
        upgrades: options::upgrades(cat),
        ratings: ratings(cat),
        picks: picks.options(),
        pickers: pickers(),
        f,
        shooting: s,
        melee: m,
        morale: mo,
        error,
        link,
    })
}
