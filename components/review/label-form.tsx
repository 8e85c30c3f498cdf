"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { JudgeSaid } from "../../lib/engine/trust/people/review-subject";
import { CandidateView } from "../results/candidate-view";
import results from "../results/results.module.css";
import { AddAnchor } from "./add-anchor";
import { AddToDataset } from "./add-to-dataset";
import { ReviewerField } from "./reviewer-field";
import type { GivenLabel, LabelSubject } from "./review-types";
import styles from "./review.module.css";
import { postJson, useReviewer } from "./use-reviewer";

type Claim = { kind: "waiting" } | { kind: "held" } | { kind: "blocked"; message: string };

const typing = (target: EventTarget | null) =>
  target instanceof HTMLInputElement ||
  target instanceof HTMLTextAreaElement ||
  target instanceof HTMLSelectElement;

/**
 * Labelling one item, keyboard first: a digit picks a scale point, Enter
 * saves, J / K go to the next / previous item. The judges' verdicts stay
 * hidden until the person has answered, so the label is their own.
 */
export function LabelForm(props: {
  itemId: string;
  criterion: string;
  subject: LabelSubject;
  given: GivenLabel | null;
  sessionName: string | null;
  /** The queue's next items still waiting for a label, in order, with who labelled each so far. */
  nextItems: { href: string; labelledBy: string[] }[];
  prevHref: string | null;
}) {
  const { itemId, subject } = props;
  const router = useRouter();
  const reviewer = useReviewer(props.sessionName);
  // Not an item this person labelled already (one open for its second opinion is another person's).
  const nextHref =
    props.nextItems.find((item) => !reviewer.name || !item.labelledBy.includes(reviewer.name))
      ?.href ?? null;
  const [claim, setClaim] = useState<Claim>({ kind: "waiting" });
  const [value, setValue] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [given, setGiven] = useState<GivenLabel | null>(props.given);
  const [verdicts, setVerdicts] = useState<JudgeSaid[] | undefined>(subject.verdicts);
  const [showVerdicts, setShowVerdicts] = useState(false);
  const form = useRef<HTMLDivElement>(null);
  // Enter pressed before the claim is held or before the digit just pressed has rendered: saved as
  // soon as both are there.
  const submitWanted = useRef(false);
  const chosen = useRef<string | null>(null);

  useEffect(() => {
    if (!reviewer.name || given) return;
    let live = true;
    void postJson(`/api/review/${itemId}/claim`, { reviewer: reviewer.name }).then((claimed) => {
      if (!live) return;
      setClaim(claimed.ok ? { kind: "held" } : { kind: "blocked", message: claimed.message });
      if (claimed.ok) form.current?.focus();
    });
    return () => {
      live = false;
    };
  }, [itemId, reviewer.name, given]);

  const submit = useCallback(async () => {
    if (!value || !reviewer.name || claim.kind !== "held" || saving || given) return;
    submitWanted.current = false;
    setSaving(true);
    const saved = await postJson<{ label: GivenLabel; verdicts: JudgeSaid[] }>(
      `/api/review/${itemId}/label`,
      { reviewer: reviewer.name, answer: value, ...(note.trim() ? { note } : {}) },
    );
    setSaving(false);
    if (!saved.ok) return setError(saved.message);
    setError(null);
    setGiven(saved.value.label);
    setVerdicts(saved.value.verdicts);
    form.current?.focus();
  }, [value, reviewer.name, claim.kind, saving, given, itemId, note]);

  useEffect(() => {
    if (submitWanted.current && claim.kind === "held" && value) void submit();
  }, [submit, claim.kind, value]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // Enter saves from anywhere but a field, a link or another button (which keep their own
      // Enter); Shift+Enter is a new line in the note.
      const ownEnter =
        event.target instanceof HTMLAnchorElement ||
        (event.target instanceof HTMLButtonElement &&
          event.target.dataset.testid !== "label-point");
      if (
        event.key === "Enter" &&
        !event.shiftKey &&
        !ownEnter &&
        (!typing(event.target) || event.target instanceof HTMLTextAreaElement)
      ) {
        event.preventDefault();
        if (chosen.current ?? value) submitWanted.current = true;
        void submit();
        return;
      }
      if (typing(event.target)) return;
      const point = subject.scale.points.find((p) => p.key === event.key);
      if (point && !given) {
        chosen.current = point.value;
        return setValue(point.value);
      }
      if ((event.key === "j" || event.key === "J") && nextHref) router.push(nextHref);
      if ((event.key === "k" || event.key === "K") && props.prevHref) router.push(props.prevHref);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [submit, value, subject.scale.points, given, nextHref, props.prevHref, router]);

  const locked = given !== null || claim.kind !== "held";
  return (
    <div className={styles.layout}>
      <div>
        {subject.prompt ? (
          <section className={results.section}>
            <h2>Prompt</h2>
            <div className={results.candidate}>{subject.prompt}</div>
          </section>
        ) : null}
        <section className={results.section}>
          <h2>Candidate{subject.evidence.length ? " (the judges' evidence highlighted)" : ""}</h2>
          <CandidateView
            text={subject.candidate}
            sources={subject.evidence.map((evidence) => ({ index: 0, evidence }))}
            names={[props.criterion]}
          />
        </section>
      </div>
      <div ref={form} tabIndex={-1} data-testid="label-form" style={{ outline: "none" }}>
        <ReviewerField {...reviewer} />
        <section className={results.section}>
          <h2>{props.criterion}</h2>
          <p className={results.reasoning} data-testid="label-asks">
            {subject.asks}
          </p>
          {subject.anchors.length ? (
            <div data-testid="label-anchors">
              <p className={styles.hint}>Anchors in the suite:</p>
              {subject.anchors.map((a, i) => (
                <p key={i} className={results.quote}>
                  {a.response} → {a.score.toFixed(2)}
                </p>
              ))}
            </div>
          ) : null}
        </section>
        {claim.kind === "blocked" ? (
          <p className={styles.notice} role="alert" data-testid="claim-blocked">
            {claim.message}
          </p>
        ) : null}
        <section className={results.section}>
          <h2>Your answer ({subject.scale.kind})</h2>
          <div className={styles.points} role="radiogroup" data-testid="label-points">
            {subject.scale.points.map((p) => (
              <button
                key={p.value}
                type="button"
                role="radio"
                aria-checked={(given?.value ?? value) === p.value}
                className={`${styles.point} ${(given?.value ?? value) === p.value ? styles.pointOn : ""}`}
                disabled={locked}
                onClick={() => setValue(p.value)}
                data-testid="label-point"
                data-value={p.value}
              >
                {p.value}
                <span className={styles.key}>key {p.key}</span>
              </button>
            ))}
          </div>
          <textarea
            className={styles.note}
            placeholder="Note (optional). Enter saves, Shift+Enter a new line."
            value={given ? (given.note ?? "") : note}
            maxLength={2000}
            disabled={locked}
            onChange={(e) => setNote(e.target.value)}
            data-testid="label-note"
          />
          <p>
            <button
              type="button"
              className={styles.button}
              disabled={locked || !value || saving}
              onClick={() => void submit()}
              data-testid="label-submit"
            >
              Save label (Enter)
            </button>{" "}
            <span className={styles.hint}>
              Digits pick a point · Enter saves · J next · K previous
            </span>
          </p>
          {error ? (
            <p className={styles.notice} role="alert" data-testid="label-error">
              {error}
            </p>
          ) : null}
          {given ? (
            <p className={styles.done} data-testid="label-saved">
              Labelled {given.value} by {given.reviewer}.
              {nextHref ? " J for the next item." : " That was the last item of the queue."}
            </p>
          ) : null}
        </section>
        {given ? (
          <section className={results.section}>
            {!["category", "decision", "pairwise"].includes(subject.scale.kind) ? (
              <AddAnchor labelId={given.id} />
            ) : null}
            <AddToDataset labelId={given.id} />
          </section>
        ) : null}
        {given && verdicts ? (
          <section className={results.section}>
            <button
              type="button"
              className={`${styles.button} ${styles.secondary}`}
              onClick={() => setShowVerdicts((s) => !s)}
              data-testid="toggle-verdicts"
            >
              {showVerdicts ? "Hide" : "Show"} the judges&apos; verdicts
            </button>
            {showVerdicts ? (
              <div className={results.verdicts} data-testid="judge-verdicts">
                {verdicts.map((v, i) => (
                  <div key={i} className={results.verdict} data-testid="judge-verdict">
                    <strong>{v.judge}</strong>: {v.said}
                    {v.reasoning ? <p className={results.reasoning}>{v.reasoning}</p> : null}
                  </div>
                ))}
              </div>
            ) : null}
          </section>
        ) : null}
      </div>
    </div>
  );
}
