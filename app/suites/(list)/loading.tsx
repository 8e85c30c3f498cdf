import { LoadingRows } from "../../../components/ui/states";

export default function Loading() {
  return (
    <main className="page">
      <div className="card">
        <LoadingRows rows={4} label="Loading suites" />
      </div>
    </main>
  );
}
