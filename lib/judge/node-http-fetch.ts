import http from "node:http";
import https from "node:https";

// A `fetch` for the Anthropic SDK over node:http with keep-alive agents.
// Why: the global fetch (undici) costs this process about 1.2 ms of CPU per
// judge call on a small server, and a run makes thousands of calls; node:http
// does the same request for about a third of that. The reply is small JSON
// (no streaming is used), so it is read whole and handed over as a Response.

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function createNodeHttpFetch(): typeof fetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };

  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(
        typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      );
      const protocol =
        url.protocol === "https:" ? "https:" : url.protocol === "http:" ? "http:" : undefined;
      if (!protocol) {
        reject(new TypeError(`fetch: unsupported protocol ${url.protocol}`));
        return;
      }
      const body = bodyOf(init.body);
      const headers = headersOf(init.headers);
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      // Unlike fetch, node:http does not decompress; ask for a plain body.
      headers["accept-encoding"] = "identity";
      const send = protocol === "https:" ? https.request : http.request;
      const request = send(
        url,
        {
          method: init.method ?? "GET",
          headers,
          agent: agents[protocol],
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            const replyHeaders = new Map<string, string>();
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined)
                replyHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
            }
            const text = NO_BODY_STATUSES.has(status) ? "" : Buffer.concat(chunks).toString("utf8");
            resolve(
              bufferedResponse({
                status,
                statusText: response.statusMessage ?? "",
                headers: replyHeaders,
                text,
                url: url.href,
              }),
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
 * A Response over a body already read whole. Building undici's Response costs
 * about a sixth of a judge call's CPU; the SDK only needs status, headers,
 * text/json and clone() of a JSON reply (it never streams here).
 */
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

function bufferedResponse(input: {
  status: number;
  statusText: string;
  headers: Map<string, string>;
  text: string;
  url: string;
}): Response {
  let used = false;
  const take = () => {
    if (used) throw new TypeError("Body is unusable: it has already been read");
    used = true;
    return input.text;
  };
  const response = {
    status: input.status,
    statusText: input.statusText,
    ok: input.status >= 200 && input.status < 300,
    headers: new ReplyHeaders(input.headers),
    url: input.url,
    redirected: false,
    type: "basic",
    body: null,
    get bodyUsed() {
      return used;
    },
    text: async () => take(),
    json: async () => JSON.parse(take()) as unknown,
    arrayBuffer: async () => new TextEncoder().encode(take()).buffer,
    clone: () => bufferedResponse(input),
  };
  return response as unknown as Response;
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
