"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";

const LINKS = [
  { href: "/suites", label: "Suites" },
  { href: "/runs", label: "Runs" },
];

export function TopBar() {
  const pathname = usePathname() ?? "";
  const onLogin = pathname === "/login";
  // Whether a login session is open (only where the server asks for one):
  // asked of the server, since the session cookie is httpOnly.
  const [loggedIn, setLoggedIn] = useState(false);
  useEffect(() => {
    if (onLogin) return;
    let live = true;
    fetch("/api/auth/session", { cache: "no-store" })
      .then((response) =>
        response.ok ? (response.json() as Promise<{ loggedIn: boolean }>) : { loggedIn: false },
      )
      .then((session) => live && setLoggedIn(session.loggedIn))
      .catch(() => live && setLoggedIn(false));
    return () => {
      live = false;
    };
  }, [onLogin]);
  // /suites/[id]/runs belongs to Runs, not to Suites.
  const current = /^\/(suites\/[^/]+\/runs|runs)(\/|$)/.test(pathname)
    ? "/runs"
    : pathname.startsWith("/suites")
      ? "/suites"
      : "";
  return (
    <header className="topbar">
      <Link href="/suites" className="brand" style={{ textDecoration: "none" }}>
        <span className="brand-mark" aria-hidden="true" />
        Rubric Studio
      </Link>
      {onLogin ? null : (
        <nav aria-label="Main">
          {LINKS.map((l) => (
            <Link key={l.href} href={l.href} aria-current={current === l.href ? "page" : undefined}>
              {l.label}
            </Link>
          ))}
        </nav>
      )}
      {loggedIn && !onLogin ? (
        <form method="post" action="/api/auth/logout" style={{ marginLeft: "auto" }}>
          <button type="submit" className="btn btn-sm topbar-logout">
            Log out
          </button>
        </form>
      ) : null}
    </header>
  );
}
