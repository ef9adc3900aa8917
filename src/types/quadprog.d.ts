/** quadprog (Goldfarb–Idnani, a port of R's quadprog): arrays are 1-based, index 0 unused. */
declare module "quadprog" {
  export interface QpResult {
    readonly solution: number[];
    readonly Lagrangian: number[];
    readonly value: number[];
    readonly iterations: number[];
    readonly iact: number[];
    readonly message: string;
  }
  /** min −dᵀb + ½ bᵀDb subject to Aᵀb ≥ b0 (the first meq as equalities). Modifies Dmat and dvec. */
  export function solveQP(Dmat: number[][], dvec: number[], Amat: number[][], bvec: number[], meq?: number, factorized?: number[]): QpResult;
}
