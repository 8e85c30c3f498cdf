import { addAnchor, anchorIsIn } from "../config/add-anchor";
import { loadSuite } from "../config/load-suite";
import type { LoadText } from "./calibrate-suite";
import type { PrismaClient } from "./generated/client";
import { createSuiteStore } from "./suite-store";
import { UUID } from "./uuid";

// "Add as anchor": a person's label proposed as a new `examples:` entry of its
// criterion in the suite's newest version (shown as a diff first), then saved
// as a new version, only if the suite did not change since the diff was shown.

export interface AnchorProposal {
  suiteId: string;
  /** The version the diff is against: saving checks it is still the newest. */
  baseVersionId: string;
  from: string;
  to: string;
}

type Refusal = {
  ok: false;
  code: "not_found" | "bad_request" | "version_changed" | "too_complex" | "busy" | "failed";
  message: string;
};

const CHANGED = "The suite has a newer version than the diff you saw: look at the diff again.";

const loadHere: LoadText = async (input) => ({ ok: true, value: loadSuite(input) });

/** `loadText` checks the new text loads: in this thread by default; the dashboard's routes pass its worker threads. */
export function createLabelAnchors(prisma: PrismaClient, loadText: LoadText = loadHere) {
  async function propose(labelId: string): Promise<{ ok: true; value: AnchorProposal } | Refusal> {
    if (!UUID.test(labelId)) return { ok: false, code: "not_found", message: "no such label" };
    const label = await prisma.humanLabel.findUnique({ where: { id: labelId } });
    if (!label) return { ok: false, code: "not_found", message: "no such label" };
    if (
      label.score === null ||
      label.scale === "category" ||
      label.scale === "decision" ||
      label.scale === "pairwise"
    ) {
      return {
        ok: false,
        code: "bad_request",
        message: `a ${label.scale} label is not a criterion's score: only criteria take anchors`,
      };
    }
    const suite = await createSuiteStore(prisma).getSuite(label.suiteId);
    if (!suite?.latest)
      return { ok: false, code: "not_found", message: "the suite has no saved version" };
    const added = addAnchor({
      yaml: suite.latest.yaml,
      evalName: label.evalName,
      criterion: label.criterion,
      response: label.candidate,
      score: label.score,
    });
    if (!added.ok) return { ok: false, code: "bad_request", message: added.message };
    const loaded = await loadText({ text: added.yaml, file: suite.name });
    if (!loaded.ok) return loaded;
    if (!loaded.value.ok)
      return {
        ok: false,
        code: "bad_request",
        message: `the suite would not load with this anchor: ${loaded.value.issues[0]?.message ?? "unknown problem"}`,
      };
    // What is saved must hold what the person was told is added: the text as loaded, not the splice, is the proof.
    if (
      !anchorIsIn({
        suite: loaded.value.value,
        evalName: label.evalName,
        criterion: label.criterion,
        response: label.candidate,
        score: label.score,
      })
    )
      return {
        ok: false,
        code: "too_complex",
        message: `the anchor could not be written into this suite's YAML: criterion "${label.criterion}" of eval "${label.evalName}" would not hold it; add it in the editor`,
      };
    return {
      ok: true,
      value: {
        suiteId: suite.id,
        baseVersionId: suite.latest.id,
        from: suite.latest.yaml,
        to: added.yaml,
      },
    };
  }

  return {
    propose,
    /** Saves the proposal as the suite's new version, if `baseVersionId` is still its newest. */
    async save(input: {
      labelId: string;
      baseVersionId: string;
    }): Promise<{ ok: true; value: { suiteId: string; versionId: string } } | Refusal> {
      // A newer version than the diff shown is said first: it may hold this very anchor by now,
      // which the diff, looked at again, shows.
      const label = UUID.test(input.labelId)
        ? await prisma.humanLabel.findUnique({
            where: { id: input.labelId },
            select: { suiteId: true },
          })
        : null;
      const newest = label
        ? (await createSuiteStore(prisma).getSuite(label.suiteId))?.latest?.id
        : undefined;
      if (newest !== undefined && newest !== input.baseVersionId)
        return { ok: false, code: "version_changed", message: CHANGED };
      const proposal = await propose(input.labelId);
      if (!proposal.ok) return proposal;
      if (proposal.value.baseVersionId !== input.baseVersionId)
        return { ok: false, code: "version_changed", message: CHANGED };
      const saved = await createSuiteStore(prisma).saveVersion({
        suiteId: proposal.value.suiteId,
        yaml: proposal.value.to,
      });
      if (!saved.ok) return { ok: false, code: "not_found", message: saved.message };
      return {
        ok: true,
        value: { suiteId: proposal.value.suiteId, versionId: saved.value.version.id },
      };
    },
  };
}
