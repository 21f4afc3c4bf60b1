//! Notifications: the in-app inbox, e-mail (through the outbox, sent after the transaction
//! commits by `app::mail`'s sender) and per-user e-mail preferences with one-click unsubscribe.
//!
//! Other services call [`notify`] inside their own transaction, so a notice exists exactly when
//! the change it is about was stored. The campaign service calls [`campaign_events`] with the
//! entries it appends; the battles service [`result_recorded`].

use chrono::Utc;
use serde::{Deserialize, Serialize};

use crate::app::{Actor, Context, Error};
use crate::rules::campaign::state::{CampaignState, Event};
use crate::store::notifications::{self as store, NewMessage, NewNotification};
use crate::store::{users, DbConnection};

/// What a notice is about. The ids are stored (the inbox, the preferences, unsubscribe links):
/// never change one; add new kinds at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A result the other player recorded waits for this player's confirmation.
    ResultToConfirm,
    /// A battle waits for this player to attach one of their rosters.
    RosterToAttach,
    /// The opponent asks for the engine to fight a battle; accept or decline.
    EngineRequested,
    /// A campaign turn began: orders are open.
    OrdersOpen,
    /// A campaign turn closed.
    TurnClosed,
    /// A campaign turn's deadline is near and this player has not ordered yet.
    DeadlineNear,
    /// A campaign ended.
    CampaignEnded,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::ResultToConfirm,
        Kind::RosterToAttach,
        Kind::EngineRequested,
        Kind::OrdersOpen,
        Kind::TurnClosed,
        Kind::DeadlineNear,
        Kind::CampaignEnded,
    ];

    /// The stored id.
    pub fn id(self) -> &'static str {
        match self {
            Kind::ResultToConfirm => "result_to_confirm",
            Kind::RosterToAttach => "roster_to_attach",
            Kind::EngineRequested => "engine_requested",
            Kind::OrdersOpen => "orders_open",
            Kind::TurnClosed => "turn_closed",
            Kind::DeadlineNear => "deadline_near",
            Kind::CampaignEnded => "campaign_ended",
        }
    }

    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// What the preferences call it ("E-mail me when …").
    pub fn label(self) -> &'static str {
        match self {
            Kind::ResultToConfirm => "a result waits for my confirmation",
            Kind::RosterToAttach => "a battle waits for my roster",
            Kind::EngineRequested => "an opponent asks for the engine to fight a battle",
            Kind::OrdersOpen => "a campaign turn begins and orders are open",
            Kind::TurnClosed => "a campaign turn closes",
            Kind::DeadlineNear => "a turn's deadline is near and I have not given orders",
            Kind::CampaignEnded => "a campaign ends",
        }
    }
}

/// One notice to one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub user_id: i64,
    pub kind: Kind,
    /// One line, in our own words; user text in it is escaped where it is shown.
    pub title: String,
    /// A path on this site (`/battles/7`); anything else is stored as `/inbox`.
    pub link: String,
    pub campaign_id: Option<i64>,
    pub battle_id: Option<i64>,
}

/// The longest title kept; longer ones are cut with an ellipsis.
const MAX_TITLE_CHARS: usize = 200;

/// The setting that says whether this database's servers send e-mail (written at start-up
/// from `MUSTER_SMTP_URL`), so a service inside a transaction knows without the configuration.
pub const MAIL_SETTING: &str = "notifications.mail";

/// What an outbox row carries; the sender composes the message from it with its own base URL.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Payload {
    /// A notice by e-mail.
    Notice {
        title: String,
        link: String,
        kind: String,
    },
    /// A password reset link (`path` holds the token; the row's body is emptied once sent).
    PasswordReset { name: String, path: String },
    /// A campaign's webhook post.
    Webhook { content: String, link: String },
}

fn clean_title(title: &str) -> String {
    let one_line: String = title
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let one_line = one_line.trim();
    if one_line.chars().count() <= MAX_TITLE_CHARS {
        one_line.to_string()
    } else {
        let cut: String = one_line.chars().take(MAX_TITLE_CHARS - 1).collect();
        format!("{cut}…")
    }
}

/// Only paths on this site: `/` and not `//`, no backslashes, spaces or control characters.
fn clean_link(link: &str) -> String {
    let ok = link.starts_with('/')
        && !link[1..].starts_with(['/', '\\'])
        && !link
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
        && link.len() <= 500;
    if ok {
        link.to_string()
    } else {
        "/inbox".to_string()
    }
}

/// Whether this database's servers send e-mail.
pub fn mail_enabled(conn: &mut DbConnection) -> Result<bool, Error> {
    Ok(crate::store::settings::get(conn, MAIL_SETTING)?.as_deref() == Some("on"))
}

/// Stores the notices in their users' inboxes and, when the server sends e-mail and the user
/// wants this kind by e-mail, queues a mail in the outbox; all inside the caller's
/// transaction. A notice to a disabled or missing account is dropped.
/// The user has acted on a battle (confirmed or disputed its result, attached their roster):
/// what their inbox said about it is done, so it is marked read in the same transaction.
pub fn acted_on_battle(conn: &mut DbConnection, user: i64, battle: i64) -> Result<(), Error> {
    crate::store::notifications::mark_read_about_battle(conn, user, battle)?;
    Ok(())
}

pub fn notify(conn: &mut DbConnection, notices: &[Notice]) -> Result<(), Error> {
    if notices.is_empty() {
        return Ok(());
    }
    let mail = mail_enabled(conn)?;
    let now = Utc::now().naive_utc();
    for n in notices {
        let Some(user) = users::find_by_id(conn, n.user_id)? else {
            continue;
        };
        if user.disabled {
            continue;
        }
        let (title, link) = (clean_title(&n.title), clean_link(&n.link));
        store::insert(
            conn,
            &NewNotification {
                user_id: n.user_id,
                kind: n.kind.id(),
                title: &title,
                link: &link,
                campaign_id: n.campaign_id,
                battle_id: n.battle_id,
                created_at: now,
            },
        )?;
        if !mail {
            continue;
        }
        let prefs = store::prefs_or_default(conn, n.user_id, &crate::app::dice::random_token(24))?;
        if mail_off(&prefs.mail_off).contains(&n.kind) {
            continue;
        }
        let body = serde_json::to_string(&Payload::Notice {
            title: title.clone(),
            link,
            kind: n.kind.id().to_string(),
        })
        .map_err(Error::internal)?;
        let unsubscribe = unsubscribe_path(&prefs.unsubscribe_token, n.kind);
        store::enqueue(
            conn,
            &NewMessage {
                channel: store::MAIL,
                target: &user.email,
                subject: &title,
                body: &body,
                unsubscribe_url: Some(&unsubscribe),
            },
        )?;
    }
    Ok(())
}

fn mail_off(stored: &str) -> Vec<Kind> {
    stored
        .split(',')
        .filter_map(|id| Kind::from_id(id.trim()))
        .collect()
}

fn store_mail_off(kinds: &[Kind]) -> String {
    let mut ids: Vec<&str> = kinds.iter().map(|k| k.id()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.join(",")
}

/// The one-click unsubscribe path of a user's mails of one kind.
pub fn unsubscribe_path(token: &str, kind: Kind) -> String {
    format!("/unsubscribe/{token}/{}", kind.id())
}

// ---------- what existing services notify ----------

/// A result was recorded (or a correction recorded) and waits for the other player: the
/// notice goes to them. Call inside the transaction that stored it.
pub fn result_recorded(
    conn: &mut DbConnection,
    battle_id: i64,
    title: &str,
    recorded_by: i64,
    players: [Option<i64>; 2],
) -> Result<(), Error> {
    let notices: Vec<Notice> = players
        .into_iter()
        .flatten()
        .filter(|p| *p != recorded_by)
        .map(|user_id| Notice {
            user_id,
            kind: Kind::ResultToConfirm,
            title: format!("A result of {title} waits for your confirmation"),
            link: format!("/battles/{battle_id}"),
            campaign_id: None,
            battle_id: Some(battle_id),
        })
        .collect();
    notify(conn, &notices)
}

/// A campaign and the entries just appended to its log: the state after them, who acted.
pub struct CampaignChange<'a> {
    pub campaign_id: i64,
    pub name: &'a str,
    pub organiser_id: i64,
    /// Who made the change (not told of it); `None` for battles brought in.
    pub actor: Option<i64>,
    pub after: &'a CampaignState,
    /// Each appended entry with the turn it was logged under and its words.
    pub entries: Vec<(u32, &'a Event, &'a str)>,
}

/// Derives the notices (orders open, turn closed, campaign ended) and the webhook posts (turn
/// closings, finished battles) from entries appended to a campaign's log, inside the
/// transaction that appends them. Orders are never named: a turn closing says only which
/// battles it set.
pub fn campaign_events(conn: &mut DbConnection, change: &CampaignChange<'_>) -> Result<(), Error> {
    let st = change.after;
    let id = change.campaign_id;
    let link = format!("/campaigns/{id}");
    let mut members: Vec<i64> = st.forces.values().map(|f| f.user).collect();
    members.push(change.organiser_id);
    members.sort_unstable();
    members.dedup();
    let players: Vec<i64> = {
        let mut p: Vec<i64> = st.forces.values().map(|f| f.user).collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    let told = |user: &i64| Some(*user) != change.actor;
    let mut notices = Vec::new();
    let mut posts: Vec<String> = Vec::new();
    let name = change.name;
    for (i, (turn, event, words)) in change.entries.iter().enumerate() {
        match event {
            Event::Started | Event::TurnBegan { .. } => {
                // The start opens the first turn's orders.
                let turn = match event {
                    Event::TurnBegan { turn } => *turn,
                    _ => 1,
                };
                for user in players.iter().filter(|u| told(u)) {
                    notices.push(Notice {
                        user_id: *user,
                        kind: Kind::OrdersOpen,
                        title: format!("{name}: turn {turn} began; orders are open"),
                        link: link.clone(),
                        campaign_id: Some(id),
                        battle_id: None,
                    });
                }
            }
            Event::TurnClosed { .. } => {
                // The battles this closing set, from the entries that follow it.
                let battles: Vec<&crate::rules::campaign::state::CampaignBattle> = change.entries
                    [i + 1..]
                    .iter()
                    .filter_map(|(_, e, _)| match e {
                        Event::BattleSet { battle, .. } => Some(battle),
                        _ => None,
                    })
                    .collect();
                let force_label = |force: &str| {
                    st.forces
                        .get(force)
                        .map(|f| format!("{} ({})", f.roster.name(), f.player))
                        .unwrap_or_else(|| force.to_string())
                };
                for user in members.iter().filter(|u| told(u)) {
                    let mine = battles.iter().find(|b| {
                        [&b.attacker, &b.defender]
                            .iter()
                            .any(|f| st.forces.get(f.as_str()).is_some_and(|f| f.user == *user))
                    });
                    let (title, to, battle_id) = match mine {
                        Some(b) => (
                            format!("{name}: turn {turn} closed; you fight at {}", b.name),
                            format!("/battles/{}", b.record),
                            Some(b.record),
                        ),
                        None => (
                            format!(
                                "{name}: turn {turn} closed; {}",
                                match battles.len() {
                                    0 => "no battles".to_string(),
                                    1 => "one battle to fight".to_string(),
                                    n => format!("{n} battles to fight"),
                                }
                            ),
                            link.clone(),
                            None,
                        ),
                    };
                    notices.push(Notice {
                        user_id: *user,
                        kind: Kind::TurnClosed,
                        title,
                        link: to,
                        campaign_id: Some(id),
                        battle_id,
                    });
                }
                let mut text = format!("**{name}**: turn {turn} closed.");
                if battles.is_empty() {
                    text.push_str(" No battles this turn.");
                }
                for b in &battles {
                    text.push_str(&format!(
                        " Battle {}: {} attacks {} at {}.",
                        b.no,
                        force_label(&b.attacker),
                        force_label(&b.defender),
                        b.name
                    ));
                }
                posts.push(text);
            }
            Event::BattleFought { .. } => {
                posts.push(format!("**{name}**: {words}"));
            }
            Event::Ended { reason } => {
                for user in members.iter().filter(|u| told(u)) {
                    notices.push(Notice {
                        user_id: *user,
                        kind: Kind::CampaignEnded,
                        title: format!("{name} has ended. {reason}"),
                        link: format!("{link}/standings"),
                        campaign_id: Some(id),
                        battle_id: None,
                    });
                }
                posts.push(format!("**{name}** has ended. {reason}"));
            }
            _ => {}
        }
    }
    notify(conn, &notices)?;
    if !posts.is_empty() {
        if let Some(url) = store::webhook(conn, id)? {
            for content in posts {
                let body = serde_json::to_string(&Payload::Webhook {
                    content,
                    link: link.clone(),
                })
                .map_err(Error::internal)?;
                store::enqueue(
                    conn,
                    &NewMessage {
                        channel: store::WEBHOOK,
                        target: &url,
                        subject: "",
                        body: &body,
                        unsubscribe_url: None,
                    },
                )?;
            }
        }
    }
    Ok(())
}

// ---------- the inbox ----------

/// One notice as the inbox shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Item {
    pub id: i64,
    /// The kind's id (`result_to_confirm`, `orders_open`, …).
    pub kind: String,
    pub title: String,
    /// A path on this site.
    pub link: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub battle_id: Option<i64>,
    /// When it was made (UTC).
    #[schema(value_type = String, format = DateTime)]
    pub created_at: chrono::NaiveDateTime,
    pub read: bool,
}

/// A page of the inbox: the newest notices, and where the next page starts.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Inbox {
    pub items: Vec<Item>,
    pub unread: i64,
    /// Pass as `before` for older notices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_before: Option<i64>,
}

pub const INBOX_PAGE: i64 = 50;

/// The actor's own notices, newest first.
pub async fn inbox(ctx: &Context, actor: &Actor, before: Option<i64>) -> Result<Inbox, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let mut rows = store::list(conn, uid, before, INBOX_PAGE + 1)?;
        let more = rows.len() as i64 > INBOX_PAGE;
        rows.truncate(INBOX_PAGE as usize);
        let next_before = more.then(|| rows.last().map(|r| r.id)).flatten();
        let unread = store::unread_count(conn, uid)?;
        Ok(Inbox {
            items: rows
                .into_iter()
                .map(|r| Item {
                    id: r.id,
                    kind: r.kind,
                    title: r.title,
                    link: r.link,
                    campaign_id: r.campaign_id,
                    battle_id: r.battle_id,
                    created_at: r.created_at,
                    read: r.read_at.is_some(),
                })
                .collect(),
            unread,
            next_before,
        })
    })
    .await
}

/// The actor's unread count, for the navigation's badge (one indexed count).
pub async fn unread_count(ctx: &Context, user_id: i64) -> Result<i64, Error> {
    ctx.with_conn(move |conn| Ok(store::unread_count(conn, user_id)?))
        .await
}

/// Marks one of the actor's own notices read; another user's is not found.
pub async fn mark_read(ctx: &Context, actor: &Actor, id: i64) -> Result<(), Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        if store::mark_read(conn, uid, id)? {
            Ok(())
        } else {
            Err(Error::NotFound)
        }
    })
    .await
}

/// Marks every notice of the actor read; answers how many were unread.
pub async fn mark_all_read(ctx: &Context, actor: &Actor) -> Result<usize, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| Ok(store::mark_all_read(conn, uid)?))
        .await
}

// ---------- preferences and unsubscribing ----------

/// Which kinds the actor gets by e-mail, and whether this server sends e-mail at all.
#[derive(Debug, Clone)]
pub struct Preferences {
    pub mail_enabled: bool,
    pub kinds: Vec<(Kind, bool)>,
}

pub async fn preferences(ctx: &Context, actor: &Actor) -> Result<Preferences, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        let off = store::prefs(conn, uid)?
            .map(|p| mail_off(&p.mail_off))
            .unwrap_or_default();
        Ok(Preferences {
            mail_enabled: mail_enabled(conn)?,
            kinds: Kind::ALL.iter().map(|k| (*k, !off.contains(k))).collect(),
        })
    })
    .await
}

/// Sets which kinds the actor gets by e-mail (every other kind is off).
pub async fn set_preferences(ctx: &Context, actor: &Actor, on: Vec<Kind>) -> Result<(), Error> {
    let uid = actor.id;
    let off: Vec<Kind> = Kind::ALL.into_iter().filter(|k| !on.contains(k)).collect();
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            store::prefs_or_default(conn, uid, &crate::app::dice::random_token(24))?;
            store::set_mail_off(conn, uid, &store_mail_off(&off))?;
            Ok(())
        })
    })
    .await
}

/// What an unsubscribe link stops: the kind, and whether it is already off. `NotFound` for a
/// token that is no one's.
pub async fn unsubscribe_target(
    ctx: &Context,
    token: String,
    kind: &str,
) -> Result<(Kind, bool), Error> {
    let kind = Kind::from_id(kind).ok_or(Error::NotFound)?;
    if token.len() > 100 {
        return Err(Error::NotFound);
    }
    ctx.with_conn(move |conn| {
        let prefs = store::prefs_by_token(conn, &token)?.ok_or(Error::NotFound)?;
        Ok((kind, mail_off(&prefs.mail_off).contains(&kind)))
    })
    .await
}

/// Stops the mails of one kind to the owner of an unsubscribe token (no login needed: the
/// token is unguessable and only ever turns mail off).
pub async fn unsubscribe(ctx: &Context, token: String, kind: &str) -> Result<Kind, Error> {
    let kind = Kind::from_id(kind).ok_or(Error::NotFound)?;
    if token.len() > 100 {
        return Err(Error::NotFound);
    }
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| {
            let prefs = store::prefs_by_token(conn, &token)?.ok_or(Error::NotFound)?;
            let mut off = mail_off(&prefs.mail_off);
            off.push(kind);
            store::set_mail_off(conn, prefs.user_id, &store_mail_off(&off))?;
            Ok(kind)
        })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_ids_round_trip_and_are_unique() {
        let mut ids: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
        for k in Kind::ALL {
            assert_eq!(Kind::from_id(k.id()), Some(k));
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Kind::ALL.len());
    }

    #[test]
    fn links_stay_on_this_site_and_titles_on_one_line() {
        assert_eq!(clean_link("/battles/3"), "/battles/3");
        for evil in ["//evil.example", "https://evil.example", "/\\x", "/a b"] {
            assert_eq!(clean_link(evil), "/inbox", "{evil}");
        }
        assert_eq!(clean_title(" a\nb "), "a b");
        assert_eq!(
            clean_title(&"x".repeat(500)).chars().count(),
            MAX_TITLE_CHARS
        );
    }

    #[test]
    fn mail_off_lists_read_back() {
        let stored = store_mail_off(&[Kind::TurnClosed, Kind::OrdersOpen, Kind::TurnClosed]);
        assert_eq!(stored, "orders_open,turn_closed");
        assert_eq!(mail_off(&stored), vec![Kind::OrdersOpen, Kind::TurnClosed]);
        assert!(mail_off("").is_empty());
    }
}
