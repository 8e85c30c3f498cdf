// The calibration view's props: the engine's plain calibration result (pure
// types, no server code comes along) and the store's drift, dates as strings
// so they can cross to client components.

export type {
  CalibrationResult,
  CriterionCalibration,
  CalibrationItem,
  JudgeReading,
} from "../../lib/engine/results/trust";

export interface MaeDrift {
  eval: string;
  item: string;
  /** Oldest first. */
  points: { runId: string; createdAt: string; mae: number | null }[];
}
