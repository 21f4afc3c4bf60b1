//! The modifier ids the combat code looks up, as closed vocabularies.
//!
//! The catalogue's modifier tables are read into these enums, so an id the
//! code does not know is a load error, and the consistency check requires a
//! row for every value, so a missing row is a load error as well: no lookup
//! can silently count 0 because of a misspelt or absent id.

use crate::rules::vocab::vocabulary;

vocabulary!(
    /// A row of the shooting dice modifiers.
    ShootingModifier {
        Cover => "cover", "cover";
        OpenOrder => "open_order", "open order";
        LongRange => "long_range", "long range";
        PointBlank => "point_blank", "point blank";
        Flank => "flank", "flank";
        Disorder => "disorder", "Disorder";
        Grapeshot => "grapeshot", "grapeshot";
        Exhausted => "exhausted", "Exhausted";
    }
);

vocabulary!(
    /// A row of the melee dice modifiers.
    MeleeDiceModifier {
        Initiated => "initiated", "initiated";
        BattleLine => "battle_line", "battle line";
        Flank => "flank", "flank";
        CounterCharged => "counter_charged", "counter-charge";
        Disorder => "disorder", "Disorder";
        Exhausted => "exhausted", "Exhausted";
    }
);

vocabulary!(
    /// A row of the melee result modifiers.
    MeleeResolutionModifier {
        VsUnlimberedOrColumn => "vs_unlimbered_or_column", "enemy unlimbered or in column";
        LineVsOpen => "line_vs_open", "line against open order";
        Hits => "hits", "hits";
        FlankAttack => "flank_attack", "flank attack";
        FitVsExhausted => "fit_vs_exhausted", "Fit against Exhausted";
        FitVsShaken => "fit_vs_shaken", "Fit against Shaken";
        InSpi => "in_spi", "inside its commander's SPI";
        CommanderAttached => "commander_attached", "commander attached";
        Defenses => "defenses", "defenses";
        HighGround => "high_ground", "high ground";
    }
);

vocabulary!(
    /// A row of the Morale Test modifiers.
    MoraleModifier {
        MarchColumn => "march_column", "march column";
        ForcedOrder => "forced_order", "later forced orders";
        ExcessHits => "excess_hits", "excess hits";
        ShakenOrExhausted => "shaken_or_exhausted", "Shaken or Exhausted";
        Disordered => "disordered", "disordered";
        GroupBroken => "group_broken", "group broken";
        Supported => "supported", "supported";
        BattleLine => "battle_line", "battle line";
        CommanderAttached => "commander_attached", "commander attached";
        Cover => "cover", "cover";
        Defenses => "defenses", "defenses";
    }
);
