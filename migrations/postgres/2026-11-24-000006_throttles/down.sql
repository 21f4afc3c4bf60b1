DROP TABLE throttle_hits;
