"use client";
import { RouteError } from "../../components/ui/states";

export default function SuitesError(props: { error: Error; reset: () => void }) {
  return <RouteError {...props} fallback="The suites could not be loaded." />;
}
