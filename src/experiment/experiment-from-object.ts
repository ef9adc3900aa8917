import { createHash } from "node:crypto";
import type { DataSet } from "../vocabulary/data-set.js";
import { parseExperiment, type LoadedExperiment } from "./load-experiment.js";

/**
 * An experiment built in code rather than read from a file: validated by the same schema and rules
 * (an InputError naming the field otherwise), and identified in the manifest by the SHA-256 of its JSON
 * (keys as given), so that resume and rerun recognise it. `name` names the default result folder when the
 * object has none.
 */
export function experimentFromObject(source: Record<string, unknown>, name = "experiment"): LoadedExperiment {
  const text = JSON.stringify(source);
  const dataSets = new Map<string, DataSet>();
  // The csv generator's data paths are relative to the working folder.
  const experiment = parseExperiment(source, name, `experiment ${typeof source.name === "string" ? source.name : name}`, { dataSets });
  return { path: `(object: ${experiment.name})`, experiment, source, hash: createHash("sha256").update(text).digest("hex"), ...(dataSets.size === 0 ? {} : { dataSets }) };
}
