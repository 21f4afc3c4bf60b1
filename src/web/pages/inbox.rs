//! The inbox: a signed-in player's notices, newest first, each linking to what it is about;
//! mark one or all read. Also the one-click unsubscribe pages of notification mails.

use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use crate::app::notifications::{self, Item, Kind};
use crate::web::auth::csrf::{CsrfForm, NoFields};
use crate::web::auth::SignedIn;
use crate::web::page::{redirect, render, PageCtx};
use crate::web::state::AppState;
use crate::web::AppError;

pub struct ItemView {
    pub id: i64,
    pub title: String,
    pub link: String,
    pub when: String,
    pub read: bool,
}

impl From<Item> for ItemView {
    fn from(i: Item) -> Self {
        Self {
            id: i.id,
            title: i.title,
            link: i.link,
            when: i.created_at.format("%-d %b %Y, %H:%M UTC").to_string(),
            read: i.read,
        }
    }
}

#[derive(Template)]
#[template(path = "inbox.html")]
struct InboxPage {
    ctx: PageCtx,
    items: Vec<ItemView>,
    unread: i64,
    older: Option<String>,
    paged: bool,
    notice: Option<&'static str>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct InboxQuery {
    before: Option<i64>,
    done: Option<String>,
}

pub async fn inbox(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    ctx: PageCtx,
    query: web::Query<InboxQuery>,
) -> Result<HttpResponse, AppError> {
    let found = notifications::inbox(&state.app, &user.actor(), query.before).await?;
    let notice = match query.done.as_deref() {
        Some("all") => Some("Everything in your inbox is marked read."),
        _ => None,
    };
    render(&InboxPage {
        ctx,
        unread: found.unread,
        older: found.next_before.map(|b| format!("/inbox?before={b}")),
        paged: query.before.is_some(),
        items: found.items.into_iter().map(ItemView::from).collect(),
        notice,
    })
}

pub async fn mark_read(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    notifications::mark_read(&state.app, &user.actor(), id.into_inner()).await?;
    Ok(redirect("/inbox"))
}

pub async fn mark_all_read(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    CsrfForm(_): CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    notifications::mark_all_read(&state.app, &user.actor()).await?;
    Ok(redirect("/inbox?done=all"))
}

// ---------- unsubscribing ----------

#[derive(Template)]
#[template(path = "unsubscribe.html")]
struct UnsubscribePage {
    ctx: PageCtx,
    action: String,
    label: &'static str,
    done: bool,
}

/// The link in a mail: a page with a button (a GET never changes anything, so a mail
/// scanner that follows links unsubscribes no one).
pub async fn unsubscribe_page(
    state: web::Data<AppState>,
    ctx: PageCtx,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let (token, kind) = path.into_inner();
    let (kind, off) = notifications::unsubscribe_target(&state.app, token.clone(), &kind).await?;
    render(&UnsubscribePage {
        ctx,
        action: notifications::unsubscribe_path(&token, kind),
        label: kind.label(),
        done: off,
    })
}

/// The button, or a mail program's one-click `List-Unsubscribe-Post` (RFC 8058), which
/// carries no CSRF token: the unguessable token in the address is what authorises it, and it
/// can only turn mail off.
pub async fn unsubscribe(
    state: web::Data<AppState>,
    ctx: PageCtx,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, AppError> {
    let (token, kind) = path.into_inner();
    let kind: Kind = notifications::unsubscribe(&state.app, token.clone(), &kind).await?;
    render(&UnsubscribePage {
        ctx,
        action: notifications::unsubscribe_path(&token, kind),
        label: kind.label(),
        done: true,
    })
}
