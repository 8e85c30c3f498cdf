import { escapeHtml } from "./escape";

// A tagged template that escapes every interpolated value unless it is
// already markup built by this same tag, so that forgetting to escape a judge's
// text is not possible by construction in the HTML reporter.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | Interpolation[];

function renderValue(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += renderValue(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(out);
}

/** Trusted constant markup (the stylesheet); never pass report text here. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
