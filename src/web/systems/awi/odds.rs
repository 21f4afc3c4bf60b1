//! The exact-odds page of the AWI wargames rules, `/awi/odds`: a form per kind (firing, melee,
//! test) whose request uses the specification's field names (those of
//! `POST /api/v1/awi/odds/<kind>`), and the answer laid out with the generic odds shell
//! (`web::pages::odds`): how the dice were built and the score needed, each distribution with
//! its "at least" view, the result bands and the rulings used. The numbers are the rules core's
//! enumeration over the dice (`rules::systems::awi::odds`), never sampled; the page and the API
//! call the same functions, so they cannot disagree.

use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde_json::Value;

use crate::rules::systems::awi::odds::dist::Row;
use crate::rules::systems::awi::odds::{
    firing, melee, test, FiringRequest, MeleeRequest, OddsError, Term, TestRequest, KINDS,
};
use crate::rules::systems::awi::Catalogue;
use crate::web::page::{render, render_with_status, PageCtx};
use crate::web::pages::odds::{
    distribution_from, fact, outcomes, percent, request_forms, situation_link, AnswerView,
    Distribution, Part, RequestForm,
};
use crate::web::state::AppState;
use crate::web::AppError;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/awi/odds").get(odds_page));
}

/// A request ready to try, for each kind (the worked examples of `docs/systems/awi.md`).
pub fn example(kind: &str) -> &'static str {
    match kind {
        "firing" => {
            r#"{"firer": {"type": "infantry", "grade": "trained", "bases_firing": 6},
 "target": {"type": "infantry", "general_attached": true},
 "range_inches": 4}"#
        }
        "melee" => {
            r#"{"a": {"type": "infantry", "elements": 1, "charged": true},
 "b": {"type": "infantry", "elements": 1},
 "include_entering_tests": false}"#
        }
        _ => r#"{"kind": "morale", "grade": "militia", "reason": "being_charged"}"#,
    }
}

fn title(kind: &str) -> &'static str {
    match kind {
        "firing" => "Firing",
        "melee" => "Melee",
        _ => "Tests: morale, uncontrolled, brigadier, entering melee, losers, the general",
    }
}

fn terms(ts: &[Term]) -> Vec<String> {
    ts.iter()
        .map(|t| format!("{}: {:+}", t.label, t.value))
        .collect()
}

/// The rows of a distribution as the generic table and charts (they start at the lowest value).
fn rows(id: &str, caption: &str, what: &str, rows: &[Row]) -> Distribution {
    let first = rows.first().map_or(0, |r| i64::from(r.value));
    let mut p = Vec::new();
    for r in rows {
        // The core answers every value from the lowest to the highest; a gap would be a zero.
        let at = usize::try_from(i64::from(r.value) - first).unwrap_or(0);
        if p.len() <= at {
            p.resize(at + 1, 0.0);
        }
        p[at] = r.p;
    }
    distribution_from(id, caption, what, first, &p)
}

fn need_words(need: i32) -> String {
    match need {
        n if n <= 1 => format!("{n} (every die hits, W-19)"),
        n if n >= 11 => format!("{n} (no die can hit, W-19)"),
        n => format!("{n} or more on a D10"),
    }
}

fn rulings(r: &[&str]) -> String {
    r.join(", ")
}

fn read<T: serde::de::DeserializeOwned>(request: &Value) -> Result<T, OddsError> {
    serde_json::from_value(request.clone())
        .map_err(|e| OddsError::field("request", format!("The request could not be read: {e}")))
}

fn firing_view(cat: &Catalogue, request: &Value) -> Result<AnswerView, OddsError> {
    let a = firing(cat, &read::<FiringRequest>(request)?)?;
    let mut facts = vec![
        fact("Range band", a.band.label()),
        fact("Dice", a.dice.to_string()),
        fact("Score needed before modifiers", a.base_need.to_string()),
        fact("Score needed", need_words(a.need)),
        fact(
            "Chance a die hits",
            format!("{} ({})", a.p_hit_fraction, percent(a.p_hit)),
        ),
        fact(
            "Figures killed on average",
            format!("{:.2}", a.expected_casualties),
        ),
        fact(
            "Two or more hits (a morale test, W-10)",
            percent(a.p_two_or_more),
        ),
    ];
    if let Some(p) = a.p_general_killed {
        facts.push(fact("The attached general is killed (W-29)", percent(p)));
    }
    Ok(AnswerView {
        dice_built: a.dice_built,
        parts: vec![Part {
            heading: "The fire".into(),
            facts,
            terms: terms(&a.terms),
            distributions: vec![
                rows(
                    "firing-casualties",
                    "Figures killed",
                    "Figures",
                    &a.casualties,
                ),
                rows(
                    "firing-bases",
                    "Bases lost by the target",
                    "Bases",
                    &a.bases_lost,
                ),
            ],
        }],
        outcomes: vec![],
        notes: a.notes,
        rulings: rulings(&a.rulings),
        link: None,
    })
}

fn melee_view(cat: &Catalogue, request: &Value) -> Result<AnswerView, OddsError> {
    let m = melee(cat, &read::<MeleeRequest>(request)?)?;
    let side = |name: &str, s: &crate::rules::systems::awi::odds::melee::SideAnswer| {
        let mut facts = vec![
            fact("Elements fighting", s.elements.to_string()),
            fact("Score needed", need_words(s.need)),
            fact(
                "Chance a die hits",
                format!("{} ({})", s.p_hit_fraction, percent(s.p_hit)),
            ),
            fact("Loses the melee", percent(s.p_lose)),
            fact(
                "Loses and breaks without a test",
                percent(s.p_lose_breaks_automatically),
            ),
            fact(
                "Loses and breaks on the losers test",
                percent(s.p_lose_breaks_on_test),
            ),
            fact("Loses and falls back", percent(s.p_lose_falls_back)),
        ];
        if let Some(why) = &s.automatic_break {
            facts.push(fact("Breaks on losing because", why.clone()));
        }
        if let Some(p) = s.p_general_killed {
            facts.push(fact("Its general is killed (W-29)", percent(p)));
        }
        let mut distributions = vec![rows(
            &format!("melee-{name}-casualties"),
            &format!("Side {name}: casualties suffered"),
            "Figures",
            &s.casualties_suffered,
        )];
        let mut term_words = terms(&s.terms);
        if let Some(e) = &s.entering {
            facts.push(fact(
                format!("Passes its entering test ({})", e.role),
                percent(e.p_pass),
            ));
            term_words.extend(
                terms(&e.terms)
                    .into_iter()
                    .map(|t| format!("Entering test: {t}")),
            );
            distributions.push(rows(
                &format!("melee-{name}-entering"),
                &format!("Side {name}: entering test, the modified D6"),
                "Total",
                &e.totals,
            ));
        }
        Part {
            heading: format!("Side {name}"),
            facts,
            terms: term_words,
            distributions,
        }
    };
    let parts = vec![side("a", &m.a), side("b", &m.b)];
    let mut outs = vec![outcomes(
        "Who wins the melee",
        &[
            ("Side a wins", m.p_a_wins),
            ("Drawn", m.p_draw),
            ("Side b wins", m.p_b_wins),
        ],
    )];
    if m.p_contact.is_some() {
        let every: Vec<(&str, f64)> = m
            .before_contact
            .iter()
            .chain(m.overall.iter())
            .map(|o| (o.words.as_str(), o.p))
            .collect();
        outs.push(outcomes(
            "How the charge ends, entering tests included",
            &every,
        ));
    }
    let mut notes = m.notes;
    if let Some(p) = m.p_contact {
        notes.insert(
            0,
            format!("The melee is fought in {} of charges.", percent(p)),
        );
    }
    Ok(AnswerView {
        dice_built: m.dice_built,
        parts,
        outcomes: outs,
        notes,
        rulings: rulings(&m.rulings),
        link: None,
    })
}

fn test_view(cat: &Catalogue, request: &Value) -> Result<AnswerView, OddsError> {
    let t = test(cat, &read::<TestRequest>(request)?)?;
    let bands: Vec<(String, f64)> = t
        .bands
        .iter()
        .map(|b| (format!("{} ({})", b.meaning, b.totals), b.p))
        .collect();
    let bands: Vec<(&str, f64)> = bands.iter().map(|(w, p)| (w.as_str(), *p)).collect();
    Ok(AnswerView {
        dice_built: t.dice_built,
        parts: vec![Part {
            heading: format!("The {} test", t.kind),
            facts: vec![fact("Modifier", format!("{:+}", t.modifier))],
            terms: terms(&t.terms),
            distributions: vec![rows(
                "test-totals",
                "The modified total",
                "Total",
                &t.totals,
            )],
        }],
        outcomes: vec![outcomes("Results", &bands)],
        notes: t.notes,
        rulings: rulings(&t.rulings),
        link: None,
    })
}

/// The answer of `kind` to `request` (JSON text) laid out for the page, or the refusal in words
/// naming the field.
pub fn answer_view(cat: &Catalogue, kind: &str, request: &str) -> Result<AnswerView, String> {
    let request: Value =
        serde_json::from_str(request).map_err(|e| format!("The request is not JSON: {e}."))?;
    let answer = match kind {
        "firing" => firing_view(cat, &request),
        "melee" => melee_view(cat, &request),
        _ => test_view(cat, &request),
    };
    answer.map_err(|e| {
        if e.field.is_empty() {
            e.message
        } else {
            format!("{}: {}", e.field, e.message)
        }
    })
}

#[derive(Template)]
#[template(path = "systems/awi/odds.html")]
struct OddsPage {
    ctx: PageCtx,
    forms: Vec<RequestForm>,
    kind_title: String,
    answer: Option<AnswerView>,
    error: Option<String>,
}

/// `GET /awi/odds?kind=firing&request={…}`: the forms, and the answer to the one asked.
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
    if !KINDS.contains(&kind.as_str()) {
        page.error = Some("kind: choose firing, melee or test.".into());
        return render_with_status(&page, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY);
    }
    match answer_view(&state.app.rules.awi, &kind, &asked) {
        Ok(mut a) => {
            let query = serde_urlencoded::to_string([("kind", &kind), ("request", &asked)])
                .unwrap_or_default();
            a.link = Some(situation_link(&state, &req, "answer", "/awi/odds", &query));
            page.answer = Some(a);
            render(&page)
        }
        Err(message) => {
            page.error = Some(message);
            render_with_status(&page, actix_web::http::StatusCode::UNPROCESSABLE_ENTITY)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_answered_and_the_firing_page_says_what_the_core_says() {
        let cat = Catalogue::builtin().expect("catalogue");
        for kind in KINDS {
            let a = answer_view(&cat, kind, example(kind)).expect(kind);
            assert!(!a.dice_built.is_empty() && !a.rulings.is_empty(), "{kind}");
        }
        // 6 trained bases at 4": need 7, 4/10 a die; no hit 0.6^6 = 4.7 %, at least 1 = 95.3 %.
        let a = answer_view(&cat, "firing", example("firing")).expect("firing");
        let d = &a.parts[0].distributions[0];
        assert_eq!(d.rows[0].exactly, "4.7 %");
        assert_eq!(d.rows[1].at_least, "95.3 %");
    }

    #[test]
    fn a_refusal_names_the_field() {
        let cat = Catalogue::builtin().expect("catalogue");
        let e = answer_view(
            &cat,
            "firing",
            r#"{"firer": {"type": "infantry", "bases_firing": 6}, "target": {}, "range_inches": 9}"#,
        )
        .err()
        .expect("refused");
        assert!(e.starts_with("range_inches"), "{e}");
        // A total that starts below zero keeps its own labels.
        let t = answer_view(
            &cat,
            "test",
            r#"{"kind": "entering", "grade": "militia", "in_column": true, "disordered": true}"#,
        )
        .expect("entering");
        let first = &t.parts[0].distributions[0].rows[0].count;
        assert!(first.starts_with('-'), "{first}");
    }
}
