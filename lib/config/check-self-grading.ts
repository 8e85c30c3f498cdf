import type { z } from "zod";
import { modelFamilyOf } from "./model-family";
import type { SuiteSchema } from "./schema";
import type { DataPath } from "./yaml-locator";

// A judge grading the live run of an agent of its own model family (a Claude
// judge on a Claude agent, a GPT judge on a GPT agent) is warned about at the
// agent's model: judges favour their own family's outputs (self-preference
// bias), so such a comparison of agents across vendors is not a fair one.
// Only models written in the file are known here; the report repeats the
// warning with the models a run really used (lib/engine/results/self-grading.ts).

type Suite = z.output<typeof SuiteSchema>;
type Located = { model: string; path: DataPath };

/** The message both the loader and the reports give. */
export function selfGradingMessage(input: {
  judge: string;
  agent: string;
  family: string;
}): string {
  return `judge ${input.judge} grades the run of agent ${input.agent}, both ${input.family} models: judges favour outputs of their own family, so prefer a judge (or a panel) of another family for this comparison`;
}

export function checkSelfGrading(input: {
  suite: Suite;
  warn: (path: DataPath, message: string) => void;
}): void {
  const { suite, warn } = input;
  suite.evals.forEach((evalInput, i) => {
    if (evalInput.server === undefined || evalInput.response !== undefined) return;
    const at = (path: DataPath) => ["evals", i, ...path];
    const agents: Located[] = evalInput.matrix?.agents
      ? evalInput.matrix.agents.map((model, j) => ({ model, path: at(["matrix", "agents", j]) }))
      : evalInput.agent?.model !== undefined
        ? [{ model: evalInput.agent.model, path: at(["agent", "model"]) }]
        : suite.agent?.model !== undefined
          ? [{ model: suite.agent.model, path: ["agent", "model"] }]
          : [];
    const judges: Located[] = evalInput.judge?.panel
      ? evalInput.judge.panel.map((model, k) => ({ model, path: at(["judge", "panel", k]) }))
      : evalInput.matrix?.models
        ? evalInput.matrix.models.map((model, k) => ({ model, path: at(["matrix", "models", k]) }))
        : evalInput.judge?.model !== undefined
          ? [{ model: evalInput.judge.model, path: at(["judge", "model"]) }]
          : suite.judge?.panel
            ? suite.judge.panel.map((model, k) => ({ model, path: ["judge", "panel", k] }))
            : suite.judge?.model !== undefined
              ? [{ model: suite.judge.model, path: ["judge", "model"] }]
              : [];
    for (const agent of agents) {
      const family = modelFamilyOf(agent.model);
      const judge = family && judges.find((j) => modelFamilyOf(j.model)?.id === family.id);
      if (family && judge)
        warn(
          agent.path,
          selfGradingMessage({ judge: judge.model, agent: agent.model, family: family.label }),
        );
    }
  });
}
