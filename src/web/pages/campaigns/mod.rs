//! Campaign pages: the list and the new-campaign form, joining by code, the campaign (map,
//! orders, battles, forces), a force as it stands and its reinforcements, standings, the log,
//! the map editor and the organiser's tools. Every action is a plain form POST.

mod admin;
mod deadlines;
mod force;
mod list;
mod map;
mod organiser;
mod show;
mod standings;

pub use admin::{
    change_force, delete as delete_campaign, delete_confirm, enlistment, public as public_page,
    withdraw,
};
pub use force::{buy, force, force_print, reorganise};
pub use list::{create, join, join_code, join_show, list, phase_label};
pub use map::{map_change, map_edit};
pub use organiser::{organiser, organiser_action, webhook};
pub use show::{close_turn, give_order, show, start};
pub use standings::{log_page, standings_page};

use actix_web::http::StatusCode;
use serde::Deserialize;

use crate::app;
use crate::web::page::FormErrors;
use crate::web::page::SelectOption;
use crate::web::AppError;

pub(super) fn choice(value: impl Into<String>, label: impl Into<String>) -> SelectOption {
    SelectOption {
        value: value.into(),
        label: label.into(),
    }
}

/// Turns an action's refusal into messages on the page that was submitted; other errors pass.
pub(super) fn into_form_errors(e: app::Error) -> Result<(FormErrors, StatusCode), AppError> {
    let mut errors = FormErrors::default();
    let status = match e {
        app::Error::Validation { details, .. } => {
            for d in details {
                errors.general.push(d.message);
            }
            StatusCode::UNPROCESSABLE_ENTITY
        }
        app::Error::BadRequest { message, .. } => {
            errors.general.push(message);
            StatusCode::UNPROCESSABLE_ENTITY
        }
        app::Error::Conflict(m) => {
            errors.general.push(m);
            StatusCode::CONFLICT
        }
        other => return Err(other.into()),
    };
    Ok((errors, status))
}

/// What a successful action says on the page it returns to.
pub(super) fn notice_for(done: &str) -> &'static str {
    match done {
        "order" => "Your order is in. Nobody else sees it until the turn closes; you may change it until then.",
        "last_order" => "Your order was the last one in, so the turn has closed: the orders are revealed and the moves made.",
        "started" => "The campaign has begun: orders for turn 1 are open.",
        "closed" => "The turn is closed: the orders are revealed and the moves made.",
        "bought" => "Bought: the force and its bank are updated, and the purchase is in the log.",
        "moved" => "Moved: the force is reorganised, and the move is in the log.",
        "map" => "The map is saved.",
        "changed" => "Your force is changed: the new roster is enlisted and its commanders' ratings are rolled. The log says so.",
        "withdrawn" => "Your force is withdrawn from the campaign. You may enlist again with the invite code until it starts.",
        _ => "",
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Done {
    pub done: String,
}
