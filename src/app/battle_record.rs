//! A battle record's status, its transitions and its stored result: what both the battles
//! service and the campaigns that follow their battles read. It imports neither of them.

use crate::app::Error;
use crate::rules::system::BattleSide as Side;
use crate::store::battles::{BattleRow, PlayersAndWinner, ResultCount};

/// Where a battle record stands. Stored as its `id()` in the `status` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordStatus {
    /// Set up, not fought yet.
    SetUp,
    /// A tabletop result waits for the other player.
    Provisional,
    /// Final: simulated, confirmed, or recorded against a guest.
    Confirmed,
    Disputed,
    /// Replaced by a confirmed correction, or set aside by a campaign's organiser.
    Voided,
}

/// What may happen to a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordAction {
    Simulate,
    /// A tabletop result; against a guest it stands at once.
    Record {
        against_guest: bool,
    },
    Confirm,
    Dispute,
    /// Start a correction (a new record that replaces this one once confirmed).
    Correct,
}

impl RecordStatus {
    pub const ALL: [RecordStatus; 5] = [
        Self::SetUp,
        Self::Provisional,
        Self::Confirmed,
        Self::Disputed,
        Self::Voided,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Self::SetUp => "set_up",
            Self::Provisional => "provisional",
            Self::Confirmed => "confirmed",
            Self::Disputed => "disputed",
            Self::Voided => "voided",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// A stored record's status; an unknown word means the data was changed behind Muster.
    pub fn of(row: &BattleRow) -> Result<Self, Error> {
        Self::from_id(&row.status).ok_or_else(|| {
            Error::internal(format!(
                "battle {} has the unknown status {}",
                row.id, row.status
            ))
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::SetUp => "Set up, not fought yet",
            Self::Provisional => "Result recorded, waiting for the other player",
            Self::Confirmed => "Confirmed",
            Self::Disputed => "Disputed",
            Self::Voided => "Voided (corrected by a later version)",
        }
    }

    /// The status after `action`, or why it is refused. A correction leaves this record as it
    /// is (the new version carries the change), so it answers the status unchanged.
    pub fn after(self, action: RecordAction) -> Result<RecordStatus, &'static str> {
        use RecordAction as A;
        match (self, action) {
            (Self::SetUp, A::Simulate) => Ok(Self::Confirmed),
            (_, A::Simulate) => Err("This battle has already been decided."),
            (Self::SetUp, A::Record { against_guest }) => Ok(if against_guest {
                Self::Confirmed
            } else {
                Self::Provisional
            }),
            (_, A::Record { .. }) => {
                Err("This battle already has a result; a correction starts a new version.")
            }
            (Self::Provisional, A::Confirm) => Ok(Self::Confirmed),
            (_, A::Confirm) => Err("Only a provisional result can be confirmed."),
            (Self::Provisional, A::Dispute) => Ok(Self::Disputed),
            (_, A::Dispute) => Err("Only a provisional result can be disputed."),
            (Self::Confirmed | Self::Disputed, A::Correct) => Ok(self),
            (_, A::Correct) => {
                Err("Only a recorded result that is confirmed or disputed can be corrected.")
            }
        }
    }
}

/// The `winner` column: one encoding for a decided battle's winner, `None` being a tie.
/// Stored as `attacker`, `defender` or `tie`.
pub fn winner_column(winner: Option<Side>) -> String {
    match winner {
        Some(Side::Attacker) => "attacker".into(),
        Some(Side::Defender) => "defender".into(),
        None => "tie".into(),
    }
}

/// A record's result as stored: `None` while it has none, `Some(None)` for a tie, otherwise
/// the winning side. The one reading of the `winner` column.
pub fn winner_of(row: &impl PlayersAndWinner) -> Option<Option<Side>> {
    row.winner().map(|w| match w {
        "attacker" => Some(Side::Attacker),
        "defender" => Some(Side::Defender),
        _ => None,
    })
}

/// Which side a user plays in a battle.
pub fn side_of(row: &impl PlayersAndWinner, user: i64) -> Option<Side> {
    if row.attacker_user_id() == Some(user) {
        Some(Side::Attacker)
    } else if row.defender_user_id() == Some(user) {
        Some(Side::Defender)
    } else {
        None
    }
}

/// A player's record over their confirmed battles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinDrawLoss {
    pub won: i64,
    pub drawn: i64,
    pub lost: i64,
}

impl WinDrawLoss {
    /// `user`'s record from the counts of their confirmed battles (`battles::result_counts`).
    pub fn of(counts: &[ResultCount], user: i64) -> Self {
        let mut out = Self::default();
        for count in counts {
            let Some(side) = side_of(count, user) else {
                continue;
            };
            match winner_of(count) {
                Some(None) => out.drawn += count.battles,
                Some(Some(w)) if w == side => out.won += count.battles,
                Some(Some(_)) => out.lost += count.battles,
                None => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_from_its_id() {
        for s in RecordStatus::ALL {
            assert_eq!(RecordStatus::from_id(s.id()), Some(s));
        }
        assert_eq!(RecordStatus::from_id("tie"), None);
    }

    #[test]
    fn a_result_is_decided_once_and_confirmed_by_the_other_player() {
        use RecordAction as A;
        use RecordStatus as S;
        assert_eq!(S::SetUp.after(A::Simulate), Ok(S::Confirmed));
        assert_eq!(
            S::SetUp.after(A::Record {
                against_guest: false
            }),
            Ok(S::Provisional)
        );
        assert_eq!(
            S::SetUp.after(A::Record {
                against_guest: true
            }),
            Ok(S::Confirmed)
        );
        assert_eq!(S::Provisional.after(A::Confirm), Ok(S::Confirmed));
        assert_eq!(S::Provisional.after(A::Dispute), Ok(S::Disputed));
        // Nothing decides a battle twice, and nothing leaves a void.
        for s in [S::Provisional, S::Confirmed, S::Disputed, S::Voided] {
            assert!(s.after(A::Simulate).is_err(), "{s:?} simulated again");
            assert!(s
                .after(A::Record {
                    against_guest: true
                })
                .is_err());
        }
        for s in [S::SetUp, S::Confirmed, S::Disputed, S::Voided] {
            assert!(s.after(A::Confirm).is_err(), "{s:?} confirmed");
            assert!(s.after(A::Dispute).is_err(), "{s:?} disputed");
        }
        assert!(S::Confirmed.after(A::Correct).is_ok());
        assert!(S::Disputed.after(A::Correct).is_ok());
        assert!(S::Provisional.after(A::Correct).is_err());
        assert!(S::Voided.after(A::Correct).is_err());
    }

    #[test]
    fn a_tie_has_one_encoding() {
        assert_eq!(winner_column(None), "tie");
        assert_eq!(winner_column(Some(Side::Defender)), "defender");
    }

    #[test]
    fn a_record_counts_each_side_the_player_played() {
        let count = |attacker, defender, winner: Option<&str>, battles| ResultCount {
            attacker_user_id: attacker,
            defender_user_id: defender,
            winner: winner.map(str::to_string),
            battles,
        };
        let counts = [
            count(Some(1), None, Some("attacker"), 4),
            count(Some(1), Some(2), Some("defender"), 3),
            count(Some(2), Some(1), Some("defender"), 2),
            count(Some(2), Some(1), Some("tie"), 1),
            // Not decided (cannot be confirmed without a result), and someone else's.
            count(Some(1), None, None, 7),
            count(Some(2), Some(3), Some("attacker"), 9),
        ];
        assert_eq!(
            WinDrawLoss::of(&counts, 1),
            WinDrawLoss {
                won: 6,
                drawn: 1,
                lost: 3
            }
        );
        assert_eq!(WinDrawLoss::of(&[], 1), WinDrawLoss::default());
    }

    #[test]
    fn the_winner_column_reads_back_as_it_was_written() {
        let mut row = crate::store::battles::BattleRow {
            id: 1,
            rule_system: crate::rules::SystemId::Lotf.id().into(),
            created_by: 1,
            attacker_user_id: Some(1),
            attacker_guest: None,
            defender_user_id: None,
            defender_guest: Some("Guest".into()),
            attacker_roster_id: None,
            defender_roster_id: None,
            title: String::new(),
            scenario: String::new(),
            points: 0,
            setup: String::new(),
            rolls: String::new(),
            status: "set_up".into(),
            method: None,
            result: None,
            winner: None,
            victory_level: None,
            attacker_vp: None,
            defender_vp: None,
            recorded_by: None,
            confirmed_by: None,
            single_party: true,
            dispute: None,
            public_token: None,
            replaces_id: None,
            version: 1,
            created_at: chrono::NaiveDateTime::default(),
            updated_at: chrono::NaiveDateTime::default(),
            campaign_id: None,
            invitation: None,
        };
        assert_eq!(winner_of(&row), None, "no result yet");
        for w in [None, Some(Side::Attacker), Some(Side::Defender)] {
            row.winner = Some(winner_column(w));
            assert_eq!(winner_of(&row), Some(w));
        }
    }
}
