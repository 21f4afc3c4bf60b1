#![no_main]
//! See `muster_fuzz::battle_setup`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    muster_fuzz::battle_setup(data);
});
