import type { JudgeRequest, JudgeSlot } from "../../lib/engine/ports/judge-port";

// Shared by the judge tests: a request, a slot that records what the judge
// does with it, and a sleep that records what it was asked to wait.

export const FAKE_API_KEY = "sk-ant-test-not-a-real-key";

export function judgeRequest(overrides: Partial<JudgeRequest> = {}): JudgeRequest {
  return {
    // Not a model the SDK calls deprecated: it warns on every call for those.
    model: "claude-haiku-4-5-20251001",
    maxTokens: 1024,
    sample: 1,
    templateVersion: "criterion-v3",
    stablePrompt:
      'You grade answers against this rubric.\n\nCalibration examples\nResponse: "Paris" -> score 1.00',
    candidatePrompt: "<candidate>The capital of France is Paris.</candidate>",
    taskPrompt: "Grade the candidate now.",
    verdict: "score",
    ...overrides,
  };
}

export interface SlotSpy extends JudgeSlot {
  events: string[];
  held(): boolean;
}

/** A slot held by the caller (as the scheduler hands it to grade), logging release and acquire into `events`. */
export function slotSpy(events: string[] = []): SlotSpy {
  let held = true;
  return {
    events,
    held: () => held,
    release() {
      if (!held) throw new Error("released a slot that was not held");
      held = false;
      events.push("release");
    },
    async acquire() {
      if (held) throw new Error("acquired a slot that was already held");
      held = true;
      events.push("acquire");
    },
  };
}

/** A sleep that returns at once and logs the wait it was asked for. */
export function recordingSleep(events: string[] = []): {
  sleep: (ms: number) => Promise<void>;
  waits: number[];
} {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      events.push(`sleep ${ms}`);
    },
  };
}

/** A counting semaphore, as the engine's scheduler would give slots out. */
export function semaphore(size: number): {
  slot(): JudgeSlot;
  take(): Promise<void>;
  give(): void;
} {
  let free = size;
  const queue: Array<() => void> = [];
  const take = () =>
    new Promise<void>((resolve) => {
      if (free > 0) {
        free--;
        resolve();
      } else queue.push(resolve);
    });
  const give = () => {
    const next = queue.shift();
    if (next) next();
    else free++;
  };
  return { take, give, slot: () => ({ release: give, acquire: take }) };
}
