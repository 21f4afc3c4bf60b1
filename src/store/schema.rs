//! Tables as diesel sees them. Written by hand because one schema serves both backends;
//! `migrations/sqlite` and `migrations/postgres` must produce these columns (a test checks).

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        is_admin -> Bool,
        disabled -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        display_key -> Text,
    }
}

diesel::table! {
    sessions (id) {
        id -> Text,
        user_id -> BigInt,
        kind -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::joinable!(sessions -> users (user_id));

diesel::table! {
    rosters (id) {
        id -> BigInt,
        owner_id -> BigInt,
        rule_system -> Text,
        name -> Text,
        war -> Text,
        nation -> Text,
        points -> Integer,
        points_limit -> Nullable<Integer>,
        legal -> Bool,
        error_count -> Integer,
        warning_count -> Integer,
        catalogue_version -> Text,
        document -> Text,
        version -> Integer,
        share_token -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(rosters -> users (owner_id));
diesel::table! {
    battles (id) {
        id -> BigInt,
        rule_system -> Text,
        created_by -> BigInt,
        attacker_user_id -> Nullable<BigInt>,
        attacker_guest -> Nullable<Text>,
        defender_user_id -> Nullable<BigInt>,
        defender_guest -> Nullable<Text>,
        attacker_roster_id -> Nullable<BigInt>,
        defender_roster_id -> Nullable<BigInt>,
        title -> Text,
        scenario -> Text,
        points -> Integer,
        setup -> Text,
        rolls -> Text,
        status -> Text,
        method -> Nullable<Text>,
        result -> Nullable<Text>,
        winner -> Nullable<Text>,
        victory_level -> Nullable<Text>,
        attacker_vp -> Nullable<Integer>,
        defender_vp -> Nullable<Integer>,
        recorded_by -> Nullable<BigInt>,
        confirmed_by -> Nullable<BigInt>,
        single_party -> Bool,
        dispute -> Nullable<Text>,
        public_token -> Nullable<Text>,
        replaces_id -> Nullable<BigInt>,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        campaign_id -> Nullable<BigInt>,
        invitation -> Nullable<Text>,
    }
}

diesel::table! {
    campaigns (id) {
        id -> BigInt,
        rule_system -> Text,
        name -> Text,
        organiser_id -> BigInt,
        invite_code -> Text,
        state -> Text,
        phase -> Text,
        turn -> Integer,
        version -> Integer,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        archived -> Bool,
        public_token -> Nullable<Text>,
    }
}

diesel::table! {
    campaign_members (campaign_id, user_id) {
        campaign_id -> BigInt,
        user_id -> BigInt,
        force_id -> Nullable<Text>,
    }
}

diesel::table! {
    campaign_log (id) {
        id -> BigInt,
        campaign_id -> BigInt,
        seq -> BigInt,
        turn -> Integer,
        kind -> Text,
        force_id -> Nullable<Text>,
        actor_id -> Nullable<BigInt>,
        seed -> Nullable<Text>,
        event -> Text,
        created_at -> Timestamp,
        words -> Nullable<Text>,
    }
}

diesel::table! {
    throttle_hits (id) {
        id -> BigInt,
        bucket -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    jobs (id) {
        id -> Text,
        kind -> Text,
        owner_id -> Nullable<BigInt>,
        title -> Text,
        params -> Text,
        status -> Text,
        done -> Integer,
        total -> Integer,
        result -> Nullable<Text>,
        error -> Nullable<Text>,
        claimed_by -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        attempts -> Integer,
        run_after -> Timestamp,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A battle's state at the table (issue 19): the rule system's JSON document, versioned.
    battle_table_states (battle_id) {
        battle_id -> BigInt,
        state -> Text,
        version -> Integer,
        updated_by -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}

// Notifications (migration 2026-11-27-000011_notifications).
diesel::table! {
    notifications (id) {
        id -> BigInt,
        user_id -> BigInt,
        kind -> Text,
        title -> Text,
        link -> Text,
        campaign_id -> Nullable<BigInt>,
        battle_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        read_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    outbox (id) {
        id -> BigInt,
        channel -> Text,
        target -> Text,
        subject -> Text,
        body -> Text,
        unsubscribe_url -> Nullable<Text>,
        status -> Text,
        attempts -> Integer,
        run_after -> Timestamp,
        claimed_by -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    notification_prefs (user_id) {
        user_id -> BigInt,
        mail_off -> Text,
        unsubscribe_token -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    battle_open_sides (battle_id) {
        battle_id -> BigInt,
        force_document -> Text,
        force_roster_id -> Nullable<BigInt>,
        force_first -> Bool,
        scenario -> Nullable<Text>,
        roll_roles -> Bool,
        waiting -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    password_resets (id) {
        id -> BigInt,
        user_id -> BigInt,
        token_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    battle_engine_requests (battle_id) {
        battle_id -> BigInt,
        requested_by -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::joinable!(battle_open_sides -> battles (battle_id));
diesel::joinable!(battle_engine_requests -> battles (battle_id));

diesel::table! {
    campaign_webhooks (campaign_id) {
        campaign_id -> BigInt,
        url -> Text,
        updated_at -> Timestamp,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    users,
    sessions,
    settings,
    rosters,
    battles,
    campaigns,
    campaign_members,
    campaign_log,
    throttle_hits,
    jobs,
    battle_table_states,
    battle_open_sides,
    battle_engine_requests,
    notifications,
    outbox,
    notification_prefs,
    password_resets,
    campaign_webhooks
);

// Marks the one transaction that erases an account's name from the campaign logs (see
// migrations/*/2026-11-27-000016_log_name_erasure): empty outside it, so never backed up.
diesel::table! {
    log_erasures (user_id) {
        user_id -> BigInt,
    }
}
