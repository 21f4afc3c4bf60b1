//! The closed vocabularies of the *AWI wargames rules*: what a roster or a request may name.

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// What a unit is on the table (spec 1.2).
    TroopType {
        Infantry => "infantry", "Infantry";
        Skirmishers => "skirmishers", "Skirmishers";
        Cavalry => "cavalry", "Cavalry";
        Artillery => "artillery", "Artillery";
    }
);

vocabulary!(
    /// The four grades (the "morale class"), best first (spec 1.3).
    Grade {
        Elite => "elite", "Elite";
        Trained => "trained", "Trained";
        Raw => "raw", "Raw";
        Militia => "militia", "Militia";
    }
);

vocabulary!(
    /// Small arms (W-34: rifles only for skirmishers).
    Arms {
        Musket => "musket", "Musket";
        Rifle => "rifle", "Rifle";
    }
);

vocabulary!(
    /// Gun classes: there are no heavy guns in these rules.
    GunClass {
        Light => "light", "Light gun";
        Medium => "medium", "Medium gun";
    }
);

vocabulary!(
    /// Range bands; each printed figure is the band's inclusive upper limit (W-18).
    RangeBand {
        Canister => "canister", "Canister";
        Close => "close", "Close";
        Long => "long", "Long";
        Extreme => "extreme", "Extreme";
    }
);

vocabulary!(
    /// The rows of the movement table (spec 1.4).
    MoveRow {
        InfantryLine => "infantry_line", "Infantry in line";
        InfantryColumn => "infantry_column", "Infantry in column";
        Skirmishers => "skirmishers", "Skirmishers";
        Cavalry => "cavalry", "Cavalry";
        LimberedArtillery => "limbered_artillery", "Limbered artillery";
        ManHandledLight => "man_handled_light", "Light gun, man-handled";
        ManHandledMedium => "man_handled_medium", "Medium gun, man-handled";
    }
);

vocabulary!(
    /// Why a unit tests its morale (spec 4.3).
    MoraleReason {
        WishingToCharge => "wishing_to_charge", "Wishing to charge";
        BeingCharged => "being_charged", "Being charged";
        FiringHits => "firing_hits", "Took 2 or more firing hits last move";
        HalfStrength => "half_strength", "At or below half strength and under fire or seeing routers";
        Routing => "routing", "Routing with no enemy in sight within 12\"";
    }
);

impl Grade {
    /// The morale class order: 0 is the highest (elite).
    pub fn rank(self) -> usize {
        match self {
            Grade::Elite => 0,
            Grade::Trained => 1,
            Grade::Raw => 2,
            Grade::Militia => 3,
        }
    }
}

impl TroopType {
    /// Close order: infantry (not skirmishers) and cavalry (W-33).
    pub fn close_order(self) -> bool {
        matches!(self, TroopType::Infantry | TroopType::Cavalry)
    }
}
