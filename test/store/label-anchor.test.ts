import { beforeAll, describe, expect, it } from "vitest";
import { loadSuite } from "../../lib/config/load-suite";
import { createHumanLabels } from "../../lib/store/human-labels";
import { createLabelAnchors } from "../../lib/store/label-anchor";
import { labelCalibration } from "../../lib/store/label-calibration";
import { createReviewQueue } from "../../lib/store/review-queue";
import { createRunStore } from "../../lib/store/run-store";
import { createSuiteStore } from "../../lib/store/suite-store";
import { categoryOf, createFakeJudge, criterionOf } from "../support/fake-judge";
import { runYaml } from "../support/run-yaml";
import { useTestDatabase } from "../support/test-database";

// "Add as anchor" on a real database: a person's label becomes one new
// examples: entry in a new version of the suite, only against the version the
// diff was shown for; a category label is not a criterion's anchor.

const db = useTestDatabase();
const SUITE = `# Anchors from people: keep this comment.
evals:
  - name: jury
    response: "Refunds within 30 days."
    judge: { jury: { size: 2 } }
    rubric:
      criteria:
        - name: cites policy
          description: "Names the refund window."
  - name: prd
    document: "Plan."
    judge: { panel: [judge-one, judge-two] }
    rubric:
      categories:
        - { id: goal, description: "States the goal." }
`;

let suiteId: string;
let runId: string;
const labelIds: Record<string, string> = {};
beforeAll(async () => {
  let calls = 0;
  const judge = createFakeJudge((request) => {
    if (categoryOf(request))
      return {
        verdict: {
          reasoning: "r",
          score: request.model === "judge-one" ? "pass" : "fail",
          evidence: [],
          findings: [],
        },
      };
    return criterionOf(request) ? { score: calls++ % 2 ? 0.1 : 0.9 } : { score: 0.9 };
  });
  const report = await runYaml(SUITE, { judge });
  const store = createRunStore(db.prisma);
  const version = await store.saveSuiteVersion({ name: "anchors.yaml", yaml: SUITE });
  suiteId = version.suiteId;
  runId = await store.createRun({
    ...version,
    startedBy: "cli",
    config: {
      file: "anchors.yaml",
      toolVersion: "0.1.0",
      judgeModel: "m",
      concurrency: 1,
      timeoutSeconds: 60,
    },
    totalCells: report.results.length,
  });
  for (const result of report.results) await store.saveResult(runId, result);
  await store.finishRun({ runId, report, status: "completed", reused: { calls: 0, savedUsd: 0 } });
  const labels = createHumanLabels(db.prisma);
  for (const item of (await createReviewQueue(db.prisma).list({ suiteId })).items) {
    const saved = await labels.saveLabel({
      itemId: item.id,
      reviewer: "ana",
      answer: item.criterion === "cites policy" ? "0.75" : "pass",
    });
    if (saved.ok) labelIds[item.criterion] = saved.label.id;
  }
}, 60_000);

describe("label anchors", () => {
  it("proposes the suite with one examples: entry added, and saves it as the newest version", async () => {
    const anchors = createLabelAnchors(db.prisma);
    const proposal = await anchors.propose(labelIds["cites policy"]!);
    expect(proposal.ok).toBe(true);
    if (!proposal.ok) return;
    expect(proposal.value.from).toBe(SUITE);
    expect(proposal.value.to).toBe(
      SUITE.replace(
        '          description: "Names the refund window."\n',
        '          description: "Names the refund window."\n          examples:\n            - { response: "Refunds within 30 days.", score: 0.75 }\n',
      ),
    );
    const saved = await anchors.save({
      labelId: labelIds["cites policy"]!,
      baseVersionId: proposal.value.baseVersionId,
    });
    expect(saved.ok).toBe(true);
    const suite = await createSuiteStore(db.prisma).getSuite(suiteId);
    expect(suite?.latest?.yaml).toBe(proposal.value.to);
    // Against the version the diff was shown for, not a newer one.
    expect(
      await anchors.save({
        labelId: labelIds["cites policy"]!,
        baseVersionId: proposal.value.baseVersionId,
      }),
    ).toMatchObject({ ok: false, code: "version_changed" });
    // Offered again, the anchor is there already: no duplicate entry.
    expect(await anchors.propose(labelIds["cites policy"]!)).toEqual({
      ok: false,
      code: "bad_request",
      message: 'already an anchor of "cites policy": the same response is there with score 0.75',
    });
  });

  it("refuses a category label and an unknown label, saying why", async () => {
    const anchors = createLabelAnchors(db.prisma);
    expect(await anchors.propose(labelIds["goal"]!)).toEqual({
      ok: false,
      code: "bad_request",
      message: "a category label is not a criterion's score: only criteria take anchors",
    });
    expect(await anchors.propose("not-a-uuid")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("sets people's labels beside the judges' verdicts, per suite and per run", async () => {
    const people = await labelCalibration(db.prisma, { suiteId });
    const criterion = (name: string) => people?.criteria.find((c) => c.item === name);
    // The jury's mean 0.50 against 0.75: off by 0.25, within the tolerance.
    expect(criterion("cites policy")).toMatchObject({
      eval: "jury",
      scale: "unit",
      graded: 1,
      outliers: 0,
      items: [{ source: "person", annotator: "ana", label: 0.75, judged: 0.5 }],
    });
    expect(criterion("cites policy")!.mae).toBeCloseTo(0.25, 12);
    // The panel split pass / fail on the category: partial (0.5) against a person's pass.
    expect(criterion("goal")).toMatchObject({
      scale: "categorical",
      outliers: 1,
      items: [{ label: 1, judged: 0.5, text: "Plan." }],
    });
    expect(
      (await labelCalibration(db.prisma, { runId }))?.criteria.map((c) => c.item).sort(),
    ).toEqual(people?.criteria.map((c) => c.item).sort());
    expect(
      await labelCalibration(db.prisma, { runId: "0b7e7a3c-0000-4000-8000-000000000000" }),
    ).toBeUndefined();
  });

  // Issue 21, item 4: written as a multi-line flow map whose last line ends in
  // a comment, the entry went into the comment: Save answered 201 and the new
  // version had no anchor.
  const FLOW = SUITE.replace(
    '        - name: cites policy\n          description: "Names the refund window."\n',
    '        - { name: cites policy,\n            description: "Names the refund window." # a comment }\n          }\n',
  );

  it("splices by the YAML's structure: a flow map whose last line ends in a comment gets the anchor, and the comment stays", async () => {
    const suites = createSuiteStore(db.prisma);
    const base = await suites.saveVersion({ suiteId, yaml: FLOW });
    if (!base.ok) throw new Error(base.message);
    const anchors = createLabelAnchors(db.prisma);
    const proposal = await anchors.propose(labelIds["cites policy"]!);
    expect(proposal).toMatchObject({ ok: true });
    if (!proposal.ok) return;
    expect(proposal.value.to).toContain(
      '            description: "Names the refund window.", examples: [{ response: "Refunds within 30 days.", score: 0.75 }] # a comment }\n',
    );
    const saved = await anchors.save({
      labelId: labelIds["cites policy"]!,
      baseVersionId: proposal.value.baseVersionId,
    });
    expect(saved.ok).toBe(true);
    const newest = (await suites.getSuite(suiteId))!.latest!.yaml;
    const loaded = loadSuite({ text: newest, file: "anchors.yaml" });
    const rubric = loaded.ok ? loaded.value.evals[0]!.rubric : undefined;
    expect(rubric?.kind === "criteria" && rubric.criteria[0]!.examples).toEqual([
      { response: "Refunds within 30 days.", score: 0.75 },
    ]);
  });

  it("answers a clear error, not a new version, when the text it would save does not hold the anchor", async () => {
    const suites = createSuiteStore(db.prisma);
    const base = await suites.saveVersion({ suiteId, yaml: FLOW });
    if (!base.ok) throw new Error(base.message);
    // A splice that lost the entry, as the comment did: the text loaded is the version without it.
    const lost = createLabelAnchors(db.prisma, async (input) => ({
      ok: true,
      value: loadSuite({ text: FLOW, file: input.file }),
    }));
    const versions = await suites.listVersions(suiteId);
    const before = versions.ok ? versions.value.length : -1;
    const expected = {
      ok: false,
      code: "too_complex",
      message:
        'the anchor could not be written into this suite\'s YAML: criterion "cites policy" of eval "jury" would not hold it; add it in the editor',
    };
    expect(await lost.propose(labelIds["cites policy"]!)).toEqual(expected);
    const newest = (await suites.getSuite(suiteId))!.latest!.id;
    expect(await lost.save({ labelId: labelIds["cites policy"]!, baseVersionId: newest })).toEqual(
      expected,
    );
    const after = await suites.listVersions(suiteId);
    expect(after.ok ? after.value.length : -2).toBe(before);
  });
});
