//! Server-rendered pages.

pub mod accounts;
pub mod admin;
pub mod battles;
pub mod campaigns;
pub mod home;
pub mod inbox;
pub mod odds;
pub mod own_data;
pub mod password_reset;
pub mod print;
pub mod rosters;
pub mod table;
