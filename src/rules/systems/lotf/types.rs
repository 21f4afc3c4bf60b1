//! The fixed vocabulary of Land of the Free rosters: element types, sizes,
//! weapons, upgrades, wars, nations, formations and modes.
//!
//! These are closed sets because a roster document names them; the numbers
//! attached to them live in the catalogue data files.

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// The three kinds of element.
    ElementType {
        Infantry => "infantry", "Infantry";
        Cavalry => "cavalry", "Cavalry";
        Artillery => "artillery", "Artillery";
    }
);

vocabulary!(
    /// Element sizes, smallest first.
    Size {
        Tiny => "tiny", "Tiny";
        Small => "small", "Small";
        Medium => "medium", "Medium";
        Large => "large", "Large";
    }
);

vocabulary!(
    /// Weapons and gun classes.
    Weapon {
        Smoothbore => "smoothbore", "Smoothbore musket";
        Rifled => "rifled", "Rifled musket";
        Mixed => "mixed", "Mixed weapons";
        LightGun => "light_gun", "Light gun";
        HeavyGun => "heavy_gun", "Heavy gun";
        SiegeMortar => "siege_mortar", "Siege mortar";
        Rockets => "rockets", "Rockets";
    }
);

vocabulary!(
    /// The thirteen element upgrades (special element rules).
    Upgrade {
        AdditionalRanks => "additional_ranks", "Additional Ranks";
        Dragoons => "dragoons", "Dragoons";
        Elite => "elite", "Elite";
        Grenadiers => "grenadiers", "Grenadiers";
        Hessians => "hessians", "Hessians";
        Indians => "indians", "Indians";
        LightDragoons => "light_dragoons", "Light Dragoons";
        LightInfantry => "light_infantry", "Light Infantry";
        Militia => "militia", "Militia";
        MilitiaRiflemen => "militia_riflemen", "Militia Riflemen";
        Minutemen => "minutemen", "Minutemen";
        Rangers => "rangers", "Rangers / Frontiersmen";
        Riflemen => "riflemen", "Riflemen";
    }
);

vocabulary!(
    /// The four wars the book covers.
    War {
        FrenchIndianWar => "french_indian_war", "French and Indian War";
        AmericanRevolution => "american_revolution", "American Revolution";
        NorthwestIndianWar => "northwest_indian_war", "Northwest Indian War";
        WarOf1812 => "war_of_1812", "War of 1812";
    }
);

vocabulary!(
    /// Nations. British in the War of 1812 includes Canadian and West Indian units.
    Nation {
        British => "british", "British";
        French => "french", "French";
        American => "american", "American";
        Hessian => "hessian", "Hessian";
        NativeConfederation => "native_confederation", "Native Confederation";
    }
);

vocabulary!(
    /// Formations an element can take.
    Formation {
        BattleLine => "battle_line", "Battle Line";
        OpenOrder => "open_order", "Open Order";
        MarchColumn => "march_column", "March Column";
        Unlimbered => "unlimbered", "Unlimbered";
        Limbered => "limbered", "Limbered";
    }
);

vocabulary!(
    /// Discipline levels, best first.
    DisciplineLevel {
        Fit => "fit", "Fit";
        Shaken => "shaken", "Shaken";
        Exhausted => "exhausted", "Exhausted";
        Shattered => "shattered", "Shattered";
    }
);

vocabulary!(
    /// How strictly a roster is judged.
    Mode {
        Standard => "standard", "Standard";
        Historical => "historical", "Historical";
    }
);

#[allow(clippy::derivable_impls)]
impl Default for Mode {
    fn default() -> Self {
        Mode::Standard
    }
}
