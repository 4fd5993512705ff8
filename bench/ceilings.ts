import { type BenchOptions, measureCeiling, type Row, type ScenarioOutcome } from './scenario.js';

/**
 * The ceiling, measured before the first scenario of a run and again after every scenario. On a
 * shared machine it drifts by a fifth or more within minutes, so a scenario's rows are compared
 * with the mean of the ceilings taken just before and just after it, never with one taken a
 * quarter of an hour away. (The paired growth step compares two services with each other, not
 * with the ceiling.)
 */
export class Ceilings {
  /** Every ceiling measurement, in order. */
  readonly rows: Row[] = [];
  private last: Row[] = [];

  constructor(private readonly options: BenchOptions) {}

  async measure(): Promise<void> {
    const label = `bare-fastify #${this.rows.length / this.options.connections.length + 1}`;
    process.stderr.write(`ceiling: ${label}\n`);
    this.last = await measureCeiling(this.options, label);
    this.rows.push(...this.last);
  }

  /** Runs a scenario; when it has rows, measures the ceiling again and sets their ratios. */
  async around(scenario: () => Promise<ScenarioOutcome>): Promise<ScenarioOutcome> {
    const before = this.last;
    const outcome = await scenario();
    if (outcome.rows.length === 0) return outcome;
    await this.measure();
    for (const row of outcome.rows) {
      const ceiling = mean([before, this.last].flatMap((rows) => rpsAt(rows, row.connections)));
      row.ceilingRps = Math.round(ceiling);
      row.ratio = round2(row.requestsPerSecond / ceiling);
    }
    return outcome;
  }

  /** The ceiling rows, each compared with the mean of every ceiling at its connection count: the drift. */
  withDrift(): Row[] {
    return this.rows.map((row) => {
      const ceiling = mean(rpsAt(this.rows, row.connections));
      return { ...row, ceilingRps: Math.round(ceiling), ratio: round2(row.requestsPerSecond / ceiling) };
    });
  }
}

const rpsAt = (rows: Row[], connections: number) =>
  rows.filter((r) => r.connections === connections).map((r) => r.requestsPerSecond);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round2 = (n: number) => Math.round(n * 100) / 100;
