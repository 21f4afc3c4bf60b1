#!/usr/bin/env bash
# Screenshots of every page a player or an organiser reaches, at 390 px (a phone) and 1280 px,
# and the printouts as PDFs, made in headless Chromium by the browser tests (issue 18).
# Needs Debian's chromium and chromium-driver (and poppler-utils for the PDFs' PNG renderings).
# Usage: bash scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export MUSTER_REQUIRE_BROWSER=1
cargo test --test integration -- no_page_is_wider_than_a_phone printouts_have_the_expected_pages \
  lod_printouts_fit_their_pages no_card_runs_past_its_box fight_reports:: campaign_map::
echo "Pages: target/browser-shots/phone/ (390 px) and target/browser-shots/desktop/ (1280 px)"
echo "Printouts: target/browser-shots/print/ and target/browser-shots/lod-print/ (PDF and PNG)"
echo "Fight reports and campaign maps: target/browser-shots/fight-reports/ and target/browser-shots/campaign-map/"
