//! One if by Land exact odds over the API: `POST /api/v1/oibl/odds/{kind}` for each kind the
//! rules core answers (`fire`, `morale`, `melee`, `charge`, `general`, with the field names of
//! the spec's calculator section, 4.7), and the page `/oibl/odds`: a form per kind whose request
//! is that same JSON, and the answer laid out with the generic odds shell (`web::pages::odds`):
//! how the dice were built, each distribution with its "at least" view, the outcomes and the
//! rulings used. The answers are enumerations over the d10s, never sampled; the page and the API
//! call the same functions of `rules::systems::oibl::odds`, so they cannot disagree. No login
//! needed: this is pure computation, run off the request threads under the caller's work limits.

use actix_web::{post, web, HttpRequest, HttpResponse};
use askama::Template;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::app::work::Caller;
use crate::rules::systems::oibl::odds::{
    self, Applied, OddsError, Outcomes as MeleeOutcomes, KINDS,
};
use crate::rules::systems::oibl::Catalogue;
use crate::web::auth::login::client_address;
use crate::web::error::{ErrorBody, ErrorDetail};
use crate::web::page::{render, render_with_status, PageCtx};
use crate::web::pages::odds::{
    distribution, distribution_from, fact, outcomes, percent, request_forms, situation_link,
    AnswerView, Distribution, Part, RequestForm,
};
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/oibl/odds").get(odds_page));
}

pub fn configure_api(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
    cfg.service(odds_kind);
}

/// Exact One if by Land odds
///
/// Answers one odds request: `fire` (casualties of one roll on the Combat Table, with every
/// firing modifier and its edges), `morale` (pass, failed by 1, failed by 2 or more), `melee`
/// (the four outcomes over one or two rounds with the post-melee tests), `charge` (the whole
/// charge chain before contact, then the melee) or `general` (the Risk to Generals). The body
/// takes the field names of the specification's calculator section; `docs/systems/oibl.md` has
/// a complete example of each. Every answer is exact (an enumeration over the d10s) and names
/// the rulings it used.
#[utoipa::path(tag = "one-if-by-land",
    params(("kind" = String, Path, description = "fire, morale, melee, charge or general")),
    request_body(content = serde_json::Value, description = "The request of that kind"),
    responses(
        (status = 200, description = "The exact answer", body = serde_json::Value),
        (status = 400, description = "The body is not JSON", body = ErrorBody),
        (status = 422, description = "An unknown kind, or a request that cannot be answered, in words", body = ErrorBody),
        (status = 429, description = "Too much work is waiting; try again after Retry-After seconds", body = ErrorBody)
))]
#[post("/odds/{kind}")]
pub async fn odds_kind(
    req: HttpRequest,
    state: web::Data<AppState>,
    kind: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, AppError> {
    // An unknown kind is answered in words (422), naming the kinds there are.
    let kind = kind.into_inner();
    let text = std::str::from_utf8(&body)
        .ok()
        .filter(|t| serde_json::from_str::<Value>(t).is_ok())
        .map(str::to_string)
        .ok_or_else(|| AppError::BadRequest {
            message: match serde_json::from_slice::<Value>(&body) {
                Err(e) => format!("The JSON body could not be read: {e}."),
                Ok(_) => "The JSON body could not be read.".into(),
            },
            details: vec![],
        })?;
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let answer = state
        .app
        .work
        .run(&caller, move |_cancel| {
            answer_json(&rules.oibl, &kind, &text).map_err(|r| AppError::Validation {
                message: "These odds cannot be worked out.".into(),
                details: vec![ErrorDetail {
                    field: r.field,
                    message: r.message,
                }],
            })
        })
        .await??;
    Ok(HttpResponse::Ok().json(answer))
}

/// A request ready to try, for each kind (the worked examples of `docs/systems/oibl.md`).
pub fn example(kind: &str) -> &'static str {
    match kind {
        "fire" => {
            r#"{"firing_figures": 18, "firer_quality": "regular", "range_inches": 5,
 "target": {"figures": 18, "formation": "close_order"}}"#
        }
        "morale" => {
            r#"{"quality": "regular", "outflanked": true, "start_figures": 18, "figures": 9}"#
        }
        "melee" => {
            r#"{"attacker": {"quality": "regular", "figures": 2, "cavalry": true},
 "defender": {"quality": "regular", "figures": 2, "infantry": true}}"#
        }
        "charge" => {
            r#"{"attacker": {"quality": "veteran", "figures": 18, "infantry": true, "bayonets": true},
 "defender": {"quality": "regular", "figures": 18, "infantry": true, "bayonets": true}}"#
        }
        _ => r#"{"casualties": 5}"#,
    }
}

fn title(kind: &str) -> &'static str {
    match kind {
        "fire" => "Fire: one roll on the Combat Table",
        "morale" => "Morale test",
        "melee" => "Melee: the rounds and the tests after them",
        "charge" => "Charge: from the declaration to the melee",
        _ => "Risk to a general",
    }
}

fn terms(list: &[Applied]) -> Vec<String> {
    list.iter()
        .map(|m| format!("{}: {:+}", m.words, m.value))
        .collect()
}

/// A distribution of the core (values 0, 1, 2 …) as the generic table and charts.
fn counts(id: &str, caption: &str, what: &str, points: &[odds::Point]) -> Distribution {
    let mut p = Vec::new();
    for point in points {
        let at = point.value as usize;
        if p.len() <= at {
            p.resize(at + 1, 0.0);
        }
        p[at] = point.p;
    }
    distribution(id, caption, what, &p)
}

fn rulings(r: &[&str]) -> String {
    r.join(", ")
}

/// Why a request was refused: the words, and the field they concern when it can be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub field: Option<String>,
    pub message: String,
}

impl Refusal {
    /// The words as the page shows them: led by the field they concern.
    pub fn words(&self) -> String {
        match &self.field {
            Some(f) if !self.message.starts_with(f.as_str()) => format!("{f}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

impl From<OddsError> for Refusal {
    /// The rules core's words, which name the field they concern as the request spells it
    /// (`range_inches must be…`); the first such name is the field.
    fn from(e: OddsError) -> Self {
        let field =
            e.0.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .find(|w| w.contains('_') && w.starts_with(|c: char| c.is_ascii_lowercase()))
                .map(str::to_string);
        Refusal {
            field,
            message: e.0,
        }
    }
}

/// The path of the JSON value that holds byte `at` of `text` (`target.formation`,
/// `applications.1`): where a request that does not read went wrong. With `object`, the path of
/// the object holding it instead (where serde names a field that is missing or unknown).
fn path_at(text: &str, at: usize, object: bool) -> String {
    enum Level {
        Object(Option<String>),
        Array(usize),
    }
    let mut stack: Vec<Level> = Vec::new();
    let mut last_string: Option<String> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i >= at {
            break;
        }
        match c {
            '"' => {
                let mut s = String::new();
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        c => s.push(c),
                    }
                }
                last_string = Some(s);
            }
            ':' => {
                if let Some(Level::Object(key)) = stack.last_mut() {
                    *key = last_string.take();
                }
            }
            ',' => match stack.last_mut() {
                Some(Level::Array(n)) => *n += 1,
                Some(Level::Object(key)) => *key = None,
                None => {}
            },
            '{' => stack.push(Level::Object(None)),
            '[' => stack.push(Level::Array(0)),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    if object {
        if let Some(Level::Object(key)) = stack.last_mut() {
            *key = None;
        }
    }
    stack
        .iter()
        .filter_map(|l| match l {
            Level::Object(k) => k.clone(),
            Level::Array(n) => Some(n.to_string()),
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The byte offset of serde's `line` and `column` (both from 1) in `text`.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// Reads a request of one kind from its JSON text, naming the field that does not read.
fn read<T: DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    serde_json::from_str(text).map_err(|e| {
        if !e.is_data() {
            return Refusal {
                field: None,
                message: format!("The request is not JSON: {e}."),
            };
        }
        let words = e.to_string();
        // serde names an unknown or missing field itself, between backticks; the path is that
        // of the object holding it.
        let named = (words.starts_with("unknown field") || words.starts_with("missing field"))
            .then(|| words.split('`').nth(1))
            .flatten();
        let mut at = offset(text, e.line(), e.column());
        if named.is_some() {
            // A missing field is found at the end of its object: stay inside it.
            let before = text.get(..at).map_or("", str::trim_end);
            if before.ends_with('}') {
                at = before.len() - 1;
            }
        }
        let path = match named {
            Some(name) => match path_at(text, at, true) {
                object if object.is_empty() => name.to_string(),
                object => format!("{object}.{name}"),
            },
            None => path_at(text, at, false),
        };
        Refusal {
            field: (!path.is_empty()).then_some(path),
            message: format!("The request cannot be read: {words}."),
        }
    })
}

fn fire_view(cat: &Catalogue, request: &str) -> Result<AnswerView, Refusal> {
    let a = odds::fire(cat, &read(request)?)?;
    let chunks: Vec<String> = a.chunks.iter().map(u32::to_string).collect();
    let mut facts = vec![
        fact("Figures firing", a.figures_firing.to_string()),
        fact("Chunks, one d10 each (B-2)", chunks.join(" + ")),
        fact("Total modifier", format!("{:+}", a.total_modifier)),
        fact("At least one casualty", percent(a.p_at_least_one)),
        fact("Casualties on average", format!("{:.2}", a.casualties.mean)),
    ];
    if let Some(p) = a.p_gun_destroyed {
        facts.push(fact("The gun is destroyed too (B-6)", percent(p)));
    }
    Ok(AnswerView {
        dice_built: a.dice,
        parts: vec![Part {
            heading: "The fire".into(),
            facts,
            terms: terms(&a.modifiers),
            distributions: vec![counts(
                "fire-casualties",
                "Figures removed from the target",
                "Figures",
                &a.casualties.distribution,
            )],
        }],
        outcomes: vec![],
        notes: a.notes,
        rulings: rulings(&a.rulings),
        link: None,
    })
}

fn morale_view(cat: &Catalogue, request: &str) -> Result<AnswerView, Refusal> {
    let a = odds::morale(cat, &read(request)?)?;
    let mut facts = vec![fact("Morale Number", a.morale_number.to_string())];
    if a.effective_morale_number != a.morale_number {
        facts.push(fact(
            "Tested against (the Indians' steps, B-11)",
            a.effective_morale_number.to_string(),
        ));
    }
    facts.push(fact("Total modifier", format!("{:+}", a.total_modifier)));
    facts.push(fact("Needed", a.need));
    // The d10 (0–9) plus the modifiers, each total one chance in ten: it passes at the
    // number or less, fails by 1 one above it, by 2 or more beyond (B-10).
    let totals = distribution_from(
        "morale-totals",
        &format!(
            "The d10 plus modifiers (passes at {} or less)",
            a.effective_morale_number
        ),
        "Total",
        i64::from(a.total_modifier),
        &[0.1; 10],
    );
    Ok(AnswerView {
        dice_built: a.dice,
        parts: vec![Part {
            heading: "The test".into(),
            facts,
            terms: terms(&a.modifiers),
            distributions: vec![totals],
        }],
        outcomes: vec![outcomes(
            "Results",
            &[
                ("Passes", a.p_pass),
                ("Fails by 1: restricted", a.p_failed_by_1),
                ("Fails by 2 or more: routs", a.p_failed_by_2),
            ],
        )],
        notes: vec![],
        rulings: rulings(&a.rulings),
        link: None,
    })
}

fn melee_outcomes(caption: &str, o: &MeleeOutcomes) -> crate::web::pages::odds::Outcomes {
    outcomes(
        caption,
        &[
            ("The attacker wins: the defender routs", o.attacker_wins),
            ("The defender wins: the attacker routs", o.defender_wins),
            ("Both rout", o.both_rout),
            (
                "The attacker is repulsed, neither routs",
                o.attacker_repulsed,
            ),
        ],
    )
}

fn melee_view(cat: &Catalogue, request: &str) -> Result<AnswerView, Refusal> {
    let m = odds::melee(cat, &read(request)?)?;
    let side = |name: &str, mods: &[Applied], lost: &odds::Distribution| Part {
        heading: format!("The {name}"),
        facts: vec![fact("Figures lost on average", format!("{:.2}", lost.mean))],
        terms: terms(mods),
        distributions: vec![counts(
            &format!("melee-{name}-casualties"),
            &format!("Figures the {name} loses"),
            "Figures",
            &lost.distribution,
        )],
    };
    let mut parts = vec![Part {
        heading: "The melee".into(),
        facts: vec![fact("Rounds", m.rounds.to_string())],
        ..Part::default()
    }];
    parts.push(side(
        "attacker",
        &m.attacker_modifiers,
        &m.attacker_casualties,
    ));
    parts.push(side(
        "defender",
        &m.defender_modifiers,
        &m.defender_casualties,
    ));
    Ok(AnswerView {
        dice_built: m.dice,
        parts,
        outcomes: vec![melee_outcomes("How the melee ends", &m.outcomes)],
        notes: m.notes,
        rulings: rulings(&m.rulings),
        link: None,
    })
}

fn charge_view(cat: &Catalogue, request: &str) -> Result<AnswerView, Refusal> {
    let c = odds::charge(cat, &read(request)?)?;
    let e = &c.ends;
    Ok(AnswerView {
        dice_built: c.steps.join(" "),
        parts: vec![Part {
            heading: "The chain".into(),
            facts: vec![
                fact(
                    "The charger passes its declaration test",
                    percent(c.p_declaration_pass),
                ),
                fact(
                    "The defender passes its test on being charged",
                    percent(c.p_defender_pass),
                ),
                fact(
                    "The defender fails that test by 1",
                    percent(c.p_defender_failed_by_1),
                ),
                fact(
                    "The charge succeeds: the defender routs before contact or loses the melee",
                    percent(c.p_charge_succeeds),
                ),
            ],
            terms: vec![],
            distributions: vec![counts(
                "charge-fire",
                "Figures the charger loses to the defender's fire, when it fires",
                "Figures",
                &c.defender_fire,
            )],
        }],
        outcomes: vec![
            outcomes(
                "How the charge ends",
                &[
                    (
                        "The charger fails its declaration by 1 and falls back",
                        e.charger_falls_back,
                    ),
                    (
                        "The charger fails its declaration by 2 or more and routs",
                        e.charger_routs_at_declaration,
                    ),
                    (
                        "The defender routs before contact",
                        e.defender_routs_before_contact,
                    ),
                    ("The charger halts short after the fire", e.charger_halts),
                    ("The charger routs after the fire", e.charger_routs_closing),
                    ("Contact: the melee is fought", e.melee),
                ],
            ),
            melee_outcomes("The melee, out of every charge declared", &c.melee_outcomes),
        ],
        notes: vec![],
        rulings: rulings(&c.rulings),
        link: None,
    })
}

fn general_view(request: &str) -> Result<AnswerView, Refusal> {
    let g = odds::general(&read(request)?)?;
    let hurt = g.p_light_wound + g.p_serious_wound + g.p_killed;
    Ok(AnswerView {
        dice_built: g.how,
        parts: vec![Part {
            heading: "The general".into(),
            facts: vec![fact("Dice rolled", g.dice.to_string())],
            terms: vec![],
            distributions: vec![],
        }],
        outcomes: vec![
            outcomes(
                "What befalls him, exactly",
                &[
                    ("Unhurt", g.p_unhurt),
                    ("A light wound", g.p_light_wound),
                    ("A serious wound", g.p_serious_wound),
                    ("Killed", g.p_killed),
                ],
            ),
            // The results are ordered by harm, so "at least" reads down the same list.
            outcomes(
                "What befalls him, at least",
                &[
                    ("At least a light wound", hurt),
                    ("At least a serious wound", g.p_serious_wound + g.p_killed),
                    ("Killed", g.p_killed),
                ],
            ),
        ],
        notes: vec![],
        rulings: rulings(&g.rulings),
        link: None,
    })
}

fn unknown_kind(kind: &str) -> Refusal {
    Refusal {
        field: Some("kind".into()),
        message: format!(
            "'{kind}' is not a kind of odds; ask for {}.",
            KINDS.join(", ")
        ),
    }
}

/// The answer of `kind` to `request` (JSON text) laid out for the page, or the refusal.
pub fn answer_view(cat: &Catalogue, kind: &str, request: &str) -> Result<AnswerView, Refusal> {
    match kind {
        "fire" => fire_view(cat, request),
        "morale" => morale_view(cat, request),
        "melee" => melee_view(cat, request),
        "charge" => charge_view(cat, request),
        "general" => general_view(request),
        other => Err(unknown_kind(other)),
    }
}

/// The answer of `kind` to `request` (JSON text) as the API gives it: the rules core's answer,
/// from the same functions the page lays out.
pub fn answer_json(cat: &Catalogue, kind: &str, request: &str) -> Result<Value, Refusal> {
    fn json<T: serde::Serialize>(answer: Result<T, OddsError>) -> Result<Value, Refusal> {
        let answer = answer?;
        serde_json::to_value(answer).map_err(|e| Refusal {
            field: None,
            message: e.to_string(),
        })
    }
    match kind {
        "fire" => json(odds::fire(cat, &read(request)?)),
        "morale" => json(odds::morale(cat, &read(request)?)),
        "melee" => json(odds::melee(cat, &read(request)?)),
        "charge" => json(odds::charge(cat, &read(request)?)),
        "general" => json(odds::general(&read(request)?)),
        other => Err(unknown_kind(other)),
    }
}

#[derive(Template)]
#[template(path = "systems/oibl/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    forms: Vec<RequestForm>,
    kind_title: String,
    answer: Option<AnswerView>,
    error: Option<String>,
}

/// `GET /oibl/odds?kind=fire&request={…}`: the forms, and the answer to the one asked. The
/// work runs under the caller's limits, as the API's does.
pub async fn odds_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let (kind, asked, forms) = request_forms(req.query_string(), &KINDS, title, example)?;
    let mut page = OddsPage {
        ctx,
        forms,
        kind_title: title(&kind).to_string(),
        answer: None,
        error: None,
    };
    if kind.is_empty() {
        return render(&page);
    }
    let caller = Caller::Address(client_address(&req, &state));
    let rules = state.app.rules.clone();
    let (asking, text) = (kind.clone(), asked.clone());
    let answer = state
        .app
        .work
        .run(&caller, move |_cancel| {
            answer_view(&rules.oibl, &asking, &text)
        })
        .await?;
    match answer {
        Ok(mut a) => {
            let query = serde_urlencoded::to_string([("kind", &kind), ("request", &asked)])
                .unwrap_or_default();
            a.link = Some(situation_link(&state, &req, "answer", "/oibl/odds", &query));
            page.answer = Some(a);
            render(&page)
        }
        Err(refusal) => {
            page.error = Some(refusal.words());
            render_with_status(&page, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        Catalogue::builtin().expect("catalogue")
    }

    fn refused(kind: &str, request: &str) -> Refusal {
        match answer_view(&cat(), kind, request) {
            Ok(_) => panic!("{kind} {request} was answered"),
            Err(r) => r,
        }
    }

    #[test]
    fn oibl_every_example_is_answered_and_the_page_says_what_the_api_says() {
        let cat = cat();
        for kind in KINDS {
            let a = answer_view(&cat, kind, example(kind)).expect(kind);
            assert!(
                !a.dice_built.is_empty() && a.rulings.contains("B-"),
                "{kind}"
            );
            assert!(answer_json(&cat, kind, example(kind)).is_ok(), "{kind}");
        }
        // 18 regulars at 5": 0 misses, 1–3 one, 4–6 two, 7–9 three (B-2): 10 %, 30 % ×3.
        let a = answer_view(&cat, "fire", example("fire")).expect("fire");
        let d = &a.parts[0].distributions[0];
        let exactly: Vec<&str> = d.rows.iter().map(|r| r.exactly.as_str()).collect();
        let at_least: Vec<&str> = d.rows.iter().map(|r| r.at_least.as_str()).collect();
        assert_eq!(exactly, ["10.0 %", "30.0 %", "30.0 %", "30.0 %"]);
        assert_eq!(at_least, ["100.0 %", "90.0 %", "60.0 %", "30.0 %"]);
        // A Regular outflanked at half strength: totals +4 … +13, passes at 7 or less.
        let m = answer_view(&cat, "morale", example("morale")).expect("morale");
        let rows = &m.parts[0].distributions[0].rows;
        assert_eq!(rows.first().map(|r| r.count.as_str()), Some("4"));
        assert_eq!(rows.last().map(|r| r.count.as_str()), Some("13"));
        let results: Vec<&str> = m.outcomes[0]
            .rows
            .iter()
            .map(|r| r.chance.as_str())
            .collect();
        assert_eq!(results, ["40.0 %", "10.0 %", "50.0 %"]);
    }

    #[test]
    fn oibl_a_refusal_names_the_field_it_concerns() {
        let r = refused(
            "fire",
            r#"{"firing_figures": 12, "target": {"figures": 12, "cover": "thick"}}"#,
        );
        assert_eq!(r.field.as_deref(), Some("target.cover"), "{r:?}");
        assert!(r.words().starts_with("target.cover: "), "{r:?}");
        let r = refused(
            "melee",
            r#"{"attacker": {"figures": 6, "horses": 2}, "defender": {"figures": 6}}"#,
        );
        assert_eq!(r.field.as_deref(), Some("attacker.horses"), "{r:?}");
        let r = refused(
            "fire",
            "{\"firing_figures\": 12,\n \"target\": {\"cover\": \"light\"}}",
        );
        assert_eq!(r.field.as_deref(), Some("target.figures"), "{r:?}");
        let r = refused("general", r#"{"applications": [2, "three"]}"#);
        assert_eq!(r.field.as_deref(), Some("applications.1"), "{r:?}");
        // The core's own words name the field as the request spells it.
        let r = refused(
            "fire",
            r#"{"firing_figures": 12, "range_inches": -1, "target": {"figures": 12}}"#,
        );
        assert_eq!(r.field.as_deref(), Some("range_inches"), "{r:?}");
        let r = refused("morale", "{\"quality\": ");
        assert_eq!(r.field, None);
        assert!(r.message.starts_with("The request is not JSON"), "{r:?}");
        assert_eq!(refused("dice", "{}").field.as_deref(), Some("kind"));
    }
}
