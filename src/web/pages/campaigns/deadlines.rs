//! The organiser's deadline form (on the organiser's page): the open turn's deadline, in UTC,
//! and the default turn length in days and hours. Blank clears.

use chrono::{NaiveDateTime, TimeZone, Utc};

use crate::app;
use crate::app::campaigns::deadlines::DeadlineInput;
use crate::app::campaigns::Loaded;
use crate::rules::campaign::state::Phase;

/// The form's fields as shown, or as typed when it was refused.
#[derive(Debug, Clone, Default)]
pub struct DeadlineForm {
    /// `YYYY-MM-DDTHH:MM` in UTC (an `<input type="datetime-local">`), or blank.
    pub deadline: String,
    pub days: String,
    pub hours: String,
    /// Whether a turn is open, so that the deadline field is offered.
    pub open: bool,
    /// The deadline as it stands, in words, or blank.
    pub current: String,
}

impl DeadlineForm {
    /// The form filled in with what stands.
    pub fn of(c: &Loaded) -> Self {
        let st = &c.state;
        let deadline = st
            .open_deadline()
            .and_then(|d| chrono::DateTime::from_timestamp(d.at, 0))
            .map(|t| t.format("%Y-%m-%dT%H:%M:%S").to_string())
            .unwrap_or_default();
        let (days, hours) = match st.turn_length_minutes {
            Some(m) => ((m / 1440).to_string(), (m % 1440 / 60).to_string()),
            None => (String::new(), String::new()),
        };
        DeadlineForm {
            deadline,
            days,
            hours,
            open: st.phase == Phase::Orders,
            current: st.open_deadline().map(|d| d.words()).unwrap_or_default(),
        }
    }

    /// The form as typed, over what stands (for a refused form).
    pub fn typed(c: &Loaded, deadline: &str, days: &str, hours: &str) -> Self {
        DeadlineForm {
            deadline: deadline.to_string(),
            days: days.to_string(),
            hours: hours.to_string(),
            ..Self::of(c)
        }
    }
}

fn field(name: &str, message: &str) -> app::Error {
    app::Error::Validation {
        message: "Some fields need attention.".into(),
        details: vec![app::ErrorDetail::field(name, message)],
    }
}

/// Reads the form: a UTC date and time (seconds optional) or blank, and a turn length in days
/// and hours (both blank or 0: none).
pub fn parse(deadline: &str, days: &str, hours: &str) -> Result<DeadlineInput, app::Error> {
    let deadline = match deadline.trim().trim_end_matches('Z') {
        "" => None,
        t => {
            let t = t.replacen(' ', "T", 1);
            let naive = NaiveDateTime::parse_from_str(&t, "%Y-%m-%dT%H:%M:%S")
                .or_else(|_| NaiveDateTime::parse_from_str(&t, "%Y-%m-%dT%H:%M"))
                .map_err(|_| {
                    field(
                        "deadline",
                        "Give the deadline as a date and time in UTC, such as 2026-11-27 18:00.",
                    )
                })?;
            Some(Utc.from_utc_datetime(&naive))
        }
    };
    let number = |s: &str, max: u32, what: &str| -> Result<u32, app::Error> {
        match s.trim() {
            "" => Ok(0),
            t => t.parse::<u32>().ok().filter(|n| *n <= max).ok_or_else(|| {
                field(
                    "turn_length",
                    &format!("The turn length's {what} must be a whole number from 0 to {max}."),
                )
            }),
        }
    };
    let hours = number(days, 60, "days")? * 24 + number(hours, 23, "hours")?;
    Ok(DeadlineInput {
        deadline,
        turn_length_hours: (hours > 0).then_some(hours),
    })
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn the_form_reads_utc_times_and_days_and_hours() {
        let i = parse("2026-11-27T18:00", "3", "").unwrap();
        assert_eq!(
            i.deadline.map(|t| t.to_rfc3339()),
            Some("2026-11-27T18:00:00+00:00".into())
        );
        assert_eq!(i.turn_length_hours, Some(72));
        let i = parse("2026-11-27 18:00:30", "", "12").unwrap();
        assert_eq!(i.deadline.map(|t| t.timestamp() % 60), Some(30));
        assert_eq!(i.turn_length_hours, Some(12));
        let i = parse(" ", "0", "0").unwrap();
        assert!(i.deadline.is_none() && i.turn_length_hours.is_none());
        assert!(parse("tomorrow", "", "").is_err());
        assert!(parse("", "1", "24").is_err());
        assert!(parse("", "-1", "").is_err());
    }
}
