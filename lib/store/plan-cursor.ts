import type { PlannedCell } from "../engine/grade/planned-cell";

// A worker's place in one run's plan. A job names its chunk's cells and the
// plan position of the first (grade-queue.ts); the worker finds them by walking
// the lazy planner forward from where its last chunk of the run ended, so a
// worker that takes the run's chunks in order (pg-boss hands them out in the
// order they were queued) plans each cell once however big the run: never the
// whole plan per chunk, never the plan held. A chunk behind the cursor (a
// retried one) starts the walk again from the top. One chunk is looked up at a
// time; its cells (a few hundred) are held while it is graded.

export interface PlanCursor {
  /** The planned cells of `cellIds` (in plan order, from position `from` on); a cell not in the plan is left out. */
  cells(from: number, cellIds: readonly string[]): Promise<PlannedCell[]>;
  /** Closes the walk (a streamed dataset's file). */
  close(): Promise<void>;
}

export function createPlanCursor(plan: () => AsyncGenerator<PlannedCell>): PlanCursor {
  let walk: AsyncGenerator<PlannedCell> | undefined;
  /** The plan position of the next cell `walk` yields. */
  let position = 0;
  let turn: Promise<unknown> = Promise.resolve();

  const restart = async () => {
    await walk?.return(undefined);
    walk = plan();
    position = 0;
  };

  async function find(from: number, cellIds: readonly string[]): Promise<PlannedCell[]> {
    if (!walk || position > from) await restart();
    const wanted = new Set(cellIds);
    const found = new Map<string, PlannedCell>();
    while (found.size < wanted.size) {
      const next = await walk!.next();
      if (next.done) {
        // The plan ended before every cell was found: the next chunk walks from the top.
        walk = undefined;
        break;
      }
      if (position++ >= from && wanted.has(next.value.id)) found.set(next.value.id, next.value);
    }
    return cellIds.flatMap((id) => found.get(id) ?? []);
  }

  return {
    cells(from, cellIds) {
      const cells = turn.then(() => find(from, cellIds));
      turn = cells.catch(() => undefined);
      return cells;
    },
    async close() {
      await turn;
      await walk?.return(undefined);
      walk = undefined;
    },
  };
}
