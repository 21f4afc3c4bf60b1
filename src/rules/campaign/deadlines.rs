//! Turn deadlines: the organiser may give the open turn a deadline and set a default turn length
//! that gives each new turn its deadline when it begins. At the deadline the turn closes by
//! itself (forces without orders hold); before it, players whose orders are missing are
//! reminded. Pure: the time is passed in (seconds since 1970, UTC), never read here.

use super::error::CampaignError;
pub use super::state::Deadline;
use super::state::{CampaignState, Event, Phase};

/// The shortest turn length the organiser may set, in minutes.
pub const MIN_TURN_LENGTH_MINUTES: u32 = 60;
/// The longest: 60 days.
pub const MAX_TURN_LENGTH_MINUTES: u32 = 60 * 24 * 60;
/// A deadline may be at most this far ahead (a year), in seconds.
pub const MAX_AHEAD_SECS: i64 = 366 * 24 * 3600;
/// Players are reminded this long before the deadline, or halfway for shorter turns.
pub const REMIND_BEFORE_SECS: i64 = 24 * 3600;
/// No reminder when less than this is left between setting the deadline and the deadline.
pub const REMIND_MIN_SECS: i64 = 10 * 60;

impl Deadline {
    /// When players with missing orders are reminded: a day before the deadline, or halfway
    /// between setting it and the deadline when that is sooner; none for a deadline set with
    /// only minutes to go.
    pub fn reminder_at(&self) -> Option<i64> {
        let span = self.at - self.set_at;
        if span < REMIND_MIN_SECS {
            return None;
        }
        Some(self.at - REMIND_BEFORE_SECS.min(span / 2))
    }
}

impl Deadline {
    /// The deadline in words, its zone named.
    pub fn words(&self) -> String {
        when(self.at)
    }

    /// The deadline as RFC 3339 (for `<time datetime>` and the API).
    pub fn rfc3339(&self) -> String {
        chrono::DateTime::from_timestamp(self.at, 0)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default()
    }
}

impl CampaignState {
    /// The open turn's deadline: none unless orders are open and it is this turn's.
    pub fn open_deadline(&self) -> Option<Deadline> {
        self.deadline
            .filter(|d| self.phase == Phase::Orders && d.turn == self.turn)
    }
}

/// What the scheduler must hold for a campaign: close turn `turn` at `at`, and remind at
/// `remind_at` (if any). None when no open turn has a deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub turn: u32,
    pub at: i64,
    pub remind_at: Option<i64>,
}

/// The schedule a campaign's state calls for. An archived campaign is read-only, so its
/// deadline waits; unarchiving schedules it again (one already past closes the turn at once).
pub fn schedule(st: &CampaignState) -> Option<Schedule> {
    let d = st
        .deadline
        .filter(|d| !st.archived && st.phase == Phase::Orders && d.turn == st.turn)?;
    Some(Schedule {
        turn: d.turn,
        at: d.at,
        remind_at: d.reminder_at(),
    })
}

/// Whether a scheduled close of `turn` at `at` is still due: the turn is open and its deadline
/// is still that one (a changed or cleared deadline, or a turn closed already, makes it moot).
pub fn close_is_due(st: &CampaignState, turn: u32, at: i64, now: i64) -> bool {
    now >= at && schedule(st).is_some_and(|s| s.turn == turn && s.at == at)
}

/// The players to remind of turn `turn`'s deadline at `at`: each force still in the field
/// without an order, by its player's user id (one per user, in force order). Empty when the
/// reminder is moot (the turn closed, or the deadline changed).
pub fn to_remind(st: &CampaignState, turn: u32, at: i64) -> Vec<(String, i64)> {
    if !schedule(st).is_some_and(|s| s.turn == turn && s.at == at) {
        return Vec::new();
    }
    let mut out: Vec<(String, i64)> = Vec::new();
    for f in st.active_forces() {
        if !st.orders.contains_key(&f.id) && !out.iter().any(|(_, u)| *u == f.user) {
            out.push((f.id.clone(), f.user));
        }
    }
    out
}

/// The events that set the open turn's deadline to `at` (or clear it with none) and the default
/// turn length to `length` minutes (or none), as the organiser asks at `now`. Only what changes
/// is logged; nothing changing is no event at all.
pub fn organiser_change(
    st: &CampaignState,
    at: Option<i64>,
    length: Option<u32>,
    now: i64,
) -> Result<Vec<Event>, CampaignError> {
    if st.phase == Phase::Ended {
        return Err(refuse("The campaign has ended: it has no deadlines."));
    }
    if let Some(m) = length {
        if !(MIN_TURN_LENGTH_MINUTES..=MAX_TURN_LENGTH_MINUTES).contains(&m) {
            return Err(field(
                "turn_length",
                "A turn length must be between one hour and 60 days.",
            ));
        }
    }
    let mut out = Vec::new();
    if length != st.turn_length_minutes {
        out.push(Event::TurnLengthSet { minutes: length });
    }
    let current = st.open_deadline().map(|d| d.at);
    match at {
        Some(at) if current != Some(at) => {
            if st.phase != Phase::Orders {
                return Err(refuse(
                    "Only an open turn has a deadline; the default turn length sets the next \
                     turn's deadline when it begins.",
                ));
            }
            if at <= now {
                return Err(field("deadline", "The deadline must be in the future."));
            }
            if at - now > MAX_AHEAD_SECS {
                return Err(field("deadline", "The deadline must be within a year."));
            }
            out.push(Event::DeadlineSet {
                turn: st.turn,
                at,
                set_at: now,
                by_default: false,
            });
        }
        None if current.is_some() => out.push(Event::DeadlineCleared { turn: st.turn }),
        _ => {}
    }
    Ok(out)
}

/// The deadline a turn gets from the default turn length when `event` (just applied to `st`)
/// opened it at `now`: turn 1 when the campaign starts, every later turn when it begins.
pub fn default_deadline(st: &CampaignState, event: &Event, now: i64) -> Option<Event> {
    if !matches!(event, Event::Started | Event::TurnBegan { .. }) || st.phase != Phase::Orders {
        return None;
    }
    let minutes = st.turn_length_minutes?;
    Some(Event::DeadlineSet {
        turn: st.turn,
        at: now + i64::from(minutes) * 60,
        set_at: now,
        by_default: true,
    })
}

fn field(name: &'static str, message: &str) -> CampaignError {
    CampaignError::Field(super::error::FieldProblem::new(name, message))
}

fn refuse(message: &str) -> CampaignError {
    CampaignError::Refused(message.to_string())
}

/// A moment in words, with its zone named: "Fri 27 Nov 2026, 18:00 UTC".
pub fn when(secs: i64) -> String {
    match chrono::DateTime::from_timestamp(secs, 0) {
        Some(t) if t.format("%S").to_string() == "00" => {
            t.format("%a %-d %b %Y, %H:%M UTC").to_string()
        }
        Some(t) => t.format("%a %-d %b %Y, %H:%M:%S UTC").to_string(),
        None => format!("{secs} seconds after 1970 (UTC)"),
    }
}

/// A turn length in words: "3 days", "1 day 12 hours", "36 hours" → "1 day 12 hours".
pub fn length_words(minutes: u32) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(plural(days, "day", "days"));
    }
    if hours > 0 {
        parts.push(plural(hours, "hour", "hours"));
    }
    if mins > 0 || parts.is_empty() {
        parts.push(plural(mins, "minute", "minutes"));
    }
    parts.join(" ")
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A deadline event in words for the log.
pub fn describe(event: &Event) -> Option<String> {
    Some(match event {
        Event::DeadlineSet {
            turn,
            at,
            by_default,
            ..
        } => {
            if *by_default {
                format!(
                    "Turn {turn}'s orders are due by {} (the default turn length).",
                    when(*at)
                )
            } else {
                format!(
                    "The organiser set turn {turn}'s deadline: orders are due by {}.",
                    when(*at)
                )
            }
        }
        Event::DeadlineCleared { turn } => {
            format!("The organiser cleared turn {turn}'s deadline: the turn closes when the organiser closes it or the last order is in.")
        }
        Event::TurnLengthSet { minutes: Some(m) } => format!(
            "The organiser set the default turn length to {}: each new turn's orders are due that long after it begins.",
            length_words(*m)
        ),
        Event::TurnLengthSet { minutes: None } => {
            "The organiser cleared the default turn length: new turns have no deadline.".into()
        }
        Event::DeadlinePassed { turn, at } => format!(
            "The deadline for turn {turn} ({}) passed: the turn was closed by the deadline, and forces without orders hold.",
            when(*at)
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::rules::campaign::state::Force;
    use crate::rules::campaign::{Order, RosterJson};

    const NOW: i64 = 1_795_000_000;
    const DAY: i64 = 24 * 3600;

    fn force(id: &str, user: i64) -> Force {
        Force {
            id: id.into(),
            user,
            player: format!("Player {user}"),
            side: 0,
            place: "a".into(),
            roster: RosterJson::from_value(&serde_json::json!({})),
            full_sizes: BTreeMap::new(),
            ratings: BTreeMap::new(),
            bank: 0,
            out: None,
            history: BTreeMap::new(),
            adjustment: 0,
        }
    }

    /// Turn 2 open, three forces (f3 out of the campaign), f1 has ordered.
    fn open_turn() -> CampaignState {
        let mut st = CampaignState {
            phase: Phase::Orders,
            turn: 2,
            ..CampaignState::default()
        };
        for (id, user) in [("f1", 1), ("f2", 2), ("f3", 3)] {
            st.forces.insert(id.into(), force(id, user));
        }
        if let Some(f) = st.forces.get_mut("f3") {
            f.out = Some("destroyed: no elements left".into());
        }
        st.orders.insert("f1".into(), Order::Hold);
        st
    }

    fn applied(mut st: CampaignState, events: &[Event]) -> CampaignState {
        for e in events {
            st.apply_deadline(e);
        }
        st
    }

    #[test]
    fn the_organiser_sets_changes_and_clears_the_open_turns_deadline() {
        let st = open_turn();
        let set = organiser_change(&st, Some(NOW + DAY), None, NOW).unwrap();
        assert_eq!(
            set,
            vec![Event::DeadlineSet {
                turn: 2,
                at: NOW + DAY,
                set_at: NOW,
                by_default: false
            }]
        );
        let st = applied(st, &set);
        assert_eq!(
            schedule(&st),
            Some(Schedule {
                turn: 2,
                at: NOW + DAY,
                remind_at: Some(NOW + DAY / 2)
            })
        );
        // The same deadline again logs nothing; another one moves it; none clears it.
        assert!(organiser_change(&st, Some(NOW + DAY), None, NOW)
            .unwrap()
            .is_empty());
        assert_eq!(
            organiser_change(&st, Some(NOW + 2 * DAY), None, NOW)
                .unwrap()
                .len(),
            1
        );
        let cleared = organiser_change(&st, None, None, NOW).unwrap();
        assert_eq!(cleared, vec![Event::DeadlineCleared { turn: 2 }]);
        assert_eq!(schedule(&applied(st, &cleared)), None);
    }

    #[test]
    fn a_deadline_must_be_ahead_and_only_an_open_turn_has_one() {
        let st = open_turn();
        for at in [NOW, NOW - 60, NOW + 400 * DAY] {
            assert!(matches!(
                organiser_change(&st, Some(at), None, NOW),
                Err(CampaignError::Field(p)) if p.field == "deadline"
            ));
        }
        let enlisting = CampaignState::default();
        assert!(matches!(
            organiser_change(&enlisting, Some(NOW + DAY), None, NOW),
            Err(CampaignError::Refused(_))
        ));
        // …but the default turn length may be set before the start.
        assert_eq!(
            organiser_change(&enlisting, None, Some(72 * 60), NOW).unwrap(),
            vec![Event::TurnLengthSet {
                minutes: Some(72 * 60)
            }]
        );
        let ended = CampaignState {
            phase: Phase::Ended,
            ..CampaignState::default()
        };
        assert!(organiser_change(&ended, None, Some(60), NOW).is_err());
        for bad in [0, 59, MAX_TURN_LENGTH_MINUTES + 1] {
            assert!(matches!(
                organiser_change(&st, None, Some(bad), NOW),
                Err(CampaignError::Field(p)) if p.field == "turn_length"
            ));
        }
    }

    #[test]
    fn a_new_turn_takes_its_deadline_from_the_default_length() {
        let mut st = open_turn();
        st.turn_length_minutes = Some(3 * 24 * 60);
        let began = Event::TurnBegan { turn: 2 };
        assert_eq!(
            default_deadline(&st, &began, NOW),
            Some(Event::DeadlineSet {
                turn: 2,
                at: NOW + 3 * DAY,
                set_at: NOW,
                by_default: true
            })
        );
        assert!(default_deadline(&st, &Event::Started, NOW).is_some());
        // Other entries, or no default length, give none.
        assert_eq!(
            default_deadline(&st, &Event::DeadlineCleared { turn: 2 }, NOW),
            None
        );
        st.turn_length_minutes = None;
        assert_eq!(default_deadline(&st, &began, NOW), None);
    }

    #[test]
    fn closing_beginning_or_ending_a_turn_leaves_its_deadline_behind() {
        let st = applied(
            open_turn(),
            &[Event::DeadlineSet {
                turn: 2,
                at: NOW + DAY,
                set_at: NOW,
                by_default: false,
            }],
        );
        for e in [
            Event::TurnClosed {
                orders: BTreeMap::new(),
            },
            Event::TurnBegan { turn: 3 },
            Event::Ended {
                reason: "done".into(),
            },
        ] {
            assert_eq!(applied(st.clone(), &[e]).deadline, None);
        }
        // A deadline entry that does not close the turn keeps it.
        let passed = applied(
            st.clone(),
            &[Event::DeadlinePassed {
                turn: 2,
                at: NOW + DAY,
            }],
        );
        assert!(passed.deadline.is_some());
    }

    #[test]
    fn the_close_is_due_only_for_the_same_open_turn_and_deadline() {
        let st = applied(
            open_turn(),
            &[Event::DeadlineSet {
                turn: 2,
                at: NOW + DAY,
                set_at: NOW,
                by_default: false,
            }],
        );
        assert!(close_is_due(&st, 2, NOW + DAY, NOW + DAY));
        assert!(
            !close_is_due(&st, 2, NOW + DAY, NOW + DAY - 1),
            "not before"
        );
        assert!(!close_is_due(&st, 1, NOW + DAY, NOW + DAY), "another turn");
        assert!(
            !close_is_due(&st, 2, NOW + 60, NOW + DAY),
            "a moved deadline"
        );
        let mut closed = st.clone();
        closed.phase = Phase::Battles;
        assert!(
            !close_is_due(&closed, 2, NOW + DAY, NOW + DAY),
            "closed already"
        );
    }

    #[test]
    fn reminders_go_to_players_still_in_the_field_without_orders() {
        let st = applied(
            open_turn(),
            &[Event::DeadlineSet {
                turn: 2,
                at: NOW + DAY,
                set_at: NOW,
                by_default: false,
            }],
        );
        // f1 has ordered, f3 is out of the campaign: only f2's player.
        assert_eq!(to_remind(&st, 2, NOW + DAY), vec![("f2".to_string(), 2)]);
        // A moot reminder (the deadline moved) reminds nobody.
        assert!(to_remind(&st, 2, NOW + 2 * DAY).is_empty());
        let mut all_in = st.clone();
        all_in.orders.insert("f2".into(), Order::Hold);
        assert!(to_remind(&all_in, 2, NOW + DAY).is_empty());
    }

    #[test]
    fn a_reminder_comes_a_day_before_or_halfway_through_a_short_turn() {
        let long = Deadline {
            turn: 1,
            at: NOW + 3 * DAY,
            set_at: NOW,
        };
        assert_eq!(long.reminder_at(), Some(NOW + 2 * DAY));
        let short = Deadline {
            turn: 1,
            at: NOW + 6 * 3600,
            set_at: NOW,
        };
        assert_eq!(short.reminder_at(), Some(NOW + 3 * 3600));
        let minutes = Deadline {
            turn: 1,
            at: NOW + 120,
            set_at: NOW,
        };
        assert_eq!(minutes.reminder_at(), None);
    }

    #[test]
    fn deadlines_read_in_words_with_the_zone_named() {
        assert_eq!(when(1_795_111_200), "Thu 19 Nov 2026, 18:00 UTC");
        assert_eq!(when(1_795_111_205), "Thu 19 Nov 2026, 18:00:05 UTC");
        assert_eq!(length_words(72 * 60), "3 days");
        assert_eq!(length_words(36 * 60), "1 day 12 hours");
        assert_eq!(length_words(90), "1 hour 30 minutes");
        let words = describe(&Event::DeadlinePassed {
            turn: 4,
            at: 1_795_111_200,
        })
        .unwrap();
        assert!(words.contains("closed by the deadline"), "{words}");
        assert!(words.contains("hold"), "{words}");
    }
}
