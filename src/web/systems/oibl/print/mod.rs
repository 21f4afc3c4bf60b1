//! One if by Land printouts: unit cards, the roster sheet and the two-sided quick reference
//! (spec section 6). Every number is read from the catalogue, directly or through the rules
//! core's unit statistics, so a card cannot disagree with the checks or the odds.

pub mod cards;
pub mod pages;
pub mod reference;
pub mod sheet;

use std::collections::HashMap;

use actix_web::web::{self, ServiceConfig};
use serde::Deserialize;

pub use pages::print_roster;

/// The public quick reference, on screen and in print.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(web::resource("/oibl/reference").get(pages::reference_page));
}

/// Paper the printout is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    pub fn id(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// The generic stylesheet with this paper's `@page` rule.
    pub fn css_url(self) -> String {
        crate::web::assets::url(match self {
            Paper::A4 => "paper-a4.css",
            Paper::Letter => "paper-letter.css",
        })
    }
}

/// Cards a page: four 100 × 134 mm cards fit A4 and Letter alike (2 × 2 inside 5 mm margins).
pub const CARDS_PER_PAGE: usize = 4;

/// The print options of the query string: `?paper=a4|letter&each=1`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PrintQuery {
    pub paper: String,
    /// One card per unit instead of one per distinct unit.
    pub each: String,
}

impl PrintQuery {
    /// Reads the options; unknown keys are ignored, as the generic toolbar may send more.
    pub fn from_query(query: &str) -> Result<PrintQuery, crate::web::AppError> {
        serde_urlencoded::from_str(query).map_err(|e| {
            crate::web::AppError::bad_request(format!("The print options could not be read: {e}"))
        })
    }

    pub fn paper(&self) -> Paper {
        if self.paper.eq_ignore_ascii_case("letter") {
            Paper::Letter
        } else {
            Paper::A4
        }
    }

    pub fn one_per_unit(&self) -> bool {
        matches!(self.each.as_str(), "1" | "true" | "on" | "yes")
    }
}

/// How a force stands when it is not fresh from its roster (a campaign force): a title and what
/// happened to each unit and commander, by the roster document's ids.
#[derive(Debug, Clone, Default)]
pub struct ForceState {
    pub label: Option<String>,
    pub history: HashMap<String, Vec<String>>,
}

impl ForceState {
    pub fn history_of(state: Option<&ForceState>, id: Option<&String>) -> Vec<String> {
        match (state, id) {
            (Some(s), Some(id)) => s.history.get(id).cloned().unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}
