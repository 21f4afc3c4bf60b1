//! Unit cards: one card per distinct profile with a count and the element names, or one per
//! element on request. Standard cards list skill names and print the summaries in a glossary
//! after the cards; large cards carry the summaries themselves.

use std::collections::BTreeMap;

use super::{side_colour, type_icon, CardSize, ForceState, Paper};
use crate::rules::systems::lotf::{profile, Catalogue, DisciplineLevel, RosterDoc};
use crate::web::pages::print::{lines_within, names_within};
#[cfg(doc)]
use crate::web::pages::print::{SideColour, TypeIcon};

#[derive(Debug, Clone)]
pub struct SkillLine {
    pub name: String,
    pub summary: String,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub names: Vec<String>,
    /// The type symbol's id ([`TypeIcon::id`]).
    pub icon: &'static str,
    pub count: usize,
    pub type_label: String,
    pub size_label: String,
    pub weapon: String,
    pub upgrades: String,
    pub range: String,
    pub threat_zone: u8,
    pub maneuver: u8,
    pub combat: u8,
    pub discipline: u8,
    pub morale: u8,
    pub action: u8,
    pub formations: String,
    pub starting: String,
    pub points: u32,
    pub skills: Vec<SkillLine>,
    /// Reminders in our own words (charge sizes, single stands, a Shaken start).
    pub notes: Vec<String>,
    /// One box per point of Discipline.
    pub hit_boxes: Vec<u8>,
    pub disorder_boxes: Vec<u8>,
    /// Discipline track: (level, is the starting level).
    pub track: Vec<(String, bool)>,
    /// What happened to these elements in earlier battles.
    pub history: Vec<String>,
    /// The names as the card prints them: cut to fit its box (see [`CardSize::names_budget`]).
    pub names_line: String,
    /// The history as the card prints it: the first lines, then how many more the sheet holds.
    pub history_lines: Vec<String>,
}

impl Card {
    pub fn names_text(&self) -> String {
        self.names.join(", ")
    }
}

/// Boxes for Disorder Markers on a card. The book sets no upper limit; four is more than an
/// element usually carries before it is in serious trouble (M-70).
pub const DISORDER_BOXES: u8 = 4;

pub struct CardSet {
    /// The side's colour class ([`SideColour::class`]).
    pub side: &'static str,
    pub pages: Vec<Vec<Card>>,
    pub glossary: Vec<SkillLine>,
    pub total_cards: usize,
}

fn level_name(cat: &Catalogue, level: DisciplineLevel) -> String {
    cat.tables()
        .discipline_levels
        .iter()
        .find(|d| d.id == level)
        .map(|d| d.name.clone())
        .unwrap_or_else(|| level.label().to_string())
}

/// The four discipline levels as cards and the sheet print them, `start` marked.
pub fn discipline_track(cat: &Catalogue, start: DisciplineLevel) -> Vec<(String, bool)> {
    DisciplineLevel::ALL
        .iter()
        .map(|l| (level_name(cat, *l), *l == start))
        .collect()
}

pub fn build(
    cat: &Catalogue,
    doc: &RosterDoc,
    state: Option<&ForceState>,
    size: CardSize,
    paper: Paper,
    one_per_element: bool,
) -> CardSet {
    let doc = state.map(|s| s.apply(doc)).unwrap_or_else(|| doc.clone());
    // Profiles keyed by what makes them differ, in the order they first appear.
    let mut order: Vec<String> = Vec::new();
    let mut cards: BTreeMap<String, Card> = BTreeMap::new();
    let mut glossary: BTreeMap<String, SkillLine> = BTreeMap::new();
    for (gi, group) in doc.groups.iter().enumerate() {
        for (ei, e) in group.elements.iter().enumerate() {
            let p = profile(cat, e);
            let mut upgrades: Vec<&str> = p.upgrades.iter().map(|u| u.id()).collect();
            upgrades.sort_unstable();
            let key = if one_per_element {
                format!("{gi:03}-{ei:03}")
            } else {
                format!(
                    "{}|{}|{}|{}",
                    p.element_type.id(),
                    p.size.id(),
                    p.weapon.id(),
                    upgrades.join("+")
                )
            };
            let history = state
                .and_then(|s| s.element(e.id.as_ref()))
                .map(|s| s.history.clone())
                .unwrap_or_default();
            let name = if e.name.is_empty() {
                format!(
                    "{} {}",
                    p.size.label(),
                    p.element_type.label().to_lowercase()
                )
            } else {
                e.name.clone()
            };
            if let Some(card) = cards.get_mut(&key) {
                card.count += 1;
                card.names.push(name);
                card.history.extend(history);
                continue;
            }
            for s in &p.skills {
                glossary.entry(s.name.clone()).or_insert_with(|| SkillLine {
                    name: s.name.clone(),
                    summary: s.summary.clone(),
                });
            }
            let range = match p.range.min {
                Some(min) => format!("{min}–{}\"", p.range.max),
                None => format!("{}\"", p.range.max),
            };
            let weapon = cat
                .weapon(p.weapon)
                .map(|w| w.name.clone())
                .unwrap_or_else(|| p.weapon.label().to_string());
            let upgrade_names: Vec<String> = p
                .upgrades
                .iter()
                .map(|u| {
                    cat.upgrade(*u)
                        .map(|d| d.name.clone())
                        .unwrap_or_else(|| u.label().into())
                })
                .collect();
            let formations: Vec<String> = p
                .formations
                .iter()
                .map(|f| {
                    cat.formations()
                        .iter()
                        .find(|d| d.id == *f)
                        .map(|d| d.name.clone())
                        .unwrap_or_else(|| f.label().into())
                })
                .collect();
            let track = discipline_track(cat, p.starting_discipline);
            order.push(key.clone());
            cards.insert(
                key,
                Card {
                    names: vec![name],
                    icon: type_icon(p.element_type, &p.upgrades).id(),
                    count: 1,
                    type_label: p.element_type.label().to_string(),
                    size_label: p.size.label().to_string(),
                    weapon,
                    upgrades: upgrade_names.join(" + "),
                    range,
                    threat_zone: p.threat_zone,
                    maneuver: p.maneuver,
                    combat: p.combat,
                    discipline: p.discipline,
                    morale: p.morale,
                    action: p.action,
                    formations: formations.join(", "),
                    starting: level_name(cat, p.starting_discipline),
                    points: p.points,
                    skills: p
                        .skills
                        .iter()
                        .map(|s| SkillLine {
                            name: s.name.clone(),
                            summary: s.summary.clone(),
                        })
                        .collect(),
                    notes: p.notes.clone(),
                    hit_boxes: (1..=p.discipline).collect(),
                    disorder_boxes: (1..=DISORDER_BOXES).collect(),
                    track,
                    history,
                    names_line: String::new(),
                    history_lines: Vec::new(),
                },
            );
        }
    }
    let ordered: Vec<Card> = order
        .iter()
        .filter_map(|k| cards.remove(k))
        .map(|mut card| {
            card.names_line = names_within(&card.names, size.names_budget());
            card.history_lines = lines_within(&card.history, size.history_lines());
            card
        })
        .collect();
    let total_cards = ordered.len();
    let pages = ordered
        .chunks(size.per_page(paper))
        .map(|c| c.to_vec())
        .collect();
    CardSet {
        side: side_colour(doc.nation).class(),
        pages,
        glossary: glossary.into_values().collect(),
        total_cards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::systems::lotf::{
        ElementDoc, ElementType, GroupDoc, Nation, Size, Upgrade, War,
    };

    fn doc() -> RosterDoc {
        let mut d = RosterDoc::new("Cards", War::AmericanRevolution, Nation::British, Some(300));
        let mut g = GroupDoc::default();
        for name in ["1st", "2nd", "3rd"] {
            g.elements
                .push(ElementDoc::new(name, ElementType::Infantry, Size::Medium));
        }
        let mut grenadiers = ElementDoc::new("Grenadiers", ElementType::Infantry, Size::Medium);
        grenadiers.upgrades = vec![Upgrade::Grenadiers];
        g.elements.push(grenadiers);
        d.groups.push(g);
        d
    }

    #[test]
    fn identical_profiles_share_one_card_with_a_count_and_the_names() {
        let cat = Catalogue::builtin().unwrap();
        let set = build(&cat, &doc(), None, CardSize::Standard, Paper::A4, false);
        assert_eq!(set.total_cards, 2);
        let first = &set.pages[0][0];
        assert_eq!(first.count, 3);
        assert_eq!(first.names_text(), "1st, 2nd, 3rd");
        assert_eq!(
            first.hit_boxes.len(),
            first.discipline as usize,
            "one hit box per point of Discipline"
        );
        assert!(
            !set.glossary.is_empty(),
            "grenadiers bring a skill to explain"
        );
    }

    #[test]
    fn one_card_per_element_on_request() {
        let cat = Catalogue::builtin().unwrap();
        let set = build(&cat, &doc(), None, CardSize::Standard, Paper::A4, true);
        assert_eq!(set.total_cards, 4);
    }

    #[test]
    fn a_reduced_element_prints_at_its_new_size_with_its_history() {
        let cat = Catalogue::builtin().unwrap();
        let mut d = doc();
        d.assign_missing_ids();
        let id = d.groups[0].elements[0].id.clone().unwrap();
        let mut state = ForceState::default();
        state.elements.insert(
            id,
            super::super::ElementState {
                size: Some(Size::Small),
                removed: false,
                history: vec!["reduced to small after Brandywine".into()],
            },
        );
        let set = build(&cat, &d, Some(&state), CardSize::Standard, Paper::A4, false);
        assert_eq!(
            set.total_cards, 3,
            "the reduced element now has a profile of its own"
        );
        let small = set.pages[0]
            .iter()
            .find(|c| c.size_label == "Small")
            .expect("a small card");
        assert_eq!(small.history, ["reduced to small after Brandywine"]);
    }

    #[test]
    fn large_cards_fit_four_to_a_page_on_a4_and_on_letter() {
        let cat = Catalogue::builtin().unwrap();
        for paper in [Paper::A4, Paper::Letter] {
            let set = build(&cat, &doc(), None, CardSize::Large, paper, true);
            assert_eq!(set.pages.len(), 1, "four elements, one page of {paper:?}");
        }
    }

    #[test]
    fn cards_carry_the_side_colour_and_each_type_its_symbol() {
        let cat = Catalogue::builtin().unwrap();
        let mut d = doc();
        d.groups[0]
            .elements
            .push(ElementDoc::new("Horse", ElementType::Cavalry, Size::Small));
        let set = build(&cat, &d, None, CardSize::Standard, Paper::A4, false);
        assert_eq!(set.side, "side-red", "a British force prints in red");
        let icons: Vec<&str> = set.pages[0].iter().map(|c| c.icon).collect();
        assert_eq!(icons, ["infantry", "infantry", "cavalry"]);
    }
}
