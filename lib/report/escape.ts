// Escaping for every format in one place, so that a fix reaches all reporters.
// Report strings come from judges and candidates (model output), so they are
// treated as hostile: markup, control characters and terminal escapes alike.

// XML 1.0 forbids most C0 controls even as character references, and lone
// surrogates and U+FFFE/U+FFFF are not characters at all.
const XML_INVALID =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// C0 and C1 controls other than tab and newline: ESC would let a judge's
// reasoning repaint the terminal, and YAML and XML reject most of them anyway.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Drops control characters (ANSI escapes included) but keeps tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CONTROL, "");
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for an XML text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(XML_INVALID, "\uFFFD").replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

/** Attribute values lose their newlines to normalisation unless they are written as references. */
export function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/\r/g, "&#13;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
}

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return stripControl(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

/**
 * Escapes inline Markdown: HTML is neutralised with entities and the
 * characters that would start emphasis, code, links or a table cell are
 * backslash-escaped, so judge text cannot inject links or markup.
 */
export function escapeMarkdown(text: string): string {
  return stripControl(text)
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** A table cell is one line, so newlines become `<br>` (the only HTML we emit on purpose). */
export function escapeMarkdownCell(text: string): string {
  return escapeMarkdown(text).replace(/\n+/g, "<br>");
}

/** A fence longer than any backtick run in the text, so the text cannot close it. */
export function markdownFence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** One line for formats that are line-oriented (TAP descriptions, terminal headings). */
export function oneLine(text: string): string {
  return stripControl(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
}
