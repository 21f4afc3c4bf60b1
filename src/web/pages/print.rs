//! Print pages of a roster (its owner's, or anyone's with its share link): the roster's system
//! lays them out.

use actix_web::{web, HttpRequest, HttpResponse};

use crate::app::rosters;
use crate::web::auth::SignedIn;
use crate::web::page::PageCtx;
use crate::web::state::AppState;
use crate::web::systems::pages_for_stored;
use crate::web::AppError;

/// `/rosters/{id}/print/{cards|sheet}`: the owner's roster.
pub async fn roster_print(
    req: HttpRequest,
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, AppError> {
    let (id, kind) = path.into_inner();
    let row = rosters::load_owned_row(&state.app, &user.actor(), id).await?;
    let action = format!("/rosters/{id}/print/{kind}");
    pages_for_stored(&row.rule_system)?.print_roster(
        &state,
        ctx,
        &row,
        &kind,
        req.query_string(),
        action,
    )
}

/// `/shared/{token}/print/{cards|sheet}`: anyone with the share link.
pub async fn shared_print(
    req: HttpRequest,
    state: web::Data<AppState>,
    ctx: PageCtx,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let (token, kind) = path.into_inner();
    let action = format!("/shared/{token}/print/{kind}");
    let row = rosters::load_shared_row(&state.app, token).await?;
    pages_for_stored(&row.rule_system)?.print_roster(
        &state,
        ctx,
        &row,
        &kind,
        req.query_string(),
        action,
    )
}

/// The colour a force's printouts carry: a band across each card and the sheet's head, so a
/// player tells the two sides' cards apart on the table. Each system picks it from its nation or
/// army list (issue 18); the classes are in `static/print.css`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideColour {
    /// Red coats: the British and the Crown's lists.
    Red,
    /// Continental and American blue.
    Blue,
    /// A lighter blue for France, told apart from the Americans she fought beside.
    RoyalBlue,
    /// Dark green for the German regiments.
    Green,
    /// Ochre for the Native Confederation.
    Ochre,
}

impl SideColour {
    pub fn class(self) -> &'static str {
        match self {
            SideColour::Red => "side-red",
            SideColour::Blue => "side-blue",
            SideColour::RoyalBlue => "side-royal",
            SideColour::Green => "side-green",
            SideColour::Ochre => "side-ochre",
        }
    }
}

/// The troop-type symbol a card's headline carries: the map symbols wargamers know (a framed
/// cross for foot, a diagonal for horse, a disc for guns). `templates/print/_icons.html` draws
/// them; each system maps its own types onto these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeIcon {
    Infantry,
    /// Light troops in open order: the foot symbol in a broken frame.
    Skirmishers,
    Cavalry,
    /// Horse fighting on foot: the horse diagonal with the foot's base line.
    DismountedCavalry,
    Artillery,
}

impl TypeIcon {
    pub fn id(self) -> &'static str {
        match self {
            TypeIcon::Infantry => "infantry",
            TypeIcon::Skirmishers => "skirmishers",
            TypeIcon::Cavalry => "cavalry",
            TypeIcon::DismountedCavalry => "dismounted",
            TypeIcon::Artillery => "artillery",
        }
    }
}

/// Names for a card's line of names: as many as fit in `budget` characters, then "and N more"
/// (the roster sheet lists them all). A single name longer than the budget is cut with an
/// ellipsis. Cards have fixed boxes, so what a roster may hold must never push the stat line off
/// the card (issue 18).
pub fn names_within(names: &[String], budget: usize) -> String {
    list_within(names, ", ", budget)
}

/// [`names_within`] with another separator.
pub fn list_within(names: &[String], sep: &str, budget: usize) -> String {
    let gap = sep.chars().count();
    let total: usize = names.iter().map(|n| n.chars().count()).sum::<usize>()
        + names.len().saturating_sub(1) * gap;
    if total <= budget {
        return names.join(sep);
    }
    let mut line = String::new();
    let mut used = 0;
    let mut shown = 0;
    for name in names {
        let more = names.len() - shown - 1;
        let tail = if more == 0 {
            0
        } else {
            format!(" and {more} more").len()
        };
        let len = name.chars().count() + if shown == 0 { 0 } else { gap };
        if used + len + tail > budget {
            break;
        }
        if shown > 0 {
            line.push_str(sep);
        }
        line.push_str(name);
        used += len;
        shown += 1;
    }
    if shown == 0 {
        // Not even the first name fits beside the count of the others: cut it.
        let more = names.len() - 1;
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" and {more} more")
        };
        let keep = budget.saturating_sub(tail.len() + 1).max(1);
        let cut: String = names[0].chars().take(keep).collect();
        return format!("{}…{tail}", cut.trim_end());
    }
    if shown < names.len() {
        line.push_str(&format!(" and {} more", names.len() - shown));
    }
    line
}

/// At most `keep` lines for a card; when there are more, the last says how many more the roster
/// sheet holds.
pub fn lines_within(lines: &[String], keep: usize) -> Vec<String> {
    if lines.len() <= keep {
        return lines.to_vec();
    }
    let shown = keep.saturating_sub(1);
    let mut out = lines[..shown].to_vec();
    out.push(format!(
        "… and {} more on the roster sheet",
        lines.len() - shown
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::{lines_within, names_within};

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("{i}th Virginia")).collect()
    }

    #[test]
    fn a_short_list_of_names_is_printed_whole() {
        assert_eq!(
            names_within(&names(3), 120),
            "1th Virginia, 2th Virginia, 3th Virginia"
        );
    }

    #[test]
    fn a_long_list_of_names_ends_with_how_many_more() {
        let line = names_within(&names(33), 60);
        assert!(line.chars().count() <= 60, "{line}");
        assert!(line.starts_with("1th Virginia, 2th Virginia"), "{line}");
        assert!(line.ends_with(" and 30 more"), "{line}");
    }

    #[test]
    fn a_name_longer_than_the_line_is_cut() {
        let long = vec!["x".repeat(200), "Second".into()];
        let line = names_within(&long, 50);
        assert!(line.chars().count() <= 50, "{line}");
        assert!(line.ends_with("… and 1 more"), "{line}");
        assert_eq!(names_within(&long[..1], 10).chars().count(), 10);
    }

    #[test]
    fn lines_past_the_limit_are_counted_not_printed() {
        let lines: Vec<String> = (1..=5).map(|i| format!("event {i}")).collect();
        assert_eq!(lines_within(&lines, 5), lines);
        assert_eq!(
            lines_within(&lines, 3),
            ["event 1", "event 2", "… and 3 more on the roster sheet"]
        );
    }
}
