//! The book's historical orders of battle as choices for forms: each force of each side,
//! named `battle:side:force` (e.g. `cowpens:0:0`). Parsed once and kept.

use std::sync::OnceLock;

use crate::rules::systems::lotf::{self, HistoricalBattle, RosterDoc};
use crate::web::page::SelectOption;

fn battles() -> &'static [HistoricalBattle] {
    static BATTLES: OnceLock<Vec<HistoricalBattle>> = OnceLock::new();
    BATTLES.get_or_init(|| {
        lotf::historical_battles()
            .iter()
            .filter_map(|s| lotf::historical_battle(&s.id))
            .collect()
    })
}

/// Every force of every refight, labelled "Battle (date): force (n elements)".
pub fn force_choices() -> Vec<SelectOption> {
    let mut out = Vec::new();
    for battle in battles() {
        for (si, side) in battle.sides.iter().enumerate() {
            for (fi, force) in side.forces.iter().enumerate() {
                // Force names usually start with the battle's name; say it once.
                let name = force
                    .name
                    .strip_prefix(&battle.name)
                    .map(|n| n.trim_start_matches([' ', '—', '-', ':']).trim())
                    .unwrap_or(&force.name);
                out.push(SelectOption {
                    value: format!("{}:{si}:{fi}", battle.id),
                    label: format!(
                        "{} ({}): {} ({} elements)",
                        battle.name,
                        battle.date,
                        name,
                        force.element_count()
                    ),
                });
            }
        }
    }
    out
}

/// The roster of a force named `battle:side:force`.
pub fn force(value: &str) -> Option<RosterDoc> {
    lotf::historical_force(value)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_choice_names_a_force() {
        let choices = super::force_choices();
        assert!(choices.len() >= 40);
        for c in &choices {
            assert!(super::force(&c.value).is_some(), "{}", c.value);
        }
        assert!(super::force("cowpens:9:9").is_none());
        assert!(super::force("nowhere:0:0").is_none());
        assert!(super::force("cowpens:0:0:extra").is_none());
    }
}
