import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { createSuiteStore } from "../../../lib/store/suite-store";
import { dashboardDatabase } from "../../../lib/store/dashboard-database";

// An unknown suite is answered here, outside the loading boundaries of its
// pages: once a page has started streaming, Next can no longer change the
// status, and notFound() would answer 200 with the not-found page.
export default async function SuiteLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const db = dashboardDatabase();
  // Without a database the pages show their own error state.
  if (db.ok && !(await createSuiteStore(db.prisma).getSuite(id))) notFound();
  return children;
}
