"use client";
import { RouteError } from "@/components/ui/states";

export default function CalibrationError(props: { error: Error; reset: () => void }) {
  return <RouteError {...props} fallback="The calibration could not be loaded." />;
}
