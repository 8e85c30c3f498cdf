import { describe, expect, it } from "vitest";
import { CallScheduler } from "../../../lib/engine/grade/call-scheduler";

// A shared scheduler serves calls by priority, then in the order they came: a worker's chunk taken
// first is graded first, and the chunk after it fills only the slots the first leaves.

describe("call priority", () => {
  it("starts the waiting calls of a lower priority first, each priority in the order it came", async () => {
    const scheduler = new CallScheduler({ concurrency: 1 });
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const call = (name: string, priority?: number, wait?: Promise<void>) =>
      scheduler.submit(
        0,
        async () => {
          started.push(name);
          await wait;
          return { value: name, costUsd: 0 };
        },
        priority === undefined ? {} : { priority },
      );
    // The first call holds the one slot; the others arrive interleaved, as two chunks' cells do.
    const calls = [
      call("first", 0, gate),
      call("b1", 1),
      call("a1", 0),
      call("b2", 1),
      call("a2", 0),
      call("c1", 2),
      call("a3"),
    ];
    open();
    await Promise.all(calls);
    expect(started).toEqual(["first", "a1", "a2", "a3", "b1", "b2", "c1"]);
  });

  it("gives a later priority the slots an earlier one leaves free", async () => {
    const scheduler = new CallScheduler({ concurrency: 3 });
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const call = (name: string, priority: number) =>
      scheduler.submit(
        0,
        async () => {
          started.push(name);
          await gate;
          return { value: name, costUsd: 0 };
        },
        { priority },
      );
    // The earlier chunk has one call left: the later one's take the two other slots at once.
    const calls = [call("b1", 1), call("b2", 1), call("b3", 1), call("a1", 0)];
    await Promise.resolve();
    expect(started).toEqual(["b1", "b2", "b3"]);
    open();
    await Promise.all(calls);
    expect(started).toEqual(["b1", "b2", "b3", "a1"]);
  });
});
