import type { Metadata } from "next";
import { RunsTable } from "@/components/results/runs-table";
import styles from "@/components/results/results.module.css";
import { runViews, toRunRow } from "../_lib/load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  const runs = await (await runViews()).listRuns({ limit: 200 });
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Runs</h1>
      <p className={styles.muted}>
        Every stored run, newest first: from the dashboard, the CLI (<code>eval --store</code>) and
        queue workers.
      </p>
      <div className={styles.section}>
        <RunsTable runs={runs.map(toRunRow)} />
      </div>
    </div>
  );
}
