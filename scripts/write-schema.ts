/** Writes experiments/schema.json from the zod schema (npm run schema); a test keeps them in step. */
import { writeFileSync } from "node:fs";
import { experimentJsonSchemaText } from "../src/experiment/experiment-json-schema.js";

writeFileSync(new URL("../experiments/schema.json", import.meta.url), experimentJsonSchemaText());
console.log("wrote experiments/schema.json");
