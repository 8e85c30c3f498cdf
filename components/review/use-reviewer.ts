"use client";
import { useCallback, useEffect, useState } from "react";
import { cleanName } from "../../lib/config/clean-name";
import { LIMITS } from "../../lib/config/limits";

// The reviewer's name: the session's (given at login) when there is one, else
// the one this browser remembers (loopback, no login), asked for once.

const KEY = "rubric-studio.reviewer";

export function useReviewer(sessionName: string | null): {
  name: string | null;
  fromSession: boolean;
  setName: (name: string) => void;
} {
  const [stored, setStored] = useState<string | null>(null);
  useEffect(() => {
    try {
      setStored(window.localStorage.getItem(KEY));
    } catch {
      // Storage refused (private mode): the name lasts for this page only.
    }
  }, []);
  const setName = useCallback((name: string) => {
    // The server's normal form (lib/access/reviewer-name.ts), so the name shown is the name stored.
    const clean = cleanName(name, LIMITS.reviewerChars);
    if (!clean) return;
    try {
      window.localStorage.setItem(KEY, clean);
    } catch {
      // As above: kept in memory only.
    }
    setStored(clean);
  }, []);
  return { name: sessionName ?? stored, fromSession: sessionName !== null, setName };
}

export async function postJson<T>(
  url: string,
  body: unknown,
  method = "POST",
): Promise<{ ok: true; value: T } | { ok: false; status: number; message: string }> {
  try {
    const response = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { ok: true, value: json as T };
    return {
      ok: false,
      status: response.status,
      message:
        (json as { error?: { message?: string } } | undefined)?.error?.message ??
        `The server answered ${response.status}.`,
    };
  } catch {
    return { ok: false, status: 0, message: "The server could not be reached." };
  }
}
