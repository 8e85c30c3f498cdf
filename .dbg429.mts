import Anthropic from "@anthropic-ai/sdk";
import { startFakeMessagesApi } from "/work/main/test/support/fake-messages-api";
import { createNodeHttpFetch } from "/work/main/lib/judge/node-http-fetch";
import { classifyFailure } from "/work/main/lib/judge/retry-policy";
const api = await startFakeMessagesApi({ respond: () => ({ status: 429, headers: { "retry-after": "1" } }) });
for (const fetch of [undefined, createNodeHttpFetch()]) {
  const client = new Anthropic({ apiKey: "k", baseURL: api.url, maxRetries: 0, ...(fetch ? { fetch } : {}) });
  try { await client.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] }); }
  catch (e: any) { console.log(fetch ? "node-http" : "global", e.constructor.name, e.status, typeof e.headers, e.headers?.get?.("retry-after"), classifyFailure(e, Date.now)); }
}
await api.close();
