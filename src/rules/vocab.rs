//! Closed vocabularies: enums whose values documents name by a snake_case id and pages show by a
//! label (element types, sizes, rule systems, …), declared once with `vocabulary!`.

/// Declares an enum with an id and a label per value, `ALL`, `id()`, `label()`, `from_id()`,
/// serde as the id, and `Display` as the id.
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $id:literal, $label:literal;)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum $name { $(#[serde(rename = $id)] $variant),+ }

        impl $name {
            /// Every value, in catalogue order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The snake_case id used in documents.
            pub const fn id(self) -> &'static str {
                match self { $($name::$variant => $id),+ }
            }

            /// A short human label.
            pub fn label(self) -> &'static str {
                match self { $($name::$variant => $label),+ }
            }

            /// Parse a snake_case id.
            pub fn from_id(s: &str) -> Option<$name> {
                match s { $($id => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }
    };
}

pub(crate) use vocabulary;
