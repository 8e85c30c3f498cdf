import type { z } from "zod";
import type { SuiteSchema } from "./schema";
import { PRESET_NAMES, type TreeNodeInput } from "./rubric-schema";
import { closestChoice } from "./zod-issues";
import { CATEGORY_AGGREGATES, checkCategoryRubric, checkReviewEval } from "./check-categories";
import { checkCompareEval } from "./check-compare";
import { checkCandidatesEval } from "./check-candidates";
import { checkProviders } from "./check-providers";
import { checkSelfGrading } from "./check-self-grading";
import { compileWhenRegex } from "./when-regex";
import type { DataPath, YamlLocator } from "./yaml-locator";
import type { ConfigIssue } from "./types";
import { LIMITS } from "./limits";
import { generatesCandidate } from "./resolve-suite";

// The rules zod's shape cannot say: references, combinations of fields,
// regular expressions, uniqueness. Each finds every problem, not just the first.

type Suite = z.output<typeof SuiteSchema>;
type RubricObject = Exclude<NonNullable<Suite["rubrics"]>[string], string> & { ref?: string };

const REF_OVERRIDES = new Set(["ref", "threshold", "strict"]);

export function checkSuite(input: { suite: Suite; locator: YamlLocator; file: string }): {
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
} {
  const { suite, locator, file } = input;
  const errors: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const error = (path: DataPath, message: string) =>
    errors.push({ file, ...locator.locate(path), path, message, severity: "error" });
  const warn = (path: DataPath, message: string) =>
    warnings.push({ file, ...locator.locate(path), path, message, severity: "warning" });
  const rubricNames = Object.keys(suite.rubrics ?? {});

  const checkStructured = (rubric: RubricObject, path: DataPath, allowRef: boolean) => {
    if (rubric.ref !== undefined) {
      if (!allowRef) error([...path, "ref"], "a named rubric cannot itself be a ref");
      else if (!rubricNames.includes(rubric.ref)) {
        const hint = closestChoice(rubric.ref, rubricNames);
        const known = rubricNames.length
          ? `defined rubrics: ${rubricNames.join(", ")}`
          : "the suite has no rubrics: map";
        error(
          [...path, "ref"],
          `unknown rubric ref "${rubric.ref}"${hint ? ` (did you mean "${hint}"?)` : ""}; ${known}`,
        );
      }
      for (const key of Object.keys(rubric)) {
        if (!REF_OVERRIDES.has(key) && (rubric as Record<string, unknown>)[key] !== undefined) {
          error(
            [...path, key],
            `a rubric with ref takes only threshold and strict overrides; move "${key}" into rubrics.${rubric.ref}`,
          );
        }
      }
      return;
    }
    if (
      rubric.preset !== undefined &&
      !(PRESET_NAMES as readonly string[]).includes(rubric.preset)
    ) {
      const hint = closestChoice(rubric.preset, [...PRESET_NAMES]);
      error(
        [...path, "preset"],
        `unknown preset "${rubric.preset}"${hint ? ` (did you mean "${hint}"?)` : ""}; valid presets: ${PRESET_NAMES.join(", ")}`,
      );
    }
    if (rubric.criteria && rubric.tree)
      error(path, "give a rubric either criteria or tree, never both");
    if (rubric.preset !== undefined && rubric.tree)
      error([...path, "tree"], "a preset has criteria; it cannot be combined with a tree");
    if (!rubric.criteria && !rubric.tree && rubric.preset === undefined && !rubric.categories) {
      error(
        path,
        "a structured rubric needs criteria, tree, preset, categories or ref (or write a free-form rubric as a string)",
      );
    }
    checkCategoryRubric({ rubric, path, error, warn });
    if (rubric.tree) {
      if (rubric.aggregation !== undefined)
        error(
          [...path, "aggregation"],
          "a tree rubric always walks the tree; it takes no aggregation",
        );
      // The guide: a tree "does not request a cited span"; the flag changes nothing, so say so rather than refuse.
      if (rubric.require_evidence)
        warn(
          [...path, "require_evidence"],
          "require_evidence is ignored: a decision tree asks yes/no questions and does not request a cited span (evidence is a criteria feature)",
        );
      checkTree(rubric.tree, [...path, "tree"], 0);
    }
    if (typeof rubric.scale === "object" && rubric.scale.likert.min >= rubric.scale.likert.max) {
      error(
        [...path, "scale", "likert"],
        `likert min (${rubric.scale.likert.min}) must be below max (${rubric.scale.likert.max})`,
      );
    }
    const seen = new Map<string, number>();
    rubric.criteria?.forEach((criterion, i) => {
      const cpath = [...path, "criteria", i];
      if (seen.has(criterion.name))
        error([...cpath, "name"], `duplicate criterion name "${criterion.name}" in this rubric`);
      seen.set(criterion.name, i);
      if (criterion.guard && criterion.required) {
        error(
          cpath,
          "a criterion is either a guard (must not hold) or required (must hold), not both",
        );
      }
      if (criterion.when) {
        if (criterion.when.contains === undefined && criterion.when.regex === undefined) {
          error([...cpath, "when"], "when needs contains or regex");
        }
        if (criterion.when.regex !== undefined) {
          const compiled = compileWhenRegex(criterion.when.regex);
          if (!compiled.ok) error([...cpath, "when", "regex"], compiled.message);
        }
      }
    });
  };

  const checkTree = (node: TreeNodeInput, path: DataPath, depth: number) => {
    if (depth > LIMITS.treeDepth) {
      error(path, `the tree is deeper than ${LIMITS.treeDepth} levels`);
      return;
    }
    if ("ask" in node) {
      checkTree(node.yes, [...path, "yes"], depth + 1);
      checkTree(node.no, [...path, "no"], depth + 1);
    }
  };

  for (const [name, rubric] of Object.entries(suite.rubrics ?? {})) {
    if (typeof rubric !== "string") checkStructured(rubric, ["rubrics", name], false);
  }

  for (const [name, dataset] of Object.entries(suite.datasets ?? {})) {
    if ((dataset.file === undefined) === (dataset.items === undefined))
      error(["datasets", name], "a dataset needs exactly one of file or items");
  }

  const checkJudge = (judge: Suite["judge"], path: DataPath, hasMatrixModels: boolean) => {
    if (!judge) return;
    if (judge.panel && judge.model)
      error([...path, "panel"], "give a judge either model or panel: a panel names its models");
    if (hasMatrixModels && judge.panel)
      error(
        [...path, "panel"],
        "matrix.models varies the judge model; it cannot be combined with a panel",
      );
    // A category rubric's jury combines votes too; checkReviewEval rejects these on other rubrics.
    const votes = (CATEGORY_AGGREGATES as readonly string[]).includes(judge.aggregate ?? "");
    if (!judge.panel && judge.aggregate !== undefined && !votes)
      error([...path, "aggregate"], "aggregate applies to a panel; add panel: [models]");
    if (!judge.panel && judge.tie_break !== undefined)
      error([...path, "tie_break"], "tie_break applies to a panel; add panel: [models]");
  };
  checkJudge(suite.judge, ["judge"], false);
  checkProviders({ suite, error });
  checkSelfGrading({ suite, warn });

  const firstByName = new Map<string, number>();
  suite.evals.forEach((evalInput, i) => {
    const path: DataPath = ["evals", i];
    const first = firstByName.get(evalInput.name);
    if (first !== undefined) {
      const at = locator.locate(["evals", first, "name"]);
      error(
        [...path, "name"],
        `duplicate eval name "${evalInput.name}" (first defined at line ${at.line}); eval names must be unique`,
      );
    } else firstByName.set(evalInput.name, i);

    if (typeof evalInput.rubric !== "string")
      checkStructured(evalInput.rubric, [...path, "rubric"], true);
    const hasMatrixModels = Boolean(evalInput.matrix?.models);
    checkJudge(evalInput.judge, [...path, "judge"], hasMatrixModels);
    const named =
      typeof evalInput.rubric === "string" || evalInput.rubric.ref === undefined
        ? undefined
        : suite.rubrics?.[evalInput.rubric.ref];
    const own = typeof evalInput.rubric === "string" ? undefined : evalInput.rubric;
    checkReviewEval({
      evalInput,
      isCategoryRubric: Boolean(
        own?.categories ?? (typeof named === "object" ? named.categories : undefined),
      ),
      aggregate: evalInput.judge?.aggregate ?? suite.judge?.aggregate,
      hasPanel: Boolean(
        evalInput.judge?.panel ?? (evalInput.judge?.model ? undefined : suite.judge?.panel),
      ),
      path,
      error,
    });
    checkCompareEval({ evalInput, evals: suite.evals, rubric: named ?? own, path, error });
    checkCandidatesEval({ evalInput, datasets: suite.datasets, path, error, warn });
    if (
      evalInput.dataset !== undefined &&
      !(suite.datasets && evalInput.dataset in suite.datasets)
    ) {
      const names = Object.keys(suite.datasets ?? {});
      error(
        [...path, "dataset"],
        `unknown dataset "${evalInput.dataset}"; ${names.length ? `defined datasets: ${names.join(", ")}` : "the suite has no datasets: map"}`,
      );
    }
    if (hasMatrixModels && suite.judge?.panel && !evalInput.judge?.model) {
      error(
        [...path, "matrix", "models"],
        "matrix.models varies the judge model; it cannot be combined with the suite's judge panel",
      );
    }
    if (
      evalInput.matrix &&
      !evalInput.matrix.models &&
      !evalInput.matrix.prompts &&
      !evalInput.matrix.agents
    ) {
      error([...path, "matrix"], "a matrix needs models, prompts or agents (any combination)");
    }
    // Live-run settings on an eval that never runs live would silently do nothing.
    if (evalInput.response !== undefined) {
      if (evalInput.agent)
        error(
          [...path, "agent"],
          "agent: configures a live run, but this eval grades a fixed response; remove " +
            "response: to run the prompt as an agent",
        );
      if (evalInput.matrix?.agents)
        error(
          [...path, "matrix", "agents"],
          "matrix.agents varies the live agent's model, but this eval grades a fixed " +
            "response; use matrix.models to vary the judge",
        );
    } else if (
      evalInput.server !== undefined &&
      suite.servers &&
      evalInput.server in suite.servers
    ) {
      if (evalInput.prompt === undefined && !evalInput.matrix?.prompts && !evalInput.candidates) {
        error(
          path,
          `eval "${evalInput.name}" runs live against server "${evalInput.server}" but has no prompt: add prompt: (or matrix.prompts)`,
        );
      }
    }
    if (
      generatesCandidate(evalInput) &&
      evalInput.prompt === undefined &&
      !evalInput.matrix?.prompts &&
      !evalInput.candidates
    ) {
      error(
        path,
        `eval "${evalInput.name}" has its candidate generated by its agent model but has no prompt for it to answer: add prompt: (or matrix.prompts)`,
      );
    }
    if (
      evalInput.response === undefined &&
      evalInput.document === undefined &&
      evalInput.compare === undefined &&
      evalInput.candidates === undefined &&
      !generatesCandidate(evalInput)
    ) {
      if (evalInput.server === undefined) {
        warn(path, `eval "${evalInput.name}" has neither response nor server: it will defer`);
      } else if (suite.servers && !(evalInput.server in suite.servers)) {
        const names = Object.keys(suite.servers);
        warn(
          [...path, "server"],
          `server "${evalInput.server}" is not in servers: (${names.join(", ")}); the eval will defer`,
        );
      }
    }
  });

  return { errors, warnings };
}
