import http from "node:http";
import https from "node:https";
import { urlToHttpOptions } from "node:url";

// A `fetch` for the Anthropic SDK over node:http with keep-alive agents.
// Why: the global fetch (undici) costs this process about 1.2 ms of CPU per
// judge call on a small server, and a run makes thousands of calls; node:http
// does the same request for about a third of that. The reply is small JSON
// (no streaming is used), so it is read whole and handed over as a Response.

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Where a request goes, as node:http takes it: parsed once per URL (a run asks the same one every call). */
interface Target {
  protocol: "http:" | "https:";
  options: http.RequestOptions;
  href: string;
  /** The Host header node:http would add (IPv6 in brackets, a port other than the default), or undefined when it would add none it can be given (user:password in the URL). */
  host: string | undefined;
}
const MAX_TARGETS = 64;

function targetOf(input: string, cache: Map<string, Target>): Target | TypeError {
  const known = cache.get(input);
  if (known) return known;
  const url = new URL(input);
  const protocol =
    url.protocol === "https:" ? "https:" : url.protocol === "http:" ? "http:" : undefined;
  if (!protocol) return new TypeError(`fetch: unsupported protocol ${url.protocol}`);
  const options = urlToHttpOptions(url);
  const target: Target = {
    protocol,
    options,
    href: url.href,
    host: hostHeaderOf(options, protocol),
  };
  // Query strings (a batch's results, paged lists) could make the URLs many: only a few are kept.
  if (cache.size < MAX_TARGETS) cache.set(input, target);
  return target;
}

/** As node:http writes the Host header from a request's options (lib/_http_client.js). */
function hostHeaderOf(
  options: http.RequestOptions,
  protocol: "http:" | "https:",
): string | undefined {
  if (options.auth) return undefined;
  let host = options.hostname || "localhost";
  const colon = host.indexOf(":");
  if (colon !== -1 && host.includes(":", colon + 1) && !host.startsWith("[")) host = `[${host}]`;
  const defaultPort = protocol === "https:" ? 443 : 80;
  const port = options.port ?? defaultPort;
  return Number(port) !== defaultPort ? `${host}:${port}` : host;
}

export function createNodeHttpFetch(): typeof fetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };
  const targets = new Map<string, Target>();

  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const target = targetOf(
        typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
        targets,
      );
      if (target instanceof TypeError) {
        reject(target);
        return;
      }
      const body = bodyOf(init.body);
      const headers = headersOf(init.headers);
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      // Unlike fetch, node:http does not decompress; ask for a plain body.
      headers["accept-encoding"] = "identity";
      // As a flat list with the Host header node:http would append, in the same place: node:http
      // then writes the list as given instead of setting, checking and looking up each header
      // (the same bytes: test/judge/wire-bytes.test.ts).
      let list: string[] | undefined;
      if (target.host !== undefined && !("host" in headers)) {
        list = [];
        for (const name in headers) list.push(name, headers[name]!);
        list.push("Host", target.host);
      }
      const send = target.protocol === "https:" ? https.request : http.request;
      const request = send(
        {
          ...target.options,
          method: init.method ?? "GET",
          headers: list ?? headers,
          agent: agents[target.protocol],
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (response) => {
          // A judge's reply is one small chunk: it is decoded without a copy into a joined buffer.
          let first: Buffer | undefined;
          let more: Buffer[] | undefined;
          response.on("data", (chunk: Buffer) => {
            if (first === undefined) first = chunk;
            else (more ??= [first]).push(chunk);
          });
          response.on("error", reject);
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            const replyHeaders = new Map<string, string>();
            const parsed = response.headers;
            for (const name in parsed) {
              const value = parsed[name];
              if (value !== undefined)
                replyHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
            }
            const bytes = more ? Buffer.concat(more) : first;
            const text =
              NO_BODY_STATUSES.has(status) || bytes === undefined ? "" : bytes.toString("utf8");
            resolve(
              new BufferedResponse({
                status,
                statusText: response.statusMessage ?? "",
                headers: replyHeaders,
                text,
                url: target.href,
              }) as unknown as Response,
            );
          });
        },
      );
      // node:http rejects an aborted request with an error named AbortError,
      // which the SDK tells apart from a refused connection (a timeout it retries).
      request.on("error", reject);
      request.end(body);
    });
}

/**
 * The reply's headers, read-only: what the SDK and the retry policy read of a
 * reply (get, has, iteration). undici's Headers validates every name and value
 * as it is set and sorts them at every iteration, which the SDK does once per
 * reply to build a log line; node:http has already parsed them (names lower case).
 */
class ReplyHeaders {
  constructor(private readonly byName: Map<string, string>) {}
  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string, headers: ReplyHeaders) => void): void {
    for (const [name, value] of this.byName) callback(value, name, this);
  }
  getSetCookie(): string[] {
    const cookie = this.byName.get("set-cookie");
    return cookie === undefined ? [] : [cookie];
  }
  entries(): IterableIterator<[string, string]> {
    return this.byName.entries();
  }
  keys(): IterableIterator<string> {
    return this.byName.keys();
  }
  values(): IterableIterator<string> {
    return this.byName.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.byName.entries();
  }
}

interface BufferedReply {
  status: number;
  statusText: string;
  headers: Map<string, string>;
  text: string;
  url: string;
}

/**
 * A Response over a body already read whole. Building undici's Response costs
 * about a sixth of a judge call's CPU; the SDK only needs status, headers,
 * text/json and clone() of a JSON reply (it never streams here). Its methods
 * sit on the prototype, not in closures made per reply.
 */
class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: ReplyHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = "basic";
  readonly body = null;
  private used = false;
  constructor(private readonly reply: BufferedReply) {
    this.status = reply.status;
    this.statusText = reply.statusText;
    this.ok = reply.status >= 200 && reply.status < 300;
    this.headers = new ReplyHeaders(reply.headers);
    this.url = reply.url;
  }
  get bodyUsed(): boolean {
    return this.used;
  }
  private take(): string {
    if (this.used) throw new TypeError("Body is unusable: it has already been read");
    this.used = true;
    return this.reply.text;
  }
  async text(): Promise<string> {
    return this.take();
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.take()) as unknown;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return new TextEncoder().encode(this.take()).buffer;
  }
  clone(): BufferedResponse {
    return new BufferedResponse(this.reply);
  }
}

function bodyOf(body: RequestInit["body"]): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // The SDK sends JSON strings to the Messages API; anything else (streams,
  // forms) would be a programmer error in this adapter.
  throw new TypeError("fetch: only string and byte bodies are supported");
}

function headersOf(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name] = value;
    });
  } else if (Array.isArray(headers)) {
    for (const [name, value] of headers)
      if (name !== undefined && value !== undefined) out[name.toLowerCase()] = value;
  } else {
    for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  }
  return out;
}
