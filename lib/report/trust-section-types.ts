// The plain model of a trust section that md, html and pretty each render.

/** What a table holds, so that a compact format (pretty) can pick and shape the tables it shows. */
export type TrustTableId =
  | "categories"
  | "findings"
  | "disagreements"
  | "pairs"
  | "criteria"
  | "agreement"
  | "flips"
  | "calibration"
  | "calibration-items"
  | "confusion";

export interface TrustTable {
  id: TrustTableId;
  caption?: string;
  header: string[];
  rows: string[][];
}

export interface TrustSection {
  heading: string;
  /** How the section reads at a glance (a review's decision, a comparison's bias), for formats with colour. */
  tone?: "good" | "warn" | "bad";
  facts: string[];
  tables: TrustTable[];
  lists: { title: string; items: string[] }[];
}
