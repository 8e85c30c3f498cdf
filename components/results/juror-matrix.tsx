import type { JurorAgreementMatrix } from "@/lib/engine/trust/agreement/juror-agreement-matrix";
import styles from "./results.module.css";
import trust from "./trust.module.css";

// One eval's judges against each other: the share of ratings both gave on
// which they agreed exactly (and, for unit scores, their mean difference).

function colourOf(agreement: number | null): string {
  if (agreement === null) return "#8a94a3";
  return `hsl(${Math.round(agreement * 120)} 55% 34%)`;
}

export function JurorMatrix({ matrix }: { matrix: JurorAgreementMatrix }) {
  const interval = matrix.level === "interval";
  return (
    <figure className={trust.figure} data-testid="juror-matrix" data-eval={matrix.eval}>
      <figcaption>
        <strong>{matrix.eval}</strong> · share of ratings on which each two judges agreed exactly
        (agreed / rated by both)
        {interval ? "; unit scores also show the mean |difference|" : ""}
      </figcaption>
      <table className={`${styles.table} ${trust.matrix}`}>
        <thead>
          <tr>
            <th>Judge</th>
            {matrix.judges.map((j) => (
              <th key={j} data-testid="juror-column">
                <JudgeName judge={j} provider={matrix.providers[j]} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.judges.map((a, i) => (
            <tr key={a}>
              <th>
                <JudgeName judge={a} provider={matrix.providers[a]} />
              </th>
              {matrix.judges.map((b, j) => {
                const cell = matrix.cells[i]![j]!;
                // A judge against itself says nothing: the diagonal stays empty.
                if (i === j) {
                  return (
                    <td key={b} data-testid="juror-self" title="the same judge">
                      <span className={`${trust.pair} ${trust.self}`}>—</span>
                    </td>
                  );
                }
                return (
                  <td key={b} data-testid="juror-pair" data-a={a} data-b={b}>
                    <span className={trust.pair} style={{ background: colourOf(cell.agreement) }}>
                      <strong>
                        {cell.agreement === null ? "—" : `${Math.round(cell.agreement * 100)}%`}
                      </strong>
                      <br />
                      {cell.agreed}/{cell.units}
                      {interval && cell.meanAbsDifference !== null
                        ? ` · |Δ| ${cell.meanAbsDifference.toFixed(2)}`
                        : ""}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** A judge as the matrix labels it, with the provider that served its model where recorded. */
function JudgeName({ judge, provider }: { judge: string; provider: string | undefined }) {
  return (
    <>
      {judge}
      {provider ? (
        <span className={trust.provider} data-testid="juror-provider">
          {provider}
        </span>
      ) : null}
    </>
  );
}
