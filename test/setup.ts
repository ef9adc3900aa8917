import fc from "fast-check";

/**
 * Property tests run from a fixed seed, so that every run of the suite (and CI) checks the same cases
 * and a failure replays. Explore other cases with FC_SEED=<n> npx vitest run.
 */
fc.configureGlobal({ seed: process.env.FC_SEED === undefined ? 20261121 : Number(process.env.FC_SEED) });
