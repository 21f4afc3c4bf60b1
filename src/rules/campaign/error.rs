//! Why the campaign rules refuse something, in words a player can be shown.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    #[error("force {force}: route {route} does not start where it stands ({place})")]
    RouteNotHere {
        force: String,
        route: String,
        place: String,
    },
    #[error("force {0} has an order but is not on the map")]
    UnknownForce(String),
    /// An action the campaign's current phase or state does not allow, in plain words.
    #[error("{0}")]
    Refused(String),
    /// Input that cannot be right whatever the state (an illegal roster, a route that does not
    /// leave the force's place), in plain words.
    #[error("{0}")]
    Invalid(String),
    /// Something the request names does not exist (a battle number), in plain words.
    #[error("{0}")]
    NotFound(String),
    /// Input with one field wrong, in plain words.
    #[error("{}", .0.message)]
    Field(FieldProblem),
    /// A log entry that does not fit the state it is applied to (a corrupt or reordered log).
    #[error("log entry {seq}: {message}")]
    BadEntry { seq: i64, message: String },
}

/// What is wrong with one field of what a user filled in, in words they can act on. `field`
/// is the input's field name, for the form or the API to point at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: String,
}

impl FieldProblem {
    pub fn new(field: &'static str, message: impl Into<String>) -> FieldProblem {
        FieldProblem {
            field,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_and_invalid_input_read_as_their_plain_message() {
        let refused = CampaignError::Refused("The campaign is over.".into());
        assert_eq!(refused.to_string(), "The campaign is over.");
        let invalid = CampaignError::Invalid("Choose one of the two sides.".into());
        assert_eq!(invalid.to_string(), "Choose one of the two sides.");
    }

    #[test]
    fn a_bad_log_entry_names_the_entry() {
        let e = CampaignError::BadEntry {
            seq: 17,
            message: "no force f9".into(),
        };
        assert_eq!(e.to_string(), "log entry 17: no force f9");
    }
}
