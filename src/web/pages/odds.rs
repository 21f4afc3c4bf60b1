//! The generic shell of every rule system's odds page: charts and tables built from one list of
//! rows (so they cannot disagree), the cumulative "at least" view beside "exactly", the picker
//! that fills a side of the situation from an element of one of the user's own rosters, and the
//! link that reproduces a situation. Each system's `odds.rs` works the odds out and fills these.

use actix_web::web;
use serde::Serialize;

use crate::app::rosters as roster_store;
use crate::rules::systems::AnyRoster;
use crate::rules::SystemId;
use crate::web::page::{PageCtx, SelectOption};
use crate::web::state::AppState;
use crate::web::AppError;

/// One bar of a chart: label, the probability as shown, and its place in the SVG.
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

/// Bars scaled so the most likely outcome fills the chart; each shows its probability.
pub fn chart(title: &str, points: &[(String, f64)]) -> Chart {
    let shown: Vec<(String, f64, String)> = points
        .iter()
        .map(|(label, p)| (label.clone(), *p, format!("{:.1}%", p * 100.0)))
        .collect();
    chart_of(title, &shown)
}

/// Bars of `(label, probability, probability as the page shows it)`: the height comes from the
/// number, the words on the bar are the caller's, so a chart can say exactly what its table says.
fn chart_of(title: &str, points: &[(String, f64, String)]) -> Chart {
    let max = points
        .iter()
        .map(|(_, p, _)| *p)
        .fold(0.0_f64, f64::max)
        .max(1e-12);
    let bars = points
        .iter()
        .enumerate()
        .map(|(i, (label, p, shown))| {
            let height = ((p / max) * f64::from(CHART_HEIGHT - 20)).round() as u32;
            Bar {
                label: label.clone(),
                percent: shown.clone(),
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

/// A probability as every odds table shows it: "12.3 %".
pub fn percent(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

/// One row of a count's distribution: the chance of exactly `count`, and of `count` or more.
pub struct CountRow {
    pub count: String,
    pub exactly: String,
    pub at_least: String,
}

/// A count (hits, successes) as one table with both columns and a chart of either column. The
/// chart's bars and the table's cells come from the same rows, with the same rounding.
pub struct Distribution {
    /// Unique on the page: names the chart toggle.
    pub id: String,
    pub caption: String,
    /// The column head of the count, "Hits".
    pub what: String,
    pub rows: Vec<CountRow>,
    pub exactly_chart: Chart,
    pub at_least_chart: Chart,
}

/// `probabilities[k]` is the chance of exactly `k`. Rows stop where "k or more" would show as
/// 0.0 %: every row left out rounds to nothing in both columns.
pub fn distribution(id: &str, caption: &str, what: &str, probabilities: &[f64]) -> Distribution {
    distribution_from(id, caption, what, 0, probabilities)
}

/// As [`distribution`], for a total whose lowest value is `first` (a modified die roll can start
/// below zero or above it): `probabilities[k]` is the chance of exactly `first + k`.
pub fn distribution_from(
    id: &str,
    caption: &str,
    what: &str,
    first: i64,
    probabilities: &[f64],
) -> Distribution {
    let mut at_least = vec![0.0; probabilities.len()];
    let mut tail = 0.0;
    for k in (0..probabilities.len()).rev() {
        tail += probabilities[k];
        at_least[k] = tail.min(1.0);
    }
    let shown = at_least
        .iter()
        .rposition(|p| *p >= 0.0005)
        .map_or(probabilities.len().min(1), |k| k + 1);
    let rows: Vec<(String, f64, f64)> = (0..shown)
        .map(|k| {
            (
                (first + k as i64).to_string(),
                probabilities[k],
                at_least[k],
            )
        })
        .collect();
    let exactly: Vec<(String, f64, String)> = rows
        .iter()
        .map(|(k, p, _)| (k.clone(), *p, percent(*p)))
        .collect();
    let or_more: Vec<(String, f64, String)> = rows
        .iter()
        .map(|(k, _, p)| (format!("{k}+"), *p, percent(*p)))
        .collect();
    Distribution {
        id: id.to_string(),
        caption: caption.to_string(),
        what: what.to_string(),
        exactly_chart: chart_of(&format!("{caption}: exactly"), &exactly),
        at_least_chart: chart_of(&format!("{caption}: at least"), &or_more),
        rows: exactly
            .into_iter()
            .zip(or_more)
            .map(|((count, _, exactly), (_, _, at_least))| CountRow {
                count,
                exactly,
                at_least,
            })
            .collect(),
    }
}

/// One outcome of a few (attacker wins, tie, defender wins) and its chance as shown.
pub struct OutcomeRow {
    pub label: String,
    pub chance: String,
}

/// Outcomes that are not a count: a small table and its chart, from the same rows.
pub struct Outcomes {
    pub caption: String,
    pub rows: Vec<OutcomeRow>,
    pub chart: Chart,
}

pub fn outcomes(caption: &str, points: &[(&str, f64)]) -> Outcomes {
    let shown: Vec<(String, f64, String)> = points
        .iter()
        .map(|(label, p)| (label.to_string(), *p, percent(*p)))
        .collect();
    Outcomes {
        caption: caption.to_string(),
        chart: chart_of(caption, &shown),
        rows: shown
            .into_iter()
            .map(|(label, _, chance)| OutcomeRow { label, chance })
            .collect(),
    }
}

/// The query string of a situation: every field that holds something, so that opening
/// `path?query` shows the same situation and the same result. Fields marked
/// `skip_serializing` (a roster pick) stay out: the link must work for anyone.
pub fn situation_query<T: Serialize>(form: &T) -> String {
    let fields: Vec<(String, String)> = match serde_json::to_value(form) {
        Ok(serde_json::Value::Object(map)) => map
            .into_iter()
            .filter_map(|(k, v)| match v {
                serde_json::Value::String(s) if !s.trim().is_empty() => Some((k, s)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    serde_urlencoded::to_string(&fields).unwrap_or_default()
}

/// The link that reproduces a situation, shown with the result.
pub struct SituationLink {
    /// Unique on the page: the input's id.
    pub id: String,
    /// Absolute, for pasting anywhere.
    pub url: String,
}

pub fn situation_link(
    state: &AppState,
    req: &actix_web::HttpRequest,
    id: &str,
    path: &str,
    query: &str,
) -> SituationLink {
    SituationLink {
        id: format!("{id}-link"),
        url: state.absolute_url(req, &format!("{path}?{query}#{id}")),
    }
}

/// An element of one of the user's rosters that can fill a side of a situation: the select's
/// value (`roster id:element id`), its label ("Roster — Element") and the system's values.
pub struct Pick<T> {
    pub value: String,
    pub label: String,
    pub element: T,
}

pub fn pick_value(roster_id: i64, element_id: &str) -> String {
    format!("{roster_id}:{element_id}")
}

/// The elements a signed-in user may fill a situation from. Only their own rosters are ever
/// loaded, so a pick naming anyone else's roster finds nothing.
pub struct Picks<T>(pub Vec<Pick<T>>);

impl<T> Picks<T> {
    pub fn none() -> Self {
        Picks(Vec::new())
    }

    pub fn options(&self) -> Vec<SelectOption> {
        self.0
            .iter()
            .map(|p| SelectOption {
                value: p.value.clone(),
                label: p.label.clone(),
            })
            .collect()
    }

    /// The element a picker names: none when nothing was picked, a message when the pick is
    /// not an element of one of the user's rosters (someone else's, deleted, or made up).
    pub fn find(&self, value: &str) -> Result<Option<&T>, String> {
        if value.trim().is_empty() {
            return Ok(None);
        }
        self.0
            .iter()
            .find(|p| p.value == value)
            .map(|p| Some(&p.element))
            .ok_or_else(|| {
                "That element is not in any of your rosters; choose one from the list.".to_string()
            })
    }
}

/// Keeps a calculator's answer in its slot, or its refusal as the page's error.
pub fn settle<T>(answer: Result<T, String>, slot: &mut Option<T>, error: &mut Option<String>) {
    match answer {
        Ok(a) => *slot = Some(a),
        Err(e) => *error = Some(e),
    }
}

/// The rosters a picker offers at most: the most recent ones, so a collector's hundreds of
/// rosters do not make every odds page read them all.
pub const PICK_ROSTERS: usize = 40;

/// The signed-in user's rosters of `system` (the [`PICK_ROSTERS`] latest), read as that system's
/// documents, with their ids and names; none for a visitor. A roster that no longer reads, or a
/// store that does not answer, leaves the picker out rather than failing the page: the picker is
/// a convenience on a page that works without the store.
pub async fn own_rosters<R: TryFrom<AnyRoster>>(
    state: &web::Data<AppState>,
    ctx: &PageCtx,
    system: SystemId,
) -> Result<Vec<(i64, String, R)>, AppError> {
    let Some(user) = &ctx.user else {
        return Ok(Vec::new());
    };
    let rows = match roster_store::list(&state.app, &user.actor(), None).await {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!(error = %e, "the odds page's roster picker could not list rosters");
            return Ok(Vec::new());
        }
    };
    Ok(rows
        .iter()
        .filter(|r| r.rule_system == system.id())
        .take(PICK_ROSTERS)
        .filter_map(|r| {
            roster_store::parse_stored_as::<R>(&state.app.rules, r)
                .ok()
                .map(|doc| (r.id, r.name.clone(), doc))
        })
        .collect())
}

/// One form of a page of calculators that take a JSON request (one form per kind): its kind, its
/// heading and the request it shows (the one asked, or the kind's example).
pub struct RequestForm {
    pub kind: &'static str,
    pub title: &'static str,
    pub request: String,
}

/// What such a page was asked (`?kind=…&request=…`: empty when nothing was) and its forms.
pub fn request_forms(
    query_string: &str,
    kinds: &[&'static str],
    title: fn(&str) -> &'static str,
    example: fn(&str) -> &'static str,
) -> Result<(String, String, Vec<RequestForm>), AppError> {
    let query: Vec<(String, String)> = serde_urlencoded::from_str(query_string)
        .map_err(|_| AppError::bad_request("The address could not be read."))?;
    let get = |k: &str| {
        query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let (kind, asked) = (get("kind"), get("request"));
    let forms = kinds
        .iter()
        .map(|k| RequestForm {
            kind: k,
            title: title(k),
            request: if *k == kind && !asked.trim().is_empty() {
                asked.clone()
            } else {
                example(k).to_string()
            },
        })
        .collect();
    Ok((kind, asked, forms))
}

/// A label and its value, as the answer of a JSON-request calculator lists its facts.
pub struct Fact {
    pub label: String,
    pub value: String,
}

pub fn fact(label: impl Into<String>, value: impl Into<String>) -> Fact {
    Fact {
        label: label.into(),
        value: value.into(),
    }
}

/// One part of such an answer: a side of a melee, or the whole of a fire or a test.
#[derive(Default)]
pub struct Part {
    pub heading: String,
    pub facts: Vec<Fact>,
    /// The modifiers, in words with their values.
    pub terms: Vec<String>,
    pub distributions: Vec<Distribution>,
}

/// The answer of a calculator whose requests are JSON, laid out for the page: how the dice were
/// built, its parts, the outcomes that are not counts, notes, the rulings used and the link
/// that asks it again (`_chart.html`'s `answer` macro shows it).
#[derive(Default)]
pub struct AnswerView {
    pub dice_built: String,
    pub parts: Vec<Part>,
    pub outcomes: Vec<Outcomes>,
    pub notes: Vec<String>,
    pub rulings: String,
    pub link: Option<SituationLink>,
}

/// One side of a situation that a roster element can fill: the select's name and label.
pub struct Picker {
    pub name: String,
    pub label: String,
}

pub fn picker(name: &str, label: &str) -> Picker {
    Picker {
        name: name.to_string(),
        label: label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_is_the_tail_sum_and_rows_stop_where_both_round_to_nothing() {
        let d = distribution("x", "Hits", "Hits", &[0.5, 0.3, 0.19, 0.0099, 0.0001]);
        let at_least: Vec<&str> = d.rows.iter().map(|r| r.at_least.as_str()).collect();
        assert_eq!(at_least, ["100.0 %", "50.0 %", "20.0 %", "1.0 %"]);
        let bars: Vec<&str> = d
            .exactly_chart
            .bars
            .iter()
            .map(|b| b.percent.as_str())
            .collect();
        let cells: Vec<&str> = d.rows.iter().map(|r| r.exactly.as_str()).collect();
        assert_eq!(bars, cells, "the chart says what the table says");
    }

    #[test]
    fn a_situation_query_keeps_only_filled_fields() {
        #[derive(Serialize)]
        struct F {
            calc: String,
            range: String,
            empty: String,
            #[serde(skip_serializing)]
            from_s: String,
        }
        impl F {
            fn pick(&self) -> &str {
                &self.from_s
            }
        }
        let form = F {
            calc: "shooting".into(),
            range: "6 & more".into(),
            empty: String::new(),
            from_s: "12:e1".into(),
        };
        let q = situation_query(&form);
        assert_eq!(
            q,
            "calc=shooting&range=6+%26+more",
            "{} stays out",
            form.pick()
        );
    }
}
