import type { FakeReply } from "../support/fake-messages-api";

// What the calibration specs grade: a suite with labelled anchors, and the
// stand-in judge's verdict for each anchor (by its text). The e2e stand-in
// (anchor-judge-main.ts) and the specs share these, so the specs can assert
// exactly what the judge said.

export const HOSTILE_REASONING = `<img src=x onerror="window.__xss=1"> Mentions support, not the window.`;

/** The judge's score and reasoning per anchor text. "Ask support maybe." is labelled 0.0 and judged 0.7: an outlier. */
export const VERDICTS: Record<string, { score: number; reasoning: string }> = {
  "Refunds within 30 days of purchase.": { score: 0.9, reasoning: "Quotes the 30-day window." },
  "Ask support maybe.": { score: 0.7, reasoning: HOSTILE_REASONING },
  "Happy to help with that!": { score: 1, reasoning: "Warm and polite." },
  "Whatever.": { score: 0.4, reasoning: "Curt." },
};

/** Line 11 is the "Ask support maybe." anchor of "cites the policy". */
export const ANCHOR_SUITE = [
  "evals:", //                                                         1
  "  - name: refund answer", //                                        2
  '    prompt: "Can I get a refund?"', //                              3
  '    response: "Yes, within 30 days."', //                           4
  "    rubric:", //                                                    5
  "      criteria:", //                                                6
  "        - name: cites the policy", //                               7
  '          description: "Names the refund window."', //              8
  "          examples:", //                                            9
  '            - { response: "Refunds within 30 days of purchase.", score: 1.0 }', // 10
  '            - { response: "Ask support maybe.", score: 0.0 }', //    11
  "        - name: polite", //                                         12
  '          description: "Polite tone."', //                          13
  "          examples:", //                                            14
  '            - { response: "Happy to help with that!", score: 1.0 }', // 15
  '            - { response: "Whatever.", score: 0.0 }', //              16
  "",
].join("\n");

function candidateOf(user: string): string {
  return /<candidate_response>\n([\s\S]*?)\n<\/candidate_response>/.exec(user)?.[1] ?? "";
}

/** The stand-in's answer: the verdict for a known anchor, a middling one otherwise. */
export function anchorReply(request: { user: string }, shift = 0): FakeReply {
  const verdict = VERDICTS[candidateOf(request.user)];
  if (!verdict) return { verdict: { reasoning: "Unknown candidate.", score: 0.5 } };
  return {
    verdict: {
      reasoning: verdict.reasoning,
      score: Math.max(0, Math.min(1, verdict.score + shift)),
    },
  };
}
