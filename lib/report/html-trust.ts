import type { Report } from "../engine/results/report";
import { html, type SafeHtml } from "./html-template";
import { trustSections } from "./trust-sections";

// HTML for reviews, comparisons and judge agreement (trust-sections.ts),
// escaped by construction through the html tag.

export function trustHtml(report: Report): SafeHtml {
  return html`${trustSections(report).map(
    (section) => html`<section class="trust"><h2>${section.heading}</h2>
<ul>${section.facts.map((fact) => html`<li>${fact}</li>`)}</ul>
${section.tables.map(
  (t) =>
    html`${t.caption ? html`<h3>${t.caption}</h3>` : ""}<table><thead><tr>${t.header.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${t.rows.map(
      (row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`,
    )}</tbody></table>`,
)}
${section.lists.map((list) => html`<h3>${list.title}</h3><ul>${list.items.map((item) => html`<li>${item}</li>`)}</ul>`)}
</section>`,
  )}`;
}
