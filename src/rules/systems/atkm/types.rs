//! The closed vocabularies of *All the King's Men*: what a roster, a request or a set-up may
//! name. Numbers live in the catalogue (`data/tables.json`), never here.

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// What a unit is (spec 1.1). Skirmishing cavalry and woodland Indians are period rules.
    UnitType {
        Infantry => "infantry", "Infantry";
        Skirmishers => "skirmishers", "Skirmishers";
        Cavalry => "cavalry", "Cavalry";
        FootArtillery => "foot_artillery", "Foot artillery";
        HorseArtillery => "horse_artillery", "Horse artillery";
        SkirmishingCavalry => "skirmishing_cavalry", "Skirmishing cavalry";
        WoodlandIndians => "woodland_indians", "Woodland Indians";
    }
);

impl UnitType {
    pub fn is_artillery(self) -> bool {
        matches!(self, UnitType::FootArtillery | UnitType::HorseArtillery)
    }

    /// Skirmishers of any kind: always loose, activated without command points (K-44, except
    /// Indians, who always pay).
    pub fn is_skirmishing(self) -> bool {
        matches!(
            self,
            UnitType::Skirmishers | UnitType::SkirmishingCavalry | UnitType::WoodlandIndians
        )
    }
}

vocabulary!(
    /// A unit's quality (advanced rule "elite and militia units"; K-7 maps the book's words).
    Quality {
        Elite => "elite", "Elite";
        Regular => "regular", "Regular";
        Militia => "militia", "Militia";
    }
);

vocabulary!(
    /// A gun's size (advanced rule "artillery sizes"); rockets only in the North Point scenario.
    Gun {
        Light => "light", "Light gun";
        Medium => "medium", "Medium gun";
        Heavy => "heavy", "Heavy gun";
        Rockets => "rockets", "Rockets";
    }
);

vocabulary!(
    /// A unit's resolve colour, which is also the colour of the dice it rolls.
    Colour {
        Green => "green", "Green";
        Yellow => "yellow", "Yellow";
        Red => "red", "Red";
    }
);

impl Colour {
    /// One colour better (towards green), clamped (K-6).
    pub fn better(self) -> Colour {
        match self {
            Colour::Green | Colour::Yellow => Colour::Green,
            Colour::Red => Colour::Yellow,
        }
    }

    /// One colour worse (towards red), clamped (K-6).
    pub fn worse(self) -> Colour {
        match self {
            Colour::Green => Colour::Yellow,
            Colour::Yellow | Colour::Red => Colour::Red,
        }
    }

    /// Shifted by `steps` (negative = better), clamping at each step (K-6).
    pub fn shifted(self, steps: i32) -> Colour {
        let mut c = self;
        for _ in 0..steps.unsigned_abs() {
            c = if steps < 0 { c.better() } else { c.worse() };
        }
        c
    }

    /// The better of two colours.
    pub fn best(self, other: Colour) -> Colour {
        if (self as u8) <= (other as u8) {
            self
        } else {
            other
        }
    }
}

vocabulary!(
    /// How a unit stands (spec 1.4).
    Formation {
        Line => "line", "Line";
        Column => "column", "Column";
        Loose => "loose", "Loose";
        Mob => "mob", "Mob";
        Square => "square", "Square";
    }
);

vocabulary!(
    /// A general's place in the chain of command.
    Role {
        Commanding => "commanding", "Commanding General";
        Lieutenant => "lieutenant", "Lieutenant General";
    }
);

vocabulary!(
    /// The book's optional rules a roster declares (spec 2.1); legality depends on them.
    AdvancedRule {
        EliteMilitia => "elite_militia", "Elite and militia units";
        ArtillerySizes => "artillery_sizes", "Artillery sizes";
        UnitSizes => "unit_sizes", "Unit sizes";
        BreakPoints => "break_points", "Break points";
        RollModifiers => "roll_modifiers", "Roll modifiers";
        Rerolls => "rerolls", "Re-rolls";
        ExtraResolveCounters => "extra_resolve_counters", "Extra resolve counters";
        CommandRadius => "command_radius", "Command radius";
        SecretCommand => "secret_command", "Secret command rolls";
        AdvancedActivation => "advanced_activation", "Advanced activation";
        DeckBuster => "deck_buster", "Deck buster";
        Override => "override", "Overriding the deck";
        Banking => "banking", "Banking";
        Buildings => "buildings", "Buildings";
        Enfilade => "enfilade", "Enfilade";
        Square => "square", "Square";
        Brigading => "brigading", "Brigading";
        RallyMob => "rally_mob", "Rallying";
        RecoverDisorder => "recover_disorder", "Recovering from disorder";
        OfficerEnsignCasualties => "officer_ensign_casualties", "Officer and ensign casualties";
        Marksmen => "marksmen", "Marksmen";
        GeneralCasualties => "general_casualties", "General casualties";
        AdvancedArmyCollapse => "advanced_army_collapse", "Advanced army collapse";
        SkirmishingCavalry => "skirmishing_cavalry", "Skirmishing cavalry";
        WoodlandIndians => "woodland_indians", "Woodland Indians";
        RepeatingRifles => "repeating_rifles", "Repeating rifles";
    }
);

vocabulary!(
    /// The war a force fights in (spec 2.1); shown, and used by campaigns to match forces.
    Period {
        Sywar => "sywar", "Seven Years' War";
        Fiw => "fiw", "French and Indian War";
        Awi => "awi", "American Revolution";
        Napoleonic => "napoleonic", "Napoleonic Wars";
        WarOf1812 => "war_of_1812", "War of 1812";
        Acw => "acw", "American Civil War";
        Generic => "generic", "Any horse-and-musket war";
    }
);

vocabulary!(
    /// The classes of the fire table (spec 1.7): who fires and who is fired on.
    FireClass {
        Infantry => "infantry", "Infantry";
        Cavalry => "cavalry", "Cavalry";
        Skirmishers => "skirmishers", "Skirmishers";
        Artillery => "artillery", "Artillery";
    }
);

vocabulary!(
    /// The defender columns of the melee table (spec 1.7).
    MeleeTarget {
        Infantry => "infantry", "Infantry";
        Cavalry => "cavalry", "Cavalry";
        Skirmishers => "skirmishers", "Skirmishers";
        FootArtillery => "foot_artillery", "Foot artillery";
        HorseArtillery => "horse_artillery", "Horse artillery";
    }
);

vocabulary!(
    /// How a unit pays for an activation outside its general's radius (spec 5.1, K-44).
    CpRule {
        Radius => "radius", "Free inside the radius; outside, free when green, 1 point when yellow or red";
        Free => "free", "Always free";
        Always => "always", "Always 1 command point";
    }
);
