import type { ApiError } from "./api-types";

export type ApiResult<T> =
  { ok: true; value: T; status: number } | { ok: false; message: string; status: number };

/** fetch + JSON, as a result: the UI shows `message` and never sees an exception. */
export async function apiFetch<T>(
  url: string,
  init?: { method?: string; body?: unknown; signal?: AbortSignal },
): Promise<ApiResult<T>> {
  try {
    const response = await fetch(url, {
      method: init?.method ?? "GET",
      headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { ok: true, value: json as T, status: response.status };
    const message =
      (json as ApiError | undefined)?.error?.message ?? `The server answered ${response.status}.`;
    return { ok: false, message, status: response.status };
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return {
      ok: false,
      message: "The server could not be reached. Is `npm run dev` still running?",
      status: 0,
    };
  }
}
