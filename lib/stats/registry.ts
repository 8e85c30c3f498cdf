import { exactAgreement } from "./exact-agreement";
import { fleissKappa } from "./fleiss-kappa";
import { krippendorffAlpha, type MeasurementLevel } from "./krippendorff-alpha";
import type { Ratings, StatResult } from "./result";

// Every inter-judge agreement statistic, with the levels of measurement it
// applies to. The engine computes each one that fits a criterion's scale, and
// test/stats/registry.test.ts walks this record, so a statistic is added here
// and nowhere else.

export interface AgreementStatistic {
  name: "exact_agreement" | "krippendorff_alpha" | "fleiss_kappa";
  description: string;
  levels: MeasurementLevel[];
  compute(input: { ratings: Ratings<number>; level: MeasurementLevel }): StatResult;
}

export const AGREEMENT_STATISTICS: Readonly<
  Record<AgreementStatistic["name"], AgreementStatistic>
> = {
  exact_agreement: {
    name: "exact_agreement",
    description: "share of items on which every judge gave the same value",
    levels: ["nominal", "ordinal", "interval"],
    compute: ({ ratings }) => exactAgreement(ratings),
  },
  krippendorff_alpha: {
    name: "krippendorff_alpha",
    description:
      "Krippendorff's alpha: agreement corrected for chance, 1 perfect, 0 chance; any " +
      "number of judges, missing ratings allowed",
    levels: ["nominal", "ordinal", "interval"],
    compute: ({ ratings, level }) => krippendorffAlpha({ ratings, level }),
  },
  fleiss_kappa: {
    name: "fleiss_kappa",
    description:
      "Fleiss' kappa: chance-corrected agreement of several judges on categories; every judge rates every item",
    levels: ["nominal"],
    compute: ({ ratings }) => fleissKappa(ratings),
  },
};

export type { MeasurementLevel };
