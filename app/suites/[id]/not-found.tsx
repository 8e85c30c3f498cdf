import Link from "next/link";
import { EmptyState } from "../../../components/ui/states";

export default function SuiteNotFound() {
  return (
    <main className="page">
      <div className="card">
        <EmptyState
          title="This suite does not exist"
          action={
            <Link className="btn" href="/suites">
              Back to the suites
            </Link>
          }
        >
          It may have been deleted or renamed away from this link.
        </EmptyState>
      </div>
    </main>
  );
}
