/**
 * What a plug-in module uses (docs/plugins.md), as the package's `perceptron-lab/plugin` entry:
 * defineGenerator, defineBound, their types and the outward-rounded operations, importing nothing but
 * those (a module without imports), so that a worker thread that loads a plug-in loads this and not the
 * library.
 */
export { addUp, addDown, subUp, subDown, mulUp, mulDown, divUp, divDown, sqrtUp, sqrtDown, nextUp, nextDown } from "../math/outward-rounding.js";
export * from "../vocabulary/plugin-definitions.js";
