// Where the dashboard listens decides who can reach it. On loopback only this
// machine can, so no login is asked for unless a password is set; anywhere
// else every request needs one, and starting without a password is refused.

/** Host names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(bare)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** The host name of a Host header value ("127.0.0.1:3000", "[::1]:3000", "example.com"). */
export function hostOfHeader(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith("[")) return trimmed.slice(0, trimmed.indexOf("]") + 1);
  const colon = trimmed.lastIndexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

export const DEFAULT_HOST = "127.0.0.1";

export type BindingCheck =
  { ok: true; host: string; loginRequired: boolean } | { ok: false; message: string };

/** Whether the dashboard may start on `host`, and whether it must ask for a login there. */
export function checkBinding(input: { host?: string; password?: string }): BindingCheck {
  const host = input.host ?? DEFAULT_HOST;
  const loopback = isLoopbackHost(host);
  if (!loopback && !input.password) {
    return {
      ok: false,
      message:
        `refusing to listen on ${host} without a login: anyone who can reach it could read, change and run your suites with the server's API key. ` +
        "Set RUBRIC_STUDIO_PASSWORD (at least 8 characters) on the server, or bind to 127.0.0.1.",
    };
  }
  return { ok: true, host, loginRequired: !loopback || input.password !== undefined };
}
