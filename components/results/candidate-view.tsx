import { evidenceSegments, type EvidenceSource } from "./evidence-spans";
import styles from "./results.module.css";

// The graded text with each criterion's evidence highlighted. Every piece is
// a React text child, so model output can never become markup.
export function CandidateView({
  text,
  sources,
  names,
}: {
  text: string;
  sources: EvidenceSource[];
  names: string[];
}) {
  const segments = evidenceSegments(text, sources);
  return (
    <div className={styles.candidate} data-testid="candidate">
      {segments.map((segment, i) =>
        segment.marks.length === 0 ? (
          <span key={i}>{segment.text}</span>
        ) : (
          <mark
            key={i}
            className={styles.mark}
            data-testid="evidence-mark"
            // The criterion numbers are drawn by CSS (::after), so they never mix into the candidate's text.
            data-criteria={segment.marks.map((m) => m + 1).join(",")}
            title={`Evidence for: ${segment.marks.map((m) => names[m] ?? `#${m + 1}`).join(", ")}`}
          >
            {segment.text}
          </mark>
        ),
      )}
    </div>
  );
}
