// The flips page's headline, as a person would count the rows below it: the engine's wording,
// which `rubric-studio regrade` ends with too.

export {
  changedCount,
  criteriaFlipText,
  FLIP_KIND_TEXT,
  flipCountsText,
  type FlipCountsView,
} from "../../lib/engine/trust/regrade/flip-counts";
