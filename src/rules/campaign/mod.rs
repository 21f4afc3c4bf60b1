//! Muster's campaign rules v1 (DESIGN.md, "Campaign rules v1"), the parts that need no storage:
//! moving forces on the map and finding where they meet, casualties that persist after a
//! battle, field promotions and experience of commanders, reinforcements and scoring.
//! Rule-system neutral where it can be: sizes and ratings come in as plain ordered values.
//! Every roll takes the campaign's seeded dice.

pub mod admin;
pub mod after_battle;
pub mod aftermath;
pub mod deadlines;
pub mod error;
pub mod forces;
pub mod forces_api;
pub mod map_edit;
pub mod movement;
pub mod presets;
pub mod settings;
pub mod standings;
pub mod state;
pub mod turn;
pub mod visibility;
pub mod voiding;
pub mod words;

pub use aftermath::{
    campaign_points, casualty_roll, experience_roll, promotion_rating, reinforcement_points,
    Casualty, EndState, RatingBand,
};
pub use error::CampaignError;
pub use forces_api::{ForceRules, RosterJson};
pub use movement::{
    resolve_moves, Contact, ForceAt, Map, Move, Order, Place, PlaceKind, Resolution, Route,
    RouteKind,
};
pub use state::{CampaignState, Entry, Event};

// The engine's tests play it with a rule system's forces: rules/systems/lotf/tests/campaign_*.
