#![no_main]
//! See `muster_fuzz::lotf_roster`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    muster_fuzz::lotf_roster(&muster_fuzz::text(data));
});
