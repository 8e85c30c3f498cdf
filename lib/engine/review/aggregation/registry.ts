import type { AggregationMethod } from "../../results/review-types";
import { conservative } from "./conservative";
import { majority } from "./majority";
import type { AggregationMethodModule } from "./method";
import { optimistic } from "./optimistic";
import { unanimous } from "./unanimous";

// Every multi-judge aggregation method of a category review. The config
// language, the README and test/engine/review/aggregation.test.ts walk this
// record, so a method is added here and nowhere else.

export type { AggregationMethodModule };

export const AGGREGATION_METHODS: Readonly<Record<AggregationMethod, AggregationMethodModule>> = {
  majority,
  conservative,
  optimistic,
  unanimous,
};

/** A category rubric's method from the judge config: its default "mean" means majority. */
export function aggregationMethodOf(aggregate: string): AggregationMethodModule {
  return AGGREGATION_METHODS[aggregate as AggregationMethod] ?? majority;
}
