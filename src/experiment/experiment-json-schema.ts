import { z } from "zod";
import { experimentSchema } from "./experiment-schema.js";

/** The experiment format as JSON Schema (draft 2020-12), published as experiments/schema.json for editors. */
export function experimentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(experimentSchema, { io: "input", target: "draft-2020-12" }),
    title: "perceptron-lab experiment",
  };
}

export function experimentJsonSchemaText(): string {
  return `${JSON.stringify(experimentJsonSchema(), null, 2)}\n`;
}
