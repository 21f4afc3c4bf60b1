//! The closed vocabularies of *Liberty or Death!*: what a document or a request may name.

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// The three army lists (L-49: one per force, the crown lists ally with each other).
    ArmyList {
        Continental => "continental", "Continental";
        British => "british", "British";
        Hessian => "hessian", "Hessian";
    }
);

vocabulary!(
    /// What a unit is on the table (the kind half of the lists' TYPE column).
    Kind {
        Infantry => "infantry", "Infantry";
        MountedCavalry => "mounted_cavalry", "Cavalry";
        DismountedCavalry => "dismounted_cavalry", "Dismounted Cavalry";
        Skirmishers => "skirmishers", "Skirmishers";
        Artillery => "artillery", "Artillery";
    }
);

vocabulary!(
    /// How well a unit fights and tests (the quality half of TYPE). Not the ELITE rule (L-52).
    Quality {
        Militia => "militia", "Militia";
        Regular => "regular", "Regular";
        Elite => "elite", "Elite";
    }
);

vocabulary!(
    /// The sixteen special rules. `Elite` is the ELITE rule and `Steady` the STEADY rule, kept
    /// apart from the quality and the hit-state of the same names (L-52).
    SpecialRule {
        Brave => "brave", "BRAVE";
        Drilled => "drilled", "DRILLED";
        Elite => "elite", "ELITE rule";
        Impetuous => "impetuous", "IMPETUOUS";
        Independent => "independent", "INDEPENDENT";
        Marksmen => "marksmen", "MARKSMEN";
        Natives => "natives", "NATIVES";
        PoorlyTrained => "poorly_trained", "POORLY TRAINED";
        Reliable => "reliable", "RELIABLE";
        Scouts => "scouts", "SCOUTS";
        Stalwart => "stalwart", "STALWART";
        Steady => "steady", "STEADY rule";
        Stubborn => "stubborn", "STUBBORN";
        ToughFighters => "tough_fighters", "TOUGH FIGHTERS";
        Unreliable => "unreliable", "UNRELIABLE";
        Veterans => "veterans", "VETERANS";
    }
);

vocabulary!(
    /// Shooting weapons.
    Weapon {
        SmoothboreMusket => "smoothbore_musket", "Smoothbore muskets";
        RifledMusket => "rifled_musket", "Rifled muskets";
        Carbine => "carbine", "Swords and carbines";
        Gun3 => "3pdr", "3pdr field gun";
        Gun6 => "6pdr", "6pdr field gun";
        Gun12 => "12pdr", "12pdr field gun";
    }
);

vocabulary!(
    /// The options a list entry may carry.
    EntryOption {
        GrenadiersDetached => "grenadiers_detached", "Grenadiers Detached";
    }
);

vocabulary!(
    /// A unit's hit-state, from its hits against its WORN / SHAKEN / AUTO BROKEN values (1.7).
    /// ROUTING is a condition, not a hit-state (L-37).
    HitState {
        Steady => "steady", "STEADY";
        Worn => "worn", "WORN";
        Shaken => "shaken", "SHAKEN";
        Broken => "broken", "BROKEN";
    }
);

vocabulary!(
    /// The orders a unit may be given in its Command phase.
    Order {
        Hold => "hold", "HOLD";
        Reform => "reform", "REFORM";
        Advance => "advance", "ADVANCE";
        Retire => "retire", "RETIRE";
        Run => "run", "RUN";
        Retreat => "retreat", "RETREAT";
        Charge => "charge", "CHARGE";
        Rally => "rally", "RALLY";
    }
);

vocabulary!(
    /// What makes a unit take a MORALE test.
    MoraleTrigger {
        Shooting => "shooting", "Hit by shooting";
        LostMelee => "lost_melee", "Lost a melee";
        BrokenFriend => "broken_friend", "A friendly unit BROKEN within 6\"";
        Interpenetration => "interpenetration", "Interpenetrated while SHAKEN or ROUTING";
        DefensiveFire => "defensive_fire", "Hit by defensive fire while charging";
        ReformTheRanks => "reform_the_ranks", "Reform The Ranks!";
    }
);

vocabulary!(
    /// What a MORALE test does to the unit (the results table).
    MoraleResult {
        NoEffect => "no_effect", "no effect";
        Holds => "holds", "holds";
        Disordered => "disordered", "DISORDERED";
        Retire => "retire", "RETIRE";
        Route => "route", "ROUTE";
        Broken => "broken", "BROKEN";
    }
);

vocabulary!(
    /// The outcome of a CHARGE order test by its successes.
    ChargeGrade {
        Failed => "failed", "Failed (DISORDERED)";
        Falters => "falters", "Falters!";
        Charge => "charge", "Charge!";
        DeterminedCharge => "determined_charge", "Determined Charge!";
    }
);

vocabulary!(
    /// The Command Actions a C-in-C's Command Points buy.
    CommandAction {
        LeadTheFight => "lead_the_fight", "Lead The Fight!";
        Reinforce => "reinforce", "Reinforce!";
        HoldTheLine => "hold_the_line", "Hold The Line!";
        ReformTheRanks => "reform_the_ranks", "Reform The Ranks!";
        DirectOrder => "direct_order", "A Direct Order!";
        PressTheCharge => "press_the_charge", "Press the Charge!";
        ConcentrateFire => "concentrate_fire", "Concentrate Fire!";
        DoubleTime => "double_time", "Double Time!";
    }
);

vocabulary!(
    /// A battle's result band by the difference in VPs (4.7).
    Band {
        Draw => "draw", "Draw";
        Minor => "minor", "Minor victory";
        Major => "major", "Major victory";
    }
);

vocabulary!(
    /// A shooting range band (1.5); beyond long range there is no shot (L-18).
    RangeBand {
        Short => "short", "short";
        Effective => "effective", "effective";
        Long => "long", "long";
    }
);

/// An amount of dice in halves (2.5 dice per base is 5): the fractions of the dice tables stay
/// exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HalfDice(pub i32);

impl HalfDice {
    /// Reads a number of dice that must be a whole multiple of one half.
    pub fn from_dice(dice: f64) -> Option<HalfDice> {
        let halves = dice * 2.0;
        (halves.fract() == 0.0 && halves.abs() < 1000.0).then_some(HalfDice(halves as i32))
    }

    pub fn as_dice(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// `per_base × bases` rounded up to whole dice (never below 0).
    pub fn times_rounded_up(self, bases: u32) -> u32 {
        let halves = i64::from(self.0.max(0)) * i64::from(bases);
        u32::try_from((halves + 1) / 2).unwrap_or(u32::MAX)
    }
}

/// Serialised as a number of dice (`2.5`).
impl serde::Serialize for HalfDice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_dice())
    }
}

impl std::fmt::Display for HalfDice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "−" } else { "" };
        let whole = self.0.abs() / 2;
        if self.0.abs() % 2 == 1 {
            if whole == 0 {
                write!(f, "{sign}½")
            } else {
                write!(f, "{sign}{whole}½")
            }
        } else {
            write!(f, "{sign}{whole}")
        }
    }
}
