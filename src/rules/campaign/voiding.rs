//! Which battle the organiser may void (M-94): one rule for the action that voids and for the
//! page that offers the choice, so the page never offers a battle the action then refuses.

use super::error::CampaignError;
use super::state::{BattleStatus, CampaignState, Entry, Event, SetAside};

/// Where a campaign battle's record stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordState {
    /// Not fought or recorded yet.
    NotFought,
    /// A result recorded from the table, waiting for the other player to confirm it.
    AwaitingConfirmation,
    /// The other player disputed the recorded result.
    Disputed,
    /// Simulated, or recorded and confirmed.
    Decided,
}

impl RecordState {
    /// From a battle record's stored status. A voided, missing or unknown record holds no
    /// result, so there is nothing on it to void.
    pub fn from_status(status: &str) -> RecordState {
        match status {
            "provisional" => RecordState::AwaitingConfirmation,
            "disputed" => RecordState::Disputed,
            "confirmed" => RecordState::Decided,
            _ => RecordState::NotFought,
        }
    }
}

fn refuse(message: &str) -> CampaignError {
    CampaignError::Refused(message.into())
}

/// Entries the campaign makes by itself after a battle. Anything else (an order, a purchase, an
/// adjustment, another void) is someone's decision taken on the battle's outcome.
fn automatic(e: &Event) -> bool {
    matches!(
        e,
        Event::Moved { .. }
            | Event::Retreated { .. }
            | Event::Surrendered { .. }
            | Event::Destroyed { .. }
            | Event::ElementReduced { .. }
            | Event::ElementLost { .. }
            | Event::ElementPromoted { .. }
            | Event::CommanderReplaced { .. }
            | Event::Experience { .. }
            | Event::PlaceTaken { .. }
            | Event::Reinforced { .. }
            | Event::TurnBegan { .. }
            | Event::Ended { .. }
            | Event::BattleFought { .. }
    )
}

/// Whether `battle` may be voided, and if so the first log entry the void sets aside (its
/// `from_seq`). A decided battle may be voided if it is the latest one decided and nothing but
/// automatic entries followed it; its result and aftermath are set aside. A battle not decided
/// yet may be voided only when a recorded result waits for confirmation or is disputed; nothing
/// is set aside (`from_seq` is the void entry's own seq). `record` is where the battle's current
/// record stands; it only matters for a battle not decided yet.
pub fn void_from(
    log: &[Entry],
    st: &CampaignState,
    battle: u32,
    record: RecordState,
) -> Result<i64, CampaignError> {
    let b = st
        .battle(battle)
        .ok_or_else(|| CampaignError::NotFound("There is no such battle.".into()))?;
    match b.status {
        BattleStatus::Pending => match record {
            RecordState::AwaitingConfirmation | RecordState::Disputed => {
                Ok(log.last().map_or(1, |e| e.seq + 1))
            }
            RecordState::NotFought => Err(refuse(
                "This battle has not been fought yet; there is nothing to void.",
            )),
            // Decided but not yet brought into the campaign: it is about to become the latest
            // decided battle, and can be voided as such once it has.
            RecordState::Decided => Err(refuse(
                "The battle's record changed just now; look again and retry.",
            )),
        },
        BattleStatus::Resolved => {
            let aside = SetAside::of(log);
            let fought = log
                .iter()
                .rev()
                .find(|e| matches!(e.event, Event::BattleFought { .. }) && !aside.contains(e.seq))
                .ok_or_else(|| refuse("No battle has been fought yet."))?;
            if !matches!(&fought.event, Event::BattleFought { battle: no, .. } if *no == battle) {
                return Err(refuse("Only the latest battle can be voided."));
            }
            if log
                .iter()
                .any(|e| e.seq > fought.seq && !automatic(&e.event))
            {
                return Err(refuse(
                    "Orders, purchases or other changes have been made since that battle, so it \
                     can no longer be voided; make a manual adjustment instead.",
                ));
            }
            Ok(fought.seq)
        }
    }
}

/// The battles the organiser may void, newest first: exactly those for which [`void_from`]
/// agrees. `record_of` gives where a battle record stands, by record id.
pub fn voidable(
    log: &[Entry],
    st: &CampaignState,
    record_of: impl Fn(i64) -> RecordState,
) -> Vec<u32> {
    st.battles
        .iter()
        .rev()
        .filter(|b| void_from(log, st, b.no, record_of(b.record)).is_ok())
        .map(|b| b.no)
        .collect()
}
