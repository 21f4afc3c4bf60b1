#![no_main]
//! See `muster_fuzz::lod_record`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    muster_fuzz::lod_record(data);
});
