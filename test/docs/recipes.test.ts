import { validateWorkflow } from "@action-validator/core";
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Job } from "kubernetes-models/batch/v1";
import { PersistentVolumeClaim } from "kubernetes-models/v1";
import { parseAllDocuments } from "yaml";
import { experimentSchema } from "../../src/experiment/experiment-schema.js";
import { temporaryFolder } from "../helpers.js";

/**
 * Every YAML and shell block of the recipes in docs/ is what it claims to be: YAML that parses, experiments
 * that the experiment schema accepts, GitHub workflows that GitHub's schema accepts (@action-validator/core),
 * Kubernetes objects that their kind's schema accepts (kubernetes-models), shell that bash parses. A recipe that is wrong fails here, not in a user's CI.
 */

/** The kinds the recipes use, with their schemas (kubernetes-models: Kubernetes' OpenAPI schemas, through ajv). */
const KUBERNETES_MODELS: Record<string, (new (value: never) => { validate(): void }) | undefined> = {
  "batch/v1 Job": Job,
  "v1 PersistentVolumeClaim": PersistentVolumeClaim,
};

const DOCS = "docs";
const blocks = readdirSync(DOCS)
  .filter((file) => file.endsWith(".md"))
  .flatMap((file) => {
    const text = readFileSync(join(DOCS, file), "utf8");
    return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
      file,
      line: text.slice(0, match.index).split("\n").length,
      language: match[1]!,
      body: match[2]!,
    }));
  });
const yamlBlocks = blocks.filter((block) => block.language === "yaml");
const shellBlocks = blocks.filter((block) => block.language === "bash" || block.language === "sh");

/** `bash -n`: the syntax, without running anything. */
function bashSyntax(script: string): string | null {
  const result = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
  return result.status === 0 ? null : result.stderr.trim();
}

/** A workflow's `run:` scripts, with GitHub's `${{ … }}` expressions replaced by a word, as the runner would. */
function runScripts(workflow: { jobs?: Record<string, { steps?: { run?: string; name?: string }[] }> }): { name: string; script: string }[] {
  return Object.values(workflow.jobs ?? {}).flatMap((job) =>
    (job.steps ?? []).filter((step) => typeof step.run === "string").map((step) => ({ name: step.name ?? step.run!, script: step.run!.replace(/\$\{\{[^}]*\}\}/g, "x") })),
  );
}

describe("the recipes in docs/", () => {
  it("have YAML and shell blocks to check", () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(4);
    expect(shellBlocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(yamlBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))("%s: YAML that parses, and a valid workflow or Kubernetes object", (_, block) => {
    const documents = parseAllDocuments(block.body);
    for (const document of Array.isArray(documents) ? documents : [documents]) {
      expect(document.errors.map((error) => error.message)).toEqual([]);
      const value = document.toJS() as Record<string, unknown>;
      if ("grid" in value) {
        // An experiment (plugins.md): the schema's rules; its plug-in is run by the package test.
        const parsed = experimentSchema.safeParse(value);
        expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      } else if ("jobs" in value) {
        expect(validateWorkflow(block.body).errors).toEqual([]);
        // A matrix of shards runs every shard to its end: GitHub's default fail-fast cancels the others on one failure.
        for (const [name, job] of Object.entries(value.jobs as Record<string, { strategy?: { matrix?: unknown; "fail-fast"?: boolean } }>)) {
          if (job.strategy?.matrix !== undefined) expect([name, job.strategy["fail-fast"]]).toEqual([name, false]);
        }
        for (const { name, script } of runScripts(value as never)) expect([name, bashSyntax(script)]).toEqual([name, null]);
      } else {
        expect(value).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String), metadata: { name: expect.any(String) } });
        const Model = KUBERNETES_MODELS[`${String(value.apiVersion)} ${String(value.kind)}`];
        expect(Model, `a model of ${String(value.apiVersion)} ${String(value.kind)} to validate it with`).toBeDefined();
        expect(() => new Model!(value as never).validate()).not.toThrow();
      }
    }
  });

  it.each(shellBlocks.map((block) => [`${block.file}:${block.line}`, block] as const))("%s: shell that bash parses", (_, block) => {
    expect(bashSyntax(block.body)).toBeNull();
  });

  it("the compare job writes its step summary whatever compare's exit code, and fails the step on a regression", () => {
    const workflow = yamlBlocks.find((block) => block.file === "ci-regression-checks.md")!;
    const step = runScripts(parseAllDocuments(workflow.body).map((document) => document.toJS())[0]).find(({ name }) => name === "Compare with the baseline")!;
    const folder = temporaryFolder();
    // A stand-in for npx whose compare prints a report and exits as a regression would.
    const npx = join(folder, "npx");
    writeFileSync(npx, '#!/bin/sh\necho "### perceptron-lab compare: REGRESSION"\nexit 1\n');
    chmodSync(npx, 0o755);
    const summary = join(folder, "summary.md");
    // GitHub runs `run:` scripts with `bash -e {0}`.
    const result = spawnSync("bash", ["-e", "-c", step.script], { cwd: folder, encoding: "utf8", env: { ...process.env, PATH: `${folder}:${process.env.PATH}`, GITHUB_STEP_SUMMARY: summary }, timeout: 300_000, killSignal: "SIGKILL" });
    expect(result.status).toBe(1);
    expect(readFileSync(summary, "utf8")).toBe("### perceptron-lab compare: REGRESSION\n");
  });
});
