import Link from "next/link";
import { Fragment } from "react";
import styles from "./results.module.css";

export type Crumb = { label: string; href?: string };

/** The one breadcrumb trail of a suite's pages (history, diff, calibration): "Suites / <suite> / ...". */
export function SuiteCrumbs({
  suiteId,
  suiteName,
  trail,
}: {
  suiteId: string;
  suiteName: string;
  trail: Crumb[];
}) {
  const crumbs: Crumb[] = [
    { label: "Suites", href: "/suites" },
    { label: suiteName, href: `/suites/${suiteId}` },
    ...trail,
  ];
  return (
    <div className={styles.crumbs} data-testid="suite-crumbs">
      {crumbs.map((crumb, i) => (
        <Fragment key={i}>
          {i > 0 ? " / " : null}
          {crumb.href ? <Link href={crumb.href}>{crumb.label}</Link> : crumb.label}
        </Fragment>
      ))}
    </div>
  );
}

/** The history page's crumb, the parent of the diff page. */
export const historyCrumb = (suiteId: string): Crumb => ({
  label: "history",
  href: `/suites/${suiteId}/runs`,
});
