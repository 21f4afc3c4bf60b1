#![no_main]
//! See `muster_fuzz::lotf_record_fields`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    muster_fuzz::lotf_record_fields(data);
});
