"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import type { JudgeSaid } from "../../lib/engine/trust/people/review-subject";
import results from "../results/results.module.css";
import { AddAnchor } from "./add-anchor";
import { AddToDataset } from "./add-to-dataset";
import { AnsweredVerdicts } from "./answered-verdicts";
import { LabelledText, LabelQuestion } from "./label-subject-view";
import { ReviewerField } from "./reviewer-field";
import type { GivenLabel, LabelSubject } from "./review-types";
import styles from "./review.module.css";
import { postJson, useReviewer } from "./use-reviewer";

type Claim =
  { kind: "none" } | { kind: "claiming" } | { kind: "held" } | { kind: "blocked"; message: string };

const typing = (target: EventTarget | null) =>
  target instanceof HTMLInputElement ||
  target instanceof HTMLTextAreaElement ||
  target instanceof HTMLSelectElement;

/** The first item not labelled by this person already (one open for its second opinion is another person's). */
const firstFor = (items: QueueStep[], name: string | null) =>
  items.find((item) => !name || !item.labelledBy.includes(name))?.href ?? null;

/** An item J or K may go to: a queue item still waiting for a label, with who labelled it so far. */
export interface QueueStep {
  href: string;
  labelledBy: string[];
}

/**
 * Labelling one item, keyboard first: a digit picks a scale point, Enter
 * saves, J / K go to the next / previous item still waiting. Browsing claims
 * nothing: the first key (or click) that labels claims the item, and leaving
 * it unlabelled by J / K gives the claim back. The judges' verdicts, their
 * evidence and the link to the result stay away until the label is saved,
 * so the label is the person's own.
 */
export function LabelForm(props: {
  itemId: string;
  criterion: string;
  subject: LabelSubject;
  given: GivenLabel | null;
  sessionName: string | null;
  /** Who holds the item's claim now (a claim past its lease is nobody's). */
  claimedBy: string | null;
  /** Who labelled it so far (an item open for its second opinion). */
  labelledBy: string[];
  /** The queue's items still waiting for a label after this one (J), and before it (K), nearest first, wrapping round. */
  nextItems: QueueStep[];
  prevItems: QueueStep[];
  /** The result (or the calibration) the item is about: linked only once the label is saved, since it shows the judges' answer. */
  result: { href: string; label: string };
}) {
  const { itemId, subject } = props;
  const router = useRouter();
  const reviewer = useReviewer(props.sessionName);
  const nextHref = firstFor(props.nextItems, reviewer.name);
  const prevHref = firstFor(props.prevItems, reviewer.name);
  const [claim, setClaim] = useState<Claim>({ kind: "none" });
  const [value, setValue] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [given, setGiven] = useState<GivenLabel | null>(props.given);
  const [answer, setAnswer] = useState<{ verdicts: JudgeSaid[]; evidence: string[] } | undefined>(
    subject.verdicts ? { verdicts: subject.verdicts, evidence: subject.evidence } : undefined,
  );
  const [nowhere, setNowhere] = useState(false);
  const form = useRef<HTMLDivElement>(null);
  // Enter pressed before the claim is held or before the digit just pressed has rendered: saved as
  // soon as both are there.
  const submitWanted = useRef(false);
  const chosen = useRef<string | null>(null);
  const claimState = useRef<Claim["kind"]>("none");
  claimState.current = claim.kind;

  // What the server knows before anyone presses a key: someone else holds the item, or this person labelled it already.
  const heldBy = props.claimedBy;
  useEffect(() => {
    if (!reviewer.name || given) return;
    if (props.labelledBy.includes(reviewer.name))
      setClaim({
        kind: "blocked",
        message: "You labelled this item already: its second opinion is another person's.",
      });
    else if (heldBy && heldBy !== reviewer.name)
      setClaim({ kind: "blocked", message: `${heldBy} is labelling this item.` });
    else if (heldBy === reviewer.name) setClaim({ kind: "held" });
  }, [reviewer.name, given, heldBy, props.labelledBy]);
  useEffect(() => form.current?.focus(), [itemId]);

  /** Claims the item on the first key or click that labels it; a claim someone else holds blocks the form, with who. */
  const claimNow = useCallback(async () => {
    if (!reviewer.name || claimState.current !== "none") return;
    claimState.current = "claiming";
    setClaim({ kind: "claiming" });
    const claimed = await postJson(`/api/review/${itemId}/claim`, { reviewer: reviewer.name });
    setClaim(claimed.ok ? { kind: "held" } : { kind: "blocked", message: claimed.message });
    if (!claimed.ok) {
      chosen.current = null;
      submitWanted.current = false;
      setValue(null);
    }
  }, [itemId, reviewer.name]);

  const pick = useCallback(
    (point: string) => {
      if (given || claimState.current === "blocked") return;
      chosen.current = point;
      setValue(point);
      void claimNow();
    },
    [given, claimNow],
  );

  const submit = useCallback(async () => {
    if (!value || !reviewer.name || claim.kind !== "held" || saving || given) return;
    submitWanted.current = false;
    setSaving(true);
    const saved = await postJson<{ label: GivenLabel; verdicts: JudgeSaid[]; evidence: string[] }>(
      `/api/review/${itemId}/label`,
      { reviewer: reviewer.name, answer: value, ...(note.trim() ? { note } : {}) },
    );
    setSaving(false);
    if (!saved.ok) return setError(saved.message);
    setError(null);
    setGiven(saved.value.label);
    setAnswer({ verdicts: saved.value.verdicts, evidence: saved.value.evidence ?? [] });
    form.current?.focus();
  }, [value, reviewer.name, claim.kind, saving, given, itemId, note]);

  useEffect(() => {
    if (submitWanted.current && claim.kind === "held" && value) void submit();
  }, [submit, claim.kind, value]);

  /** J / K: to the next or previous item still waiting; an unlabelled claim of this item is given back on the way. */
  const go = useCallback(
    (href: string | null) => {
      if (!href) return setNowhere(true);
      if (claimState.current === "held" && !given && reviewer.name)
        void postJson(`/api/review/${itemId}/claim`, { reviewer: reviewer.name }, "DELETE");
      router.push(href);
    },
    [given, itemId, reviewer.name, router],
  );

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
      if (point && !given) return pick(point.value);
      if (event.key === "j" || event.key === "J") go(nextHref);
      if (event.key === "k" || event.key === "K") go(prevHref);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [submit, value, subject.scale.points, given, nextHref, prevHref, pick, go]);

  // Browsing claims nothing: the form is open until the first key that labels, unless someone else holds the item.
  const locked = given !== null || claim.kind === "blocked";
  // The judges' evidence is part of their answer: highlighted only once the label is saved.
  const evidence = given ? (answer?.evidence ?? []) : [];
  return (
    <div className={styles.layout}>
      <LabelledText subject={subject} criterion={props.criterion} evidence={evidence} />
      <div ref={form} tabIndex={-1} data-testid="label-form" style={{ outline: "none" }}>
        <ReviewerField {...reviewer} />
        <LabelQuestion subject={subject} criterion={props.criterion} />
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
                onClick={() => pick(p.value)}
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
              onClick={() => {
                submitWanted.current = true;
                void submit();
              }}
              data-testid="label-submit"
            >
              Save label (Enter)
            </button>{" "}
            <span className={styles.hint}>
              Digits pick a point · Enter saves · J next · K previous (items still waiting)
            </span>
          </p>
          {nowhere ? (
            <p className={styles.hint} role="status" data-testid="label-nav-end">
              No other item of this queue waits for your label.
            </p>
          ) : null}
          {error ? (
            <p className={styles.notice} role="alert" data-testid="label-error">
              {error}
            </p>
          ) : null}
          {given ? (
            <p className={styles.done} data-testid="label-saved">
              Labelled {given.value} by {given.reviewer}.
              {nextHref ? " J for the next item." : " That was the last item of the queue."}{" "}
              <a href={props.result.href} data-testid="label-result-link">
                {props.result.label}
              </a>
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
        {given && answer ? <AnsweredVerdicts verdicts={answer.verdicts} /> : null}
      </div>
    </div>
  );
}
