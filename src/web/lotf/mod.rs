//! Land of the Free in the web layer: the roster editor's choices, its edits, the view model of a
//! roster with its findings, and the plain-text export. Another rule system would get a sibling
//! module; generic roster handling lives in `app::rosters`.

pub mod battle_request;
pub mod edit;
pub mod historical;
pub mod options;
pub mod text;
pub mod view;
