//! Printouts: unit cards, roster sheets and the quick-reference sheet. Every number comes from
//! the catalogue. The page structs take an optional `ForceState` so battles and campaigns can
//! print a force as it stands (reduced sizes, rolled commander ratings, history).

pub mod cards;
pub mod pages;
pub mod reference;
pub mod sheet;

use std::collections::HashMap;

use serde::Deserialize;

use crate::rules::systems::lotf::{ElementType, Nation, RosterDoc, Size, Upgrade};
use crate::web::pages::print::{SideColour, TypeIcon};

/// The colour a nation's cards and sheet carry (issue 18).
pub fn side_colour(nation: Nation) -> SideColour {
    match nation {
        Nation::British => SideColour::Red,
        Nation::American => SideColour::Blue,
        Nation::French => SideColour::RoyalBlue,
        Nation::Hessian => SideColour::Green,
        Nation::NativeConfederation => SideColour::Ochre,
    }
}

/// The symbol a card's headline carries: light troops in open order get the broken frame.
pub fn type_icon(element_type: ElementType, upgrades: &[Upgrade]) -> TypeIcon {
    let light = upgrades.iter().any(|u| {
        matches!(
            u,
            Upgrade::LightInfantry
                | Upgrade::Rangers
                | Upgrade::Riflemen
                | Upgrade::MilitiaRiflemen
                | Upgrade::Indians
        )
    });
    match element_type {
        ElementType::Infantry if light => TypeIcon::Skirmishers,
        ElementType::Infantry => TypeIcon::Infantry,
        // Dragoons here shoot from the saddle: they stay horse.
        ElementType::Cavalry => TypeIcon::Cavalry,
        ElementType::Artillery => TypeIcon::Artillery,
    }
}

/// Paper the printout is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    pub fn id(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
    /// The stylesheet with this paper's `@page` rule.
    pub fn css_url(self) -> String {
        crate::web::assets::url(match self {
            Paper::A4 => "paper-a4.css",
            Paper::Letter => "paper-letter.css",
        })
    }
}

/// Card size: standard playing card (63 × 88 mm) or A6 (105 × 148 mm).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardSize {
    Standard,
    Large,
}

impl CardSize {
    pub fn id(self) -> &'static str {
        match self {
            CardSize::Standard => "standard",
            CardSize::Large => "large",
        }
    }
    /// Cards per page: 3 × 3 standard cards, 2 × 2 large ones, on either paper. Letter is 17 mm
    /// too short for two rows of A6, so there large cards are 105 × 138 mm: four still fill the
    /// sheet instead of two leaving half of it blank (issue 18; `print.css`).
    pub fn per_page(self, _paper: Paper) -> usize {
        match self {
            CardSize::Standard => 9,
            CardSize::Large => 4,
        }
    }
    /// Characters of element names a card's headline prints before "and N more": two lines of
    /// a standard card's band, three of a large one's (the roster sheet lists every name).
    pub fn names_budget(self) -> usize {
        match self {
            CardSize::Standard => 70,
            CardSize::Large => 120,
        }
    }
    /// Lines of campaign history a card prints.
    pub fn history_lines(self) -> usize {
        match self {
            CardSize::Standard => 2,
            CardSize::Large => 5,
        }
    }
}

/// The print options of the query string: `?paper=a4|letter&size=standard|large&each=1`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PrintQuery {
    pub paper: String,
    pub size: String,
    /// One card per element instead of one per distinct profile.
    pub each: String,
}

impl PrintQuery {
    pub fn paper(&self) -> Paper {
        if self.paper.eq_ignore_ascii_case("letter") {
            Paper::Letter
        } else {
            Paper::A4
        }
    }
    pub fn card_size(&self) -> CardSize {
        if self.size.eq_ignore_ascii_case("large") {
            CardSize::Large
        } else {
            CardSize::Standard
        }
    }
    pub fn one_per_element(&self) -> bool {
        matches!(self.each.as_str(), "1" | "true" | "on" | "yes")
    }
}

/// How one element stands now, when it is not fresh from the roster.
#[derive(Debug, Clone, Default)]
pub struct ElementState {
    /// Its size now (after casualties), if different from the roster.
    pub size: Option<Size>,
    /// Lost for good: it gets no card and is struck through on the sheet.
    pub removed: bool,
    /// What happened to it, in order ("reduced to small after Brandywine").
    pub history: Vec<String>,
}

/// How one commander stands now.
#[derive(Debug, Clone, Default)]
pub struct CommanderState {
    /// Rolled rating, e.g. "Skilled".
    pub rating: Option<String>,
    pub morale: Option<u8>,
    /// Sphere of influence in inches.
    pub spi: Option<u8>,
    /// Command-point dice, e.g. "best of 2d3".
    pub command_points: Option<String>,
    pub history: Vec<String>,
}

impl CommanderState {
    /// A commander whose rating was rolled (`roll`, 1–6), with the numbers that rating gives;
    /// `None` for a roll the catalogue has no rating for.
    pub fn rolled(
        cat: &crate::rules::systems::lotf::Catalogue,
        roll: u8,
        history: Vec<String>,
    ) -> Option<CommanderState> {
        let r = cat.commander_rating_for_roll(roll)?;
        Some(CommanderState {
            rating: Some(r.name.clone()),
            morale: Some(r.morale),
            spi: Some(r.spi),
            command_points: Some(r.command_points.clone()),
            history,
        })
    }
}

/// The state of a force for printing, keyed by the roster document's element and commander ids.
#[derive(Debug, Clone, Default)]
pub struct ForceState {
    /// Shown in titles, e.g. "after the battle of Brandywine".
    pub label: Option<String>,
    pub elements: HashMap<String, ElementState>,
    pub commanders: HashMap<String, CommanderState>,
    /// A campaign force once casualties have started: a group or a force left short by its
    /// losses is shown as a warning, not as illegal (M-90), as the force's page judges it.
    pub after_casualties: bool,
}

impl ForceState {
    /// The roster as it stands: sizes replaced, removed elements dropped.
    pub fn apply(&self, doc: &RosterDoc) -> RosterDoc {
        let mut out = doc.clone();
        for group in &mut out.groups {
            group.elements.retain(|e| {
                !e.id
                    .as_ref()
                    .and_then(|id| self.elements.get(id))
                    .is_some_and(|s| s.removed)
            });
            for e in &mut group.elements {
                if let Some(size) =
                    e.id.as_ref()
                        .and_then(|id| self.elements.get(id))
                        .and_then(|s| s.size)
                {
                    e.size = size;
                }
            }
        }
        out
    }

    pub fn element(&self, id: Option<&String>) -> Option<&ElementState> {
        id.and_then(|id| self.elements.get(id))
    }

    pub fn commander(&self, id: Option<&String>) -> Option<&CommanderState> {
        id.and_then(|id| self.commanders.get(id))
    }
}
