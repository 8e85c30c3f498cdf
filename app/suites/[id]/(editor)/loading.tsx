import { LoadingRows } from "../../../../components/ui/states";

export default function Loading() {
  return (
    <main className="page-wide">
      <div className="card">
        <LoadingRows rows={8} label="Loading the suite" />
      </div>
    </main>
  );
}
