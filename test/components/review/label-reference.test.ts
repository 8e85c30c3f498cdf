import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { LabelForm } from "../../../components/review/label-form";
import type { LabelSubject } from "../../../components/review/review-types";
import { reviewSubjectOf } from "../../../lib/engine/trust/people/review-subject";
import { createFakeJudge } from "../../support/fake-judge";
import { runYaml } from "../../support/run-yaml";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => {}, refresh: () => {} }) }));

// A person labelling a result graded against a reference reads what the judge
// read: the known-good answers and the context, before they label (the
// reference is the item's data, not the judges' answer), beside the candidate.

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

const SUITE = `
evals:
  - name: answers
    prompt: "What is 2 + 2?"
    response: "Four."
    rubric:
      criteria:
        - { name: correct, description: "Agrees with the reference." }
`;

describe("the labelling page's reference", () => {
  it("shows the known-good answers and context the judge was given, before the label", async () => {
    const report = await runYaml(SUITE, { judge: createFakeJudge(() => ({ score: 1 })) });
    const result = {
      ...report.results[0]!,
      reference: { expectedOutputs: ["4", "four"], context: ["Base ten."] },
    };
    const {
      verdicts: _verdicts,
      evidence: _evidence,
      ...subject
    } = reviewSubjectOf(result, "correct");
    expect(subject.reference).toEqual(result.reference);
    const shown: LabelSubject = { ...subject, evidence: [], anchors: [] };
    const html = text(
      renderToStaticMarkup(
        createElement(LabelForm, {
          itemId: "item-1",
          criterion: "correct",
          subject: shown,
          given: null,
          sessionName: "ana",
          claimedBy: null,
          labelledBy: [],
          nextItems: [],
          prevItems: [],
          result: { href: "/runs/x/results/answers", label: "The result" },
        }),
      ),
    );
    expect(html).toContain(
      "Reference The known-good answers the judge was given beside the candidate (any one is acceptable); the candidate need not match its wording. 4 four Context Base ten.",
    );
    expect(html.indexOf("Reference")).toBeLessThan(html.indexOf("Candidate"));
  });

  it("shows no reference section for a result graded without one", async () => {
    const report = await runYaml(SUITE, { judge: createFakeJudge(() => ({ score: 1 })) });
    expect(reviewSubjectOf(report.results[0]!, "correct").reference).toBeUndefined();
  });
});
