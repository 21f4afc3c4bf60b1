//! The web layer: actix-web routes, askama pages, the JSON API, auth and CSRF.

pub mod api;
pub mod server;
pub mod assets;
pub mod auth;
pub mod campaign_view;
pub mod error;
pub mod lotf;
pub mod middleware;
pub mod page;
pub mod pages;
pub mod print;
pub mod state;

pub use server::{Application, StartupError};
pub use error::AppError;
