//! Who is asking, and may they: sessions and their tokens, logging in under a throttle, the
//! extractors handlers take, and CSRF protection for forms and cookie-authenticated API calls.
//!
//! Logging out revokes the session; changing or resetting the password revokes all of the
//! user's sessions (`app::accounts`).

pub mod csrf;
pub mod extract;
pub mod login;
pub mod session;

pub use extract::{Admin, ApiAdmin, ApiUser, SignedIn, Viewer};
pub use login::{authenticate, client_address};
pub use session::{
    clear_session_cookie, issue_session, session_cookie, SignedInUser, SESSION_COOKIE,
};
