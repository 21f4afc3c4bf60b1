//! The web layer: actix-web routes, askama pages, the JSON API, auth and CSRF.

pub mod api;
pub mod assets;
pub mod auth;
pub mod campaign_view;
pub mod error;
pub mod listing;
pub mod middleware;
pub mod page;
pub mod pages;
pub mod server;
pub mod state;
pub mod systems;

pub use error::AppError;
pub use server::{Application, StartupError};
