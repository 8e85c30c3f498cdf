"use client";
import { useEffect, useRef, useState } from "react";

/**
 * The width of a chart's box, measured in the browser and kept up to date, so
 * a recharts chart can take its figure's width. Not ResponsiveContainer: it
 * draws nothing when it first measures zero in a narrow layout. `fallback` is
 * the width before the first measure; `min` keeps a squeezed chart legible.
 */
export function useWidth<T extends HTMLElement>(input: { fallback: number; min: number }) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(input.fallback);
  const { min } = input;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(min, Math.floor(el.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [min]);
  return { ref, width };
}
