//! A player's own data (issue 19): everything Muster holds about them as one JSON document, and
//! deleting their account. Deleting removes their rosters, their battles nobody fought and their
//! sessions; the account row stays as a tombstone named "Former player N" so that battles and
//! campaign logs they took part in keep a neutral name in their place (their name is rewritten
//! out of the campaign logs and states too). See docs/own-data.md.

use serde::Serialize;
use serde_json::Value;

use crate::app::accounts::verify_password;
use crate::app::campaigns::phase_id;
use crate::app::{blocking, input, Actor, Context, Error};
use crate::rules::campaign::state::Phase;
use crate::store::campaigns::{self as campaigns_store, CampaignRow};
use crate::store::{battles, own_data, rosters, sessions, users, DbConnection};

/// The `format` of the export document.
pub const EXPORT_FORMAT: &str = "muster.account-export/1";

#[derive(Debug, Serialize)]
pub struct Export {
    pub format: &'static str,
    pub exported_at: String,
    pub account: AccountPart,
    pub rosters: Vec<RosterPart>,
    pub battles: Vec<BattlePart>,
    pub campaigns: Vec<CampaignPart>,
    /// Their inbox, newest first.
    pub notices: Vec<NoticePart>,
}

#[derive(Debug, Serialize)]
pub struct NoticePart {
    pub kind: String,
    pub title: String,
    pub link: String,
    pub read: bool,
    pub at: String,
}

#[derive(Debug, Serialize)]
pub struct AccountPart {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub administrator: bool,
    pub created_at: String,
}

#[derive(Debug, Serialize)]
pub struct RosterPart {
    pub id: i64,
    pub rule_system: String,
    pub name: String,
    pub legal: bool,
    pub shared: bool,
    pub created_at: String,
    pub updated_at: String,
    /// The roster document itself, as `muster validate` and the import read it.
    pub document: Value,
}

#[derive(Debug, Serialize)]
pub struct BattlePart {
    pub id: i64,
    pub rule_system: String,
    pub title: String,
    /// `attacker` or `defender`; none for a battle they set up for others.
    pub your_side: Option<&'static str>,
    pub status: String,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub campaign_id: Option<i64>,
    pub created_at: String,
    /// The set-up document: both forces as they were, everything rolled.
    pub setup: Value,
}

#[derive(Debug, Serialize)]
pub struct CampaignPart {
    pub id: i64,
    pub rule_system: String,
    pub name: String,
    pub organiser: bool,
    pub phase: String,
    pub turn: i32,
    /// The force they play, if any.
    pub force: Option<String>,
    /// The log entries they made or that concern their force, in order.
    pub entries: Vec<EntryPart>,
}

#[derive(Debug, Serialize)]
pub struct EntryPart {
    pub seq: i64,
    pub turn: i32,
    pub kind: String,
    pub words: Option<String>,
    pub at: String,
}

fn stamp(t: chrono::NaiveDateTime) -> String {
    t.and_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A stored JSON text as JSON, or as a string when it does not parse (nothing is left out).
fn as_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

/// Everything Muster holds about the actor, read in one transaction.
pub async fn export(ctx: &Context, actor: &Actor) -> Result<Export, Error> {
    let uid = actor.id;
    ctx.with_conn(move |conn| {
        use diesel::Connection;
        conn.transaction(|conn| export_now(conn, uid))
    })
    .await
}

fn export_now(conn: &mut DbConnection, uid: i64) -> Result<Export, Error> {
    let user = users::find_by_id(conn, uid)?.ok_or(Error::NotFound)?;
    let rosters = rosters::list_for_owner(conn, uid, None)?
        .into_iter()
        .map(|r| RosterPart {
            id: r.id,
            document: as_json(&r.document),
            rule_system: r.rule_system,
            name: r.name,
            legal: r.legal,
            shared: r.share_token.is_some(),
            created_at: stamp(r.created_at),
            updated_at: stamp(r.updated_at),
        })
        .collect();
    let battles = battles::list_for_user(conn, uid)?
        .into_iter()
        .map(|b| BattlePart {
            id: b.id,
            your_side: if b.attacker_user_id == Some(uid) {
                Some("attacker")
            } else if b.defender_user_id == Some(uid) {
                Some("defender")
            } else {
                None
            },
            setup: as_json(&b.setup),
            rule_system: b.rule_system,
            title: b.title,
            status: b.status,
            result: b.result,
            winner: b.winner,
            campaign_id: b.campaign_id,
            created_at: stamp(b.created_at),
        })
        .collect();
    let mut campaigns = Vec::new();
    for c in campaigns_store::list_for_user(conn, uid)? {
        let force = crate::app::campaigns::parse_state(&c)?
            .force_of_user(uid)
            .map(|f| f.id.clone());
        let entries = campaigns_store::log(conn, c.id)?
            .into_iter()
            .filter(|e| {
                e.actor_id == Some(uid)
                    || (force.is_some() && e.force_id.as_deref() == force.as_deref())
            })
            .map(|e| EntryPart {
                seq: e.seq,
                turn: e.turn,
                kind: e.kind,
                words: e.words,
                at: stamp(e.created_at),
            })
            .collect();
        campaigns.push(CampaignPart {
            id: c.id,
            organiser: c.organiser_id == uid,
            rule_system: c.rule_system,
            name: c.name,
            phase: c.phase,
            turn: c.turn,
            force,
            entries,
        });
    }
    let notices = crate::store::notifications::list(conn, uid, None, i64::MAX)?
        .into_iter()
        .map(|n| NoticePart {
            kind: n.kind,
            title: n.title,
            link: n.link,
            read: n.read_at.is_some(),
            at: stamp(n.created_at),
        })
        .collect();
    Ok(Export {
        format: EXPORT_FORMAT,
        exported_at: stamp(chrono::Utc::now().naive_utc()),
        account: AccountPart {
            id: user.id,
            email: user.email,
            display_name: user.display_name,
            administrator: user.is_admin,
            created_at: stamp(user.created_at),
        },
        rosters,
        battles,
        campaigns,
        notices,
    })
}

/// What deleting an account did, for the page that says goodbye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    pub rosters: usize,
    pub battles: usize,
    pub campaigns: usize,
}

/// The neutral name an erased account's battles and campaign entries show.
pub fn former_player_name(id: i64) -> String {
    format!("Former player {id}")
}

/// Deletes the actor's account once they confirm with their password.
///
/// Refused while they organise a campaign that has not ended and has other players: nobody
/// could administer it after them, so they end it (or, before it starts, delete it) first.
pub async fn delete_account(
    ctx: &Context,
    actor: &Actor,
    password: String,
) -> Result<Deleted, Error> {
    if password.is_empty() {
        return Err(Error::invalid(
            "Enter your password to confirm.",
            "password",
            "Enter your password to confirm.",
        ));
    }
    let uid = actor.id;
    let user = ctx
        .with_conn(move |conn| Ok(users::find_by_id(conn, uid)?))
        .await?
        .ok_or(Error::NotFound)?;
    let hash = user.password_hash.clone();
    if !blocking(move || verify_password(&password, &hash)).await? {
        return Err(Error::invalid(
            "That is not your password.",
            "password",
            "That is not your password: the account was not deleted.",
        ));
    }
    let (old_name, email) = (user.display_name, user.email);
    ctx.with_conn(move |conn| {
        crate::store::write_transaction(conn, |conn| erase(conn, uid, &old_name, &email))
    })
    .await
}

fn erase(conn: &mut DbConnection, uid: i64, old_name: &str, email: &str) -> Result<Deleted, Error> {
    let campaigns = campaigns_store::list_for_user(conn, uid)?;
    if let Some(held) = campaigns.iter().find(|c| organises_with_others(c, uid)) {
        return Err(Error::Conflict(format!(
            "You organise the campaign \"{}\", which has other players and has not ended. \
             End it first (or delete it before it starts); then delete your account.",
            held.name
        )));
    }
    let rosters = own_data::delete_rosters_of(conn, uid)?;
    let battles = own_data::delete_unfought_battles_of(conn, uid)?;
    own_data::delete_jobs_of(conn, uid)?;
    own_data::delete_notices_of(conn, uid, email)?;
    let name = former_player_name(uid);
    let mut key = input::display_name_key(&name);
    let mut shown = name.clone();
    if users::display_key_taken(conn, &key, Some(uid))? {
        // Someone chose this very name; the tombstone takes a free one instead.
        shown = format!("{name} ({})", crate::app::dice::random_token(3));
        key = input::display_name_key(&shown);
    }
    own_data::make_tombstone(
        conn,
        uid,
        &format!("deleted-{uid}@deleted.invalid"),
        &shown,
        &key,
    )?;
    sessions::revoke_all_for_user(conn, uid, chrono::Utc::now().naive_utc())?;
    own_data::erasing(conn, uid, true)?;
    for c in &campaigns {
        rename_in_campaign(conn, c, uid, old_name, &shown)?;
    }
    own_data::erasing(conn, uid, false)?;
    Ok(Deleted {
        rosters,
        battles,
        campaigns: campaigns.len(),
    })
}

fn organises_with_others(c: &CampaignRow, uid: i64) -> bool {
    if c.organiser_id != uid || c.phase == phase_id(Phase::Ended) {
        return false;
    }
    crate::app::campaigns::parse_state(c)
        .map(|s| s.forces.values().any(|f| f.user != uid))
        // A state that does not read is kept safe: refuse rather than orphan it.
        .unwrap_or(true)
}

/// Writes `new` for the player's name in one campaign's log and state: every JSON object that
/// names user `uid` with a `player` name, and the name in every entry's words.
fn rename_in_campaign(
    conn: &mut DbConnection,
    c: &CampaignRow,
    uid: i64,
    old: &str,
    new: &str,
) -> Result<(), Error> {
    for row in campaigns_store::log(conn, c.id)? {
        let mut event: Value = serde_json::from_str(&row.event)
            .map_err(|e| Error::internal(format!("campaign log entry {}: {e}", row.id)))?;
        let event_changed = rename_player(&mut event, uid, new);
        let words = row.words.as_deref().map(|w| replace_name(w, old, new));
        if event_changed || words.as_deref() != row.words.as_deref() {
            own_data::rewrite_log_entry(conn, row.id, &event.to_string(), words.as_deref())?;
        }
    }
    let mut state: Value = serde_json::from_str(&c.state)
        .map_err(|e| Error::internal(format!("campaign {} state: {e}", c.id)))?;
    if rename_player(&mut state, uid, new) {
        own_data::rewrite_campaign_state(conn, c.id, &state.to_string())?;
    }
    Ok(())
}

/// Replaces `old` in `text` where it stands as a whole name (not inside a longer word).
fn replace_name(text: &str, old: &str, new: &str) -> String {
    if old.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + old.len()..].chars().next();
        let whole =
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        out.push_str(&rest[..at]);
        out.push_str(if whole { new } else { old });
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// Sets `player` to `name` in every object of `value` whose `user` is `uid`; true if any was.
fn rename_player(value: &mut Value, uid: i64, name: &str) -> bool {
    match value {
        Value::Object(map) => {
            let mut changed = false;
            if map.get("user").and_then(Value::as_i64) == Some(uid) {
                if let Some(player) = map.get_mut("player") {
                    if player.as_str() != Some(name) {
                        *player = Value::String(name.to_string());
                        changed = true;
                    }
                }
            }
            for v in map.values_mut() {
                changed |= rename_player(v, uid, name);
            }
            changed
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| rename_player(v, uid, name) | changed),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_replaced_only_where_it_stands_alone() {
        assert_eq!(
            replace_name(
                "Howe enlisted Howe's Foot (Howe) for Howeville.",
                "Howe",
                "Former player 3"
            ),
            "Former player 3 enlisted Former player 3's Foot (Former player 3) for Howeville."
        );
        assert_eq!(replace_name("nothing here", "Howe", "X"), "nothing here");
    }

    #[test]
    fn the_player_is_renamed_in_every_object_that_names_them() {
        let mut v = serde_json::json!({
            "forces": {"a": {"user": 3, "player": "Howe"}, "b": {"user": 4, "player": "Clinton"}},
            "events": [{"Enlisted": {"user": 3, "player": "Howe"}}]
        });
        assert!(rename_player(&mut v, 3, "Former player 3"));
        assert_eq!(v["forces"]["a"]["player"], "Former player 3");
        assert_eq!(v["forces"]["b"]["player"], "Clinton");
        assert_eq!(v["events"][0]["Enlisted"]["player"], "Former player 3");
        assert!(!rename_player(&mut v, 3, "Former player 3"));
    }
}
