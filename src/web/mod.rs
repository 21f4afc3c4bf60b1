//! The web layer: actix-web routes, askama pages, the JSON API, auth and CSRF.

pub mod api;
pub mod app;
pub mod assets;
pub mod auth;
pub mod battles;
pub mod campaign_view;
pub mod error;
pub mod lotf;
pub mod middleware;
pub mod page;
pub mod pages;
pub mod print;
pub mod state;

pub use app::{Application, StartupError};
pub use error::AppError;
