"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/suites", label: "Suites" },
  { href: "/runs", label: "Runs" },
];

export function TopBar() {
  const pathname = usePathname() ?? "";
  // /suites/[id]/runs belongs to Runs, not to Suites.
  const current = /^\/(suites\/[^/]+\/runs|runs)(\/|$)/.test(pathname) ? "/runs" : pathname.startsWith("/suites") ? "/suites" : "";
  return (
    <header className="topbar">
      <Link href="/suites" className="brand" style={{ textDecoration: "none" }}>
        <span className="brand-mark" aria-hidden="true" />
        Rubric Studio
      </Link>
      <nav aria-label="Main">
        {LINKS.map((l) => (
          <Link key={l.href} href={l.href} aria-current={current === l.href ? "page" : undefined}>
            {l.label}
          </Link>
        ))}
      </nav>
    </header>
  );
}
