import { describe, expect, it } from "vitest";
import { PgBoss } from "pg-boss";
import { GRADE_QUEUE, JOB_EXPIRY_SECONDS, openQueue } from "../../lib/store/grade-queue";
import { parseDatabaseUrl } from "../../lib/store/connection";
import { useTestDatabase } from "../support/test-database";

// A batched cell's job waits for its Message Batch, which may take up to 24 h:
// the queue must not expire (and hand to another worker, five times, then
// fail) a job that is only waiting, on a new database or on one whose queue
// was made when jobs expired after an hour.

const database = useTestDatabase();

describe("the grading queue's job expiry", () => {
  it("lasts a Message Batch's 24 hours on a new queue, and raises a queue made with the old hour", async () => {
    // pg-boss's ceiling, and a Message Batch's longest life.
    expect(JOB_EXPIRY_SECONDS).toBe(24 * 60 * 60);

    // The queue as the previous release made it.
    const old = new PgBoss({
      ...parseDatabaseUrl(database.url),
      max: 1,
      schedule: false,
      supervise: false,
    });
    await old.start();
    await old.createQueue(GRADE_QUEUE, {
      heartbeatSeconds: 30,
      retryLimit: 5,
      retryDelay: 1,
      expireInSeconds: 3600,
    });
    expect((await old.getQueue(GRADE_QUEUE))?.expireInSeconds).toBe(3600);
    await old.stop({ graceful: false });

    const boss = await openQueue({ db: { url: database.url }, poolSize: 1 });
    try {
      const queue = await boss.getQueue(GRADE_QUEUE);
      expect(queue?.expireInSeconds).toBe(JOB_EXPIRY_SECONDS);
      // The rest of the queue's settings are as they were.
      expect(queue).toMatchObject({ retryLimit: 5, heartbeatSeconds: 30 });
    } finally {
      await boss.stop({ graceful: false });
    }
  });
});
