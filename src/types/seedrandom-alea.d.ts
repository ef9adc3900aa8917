/**
 * seedrandom's alea on its own: the package's index also loads its five other generators, ARC4 and
 * node:crypto, which a worker thread never uses (~10 ms of its start-up).
 */
declare module "seedrandom/lib/alea.js" {
  import type seedrandom from "seedrandom";
  const alea: seedrandom["alea"];
  export default alea;
}
