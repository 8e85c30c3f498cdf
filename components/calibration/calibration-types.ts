// The calibration view's props: the engine's plain calibration result (pure
// types, no server code comes along) and the store's drift, dates as strings
// so they can cross to client components.

export type { CalibrationResult } from "../../lib/engine/calibration/run-calibration";
export type { CriterionCalibration, CalibrationItem, JudgeReading } from "../../lib/engine/calibration/calibration-stats";

export interface MaeDrift {
  eval: string;
  item: string;
  /** Oldest first. */
  points: { runId: string; createdAt: string; mae: number | null }[];
}
