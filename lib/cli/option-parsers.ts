import { InvalidArgumentError } from "commander";
import { formatCount } from "../config/limits";
import type { JudgingParsers } from "./judging-options";

// The parsers of numeric options, shared by every command: each names its flag
// in the usage error commander prints (exit 2).

function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${name} must be a whole number of at least 1`);
    if (n > max) throw new InvalidArgumentError(`${name} must be at most ${formatCount(max)}`);
    return n;
  };
}

function positiveNumber(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a number greater than 0`);
    return n;
  };
}

function nonNegative(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new InvalidArgumentError(`${name} must be a number of at least 0`);
    return n;
  };
}

export const optionParsers: JudgingParsers = { positiveInt, positiveNumber, nonNegative };
