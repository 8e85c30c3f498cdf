import Link from "next/link";
import { EmptyState } from "../components/ui/states";

export default function NotFound() {
  return (
    <main className="page">
      <div className="card">
        <EmptyState
          title="Page not found"
          action={
            <Link className="btn" href="/suites">
              Go to the suites
            </Link>
          }
        />
      </div>
    </main>
  );
}
