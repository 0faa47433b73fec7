import type { LoadResult } from './autocannon-run.ts';

/** A report is a list of blocks, printed as plain text on the console and written as markdown. */
export type Block =
  | { heading: string }
  | { lines: string[] }
  | { table: { headers: string[]; rows: string[][]; alignLeft?: number } };

export function renderText(blocks: Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    if ('heading' in block) out.push('', block.heading, '='.repeat(block.heading.length));
    else if ('lines' in block) out.push(...block.lines.map((l) => l.replace(/`/g, '')));
    else {
      const { headers, rows, alignLeft = 1 } = block.table;
      const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
      const line = (cells: string[]) =>
        cells
          .map((c, i) => (i < alignLeft ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
          .join('  ')
          .trimEnd();
      out.push(line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line));
    }
    out.push('');
  }
  return out.join('\n');
}

export function renderMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  for (const block of blocks) {
    if ('heading' in block) out.push(`### ${block.heading}`);
    else if ('lines' in block) out.push(...block.lines);
    else {
      const { headers, rows, alignLeft = 1 } = block.table;
      const cell = (c: string) => c.replace(/\|/g, '\\|');
      out.push(`| ${headers.map(cell).join(' | ')} |`);
      out.push(`|${headers.map((_, i) => (i < alignLeft ? ' --- ' : ' ---: ')).join('|')}|`);
      for (const row of rows) out.push(`| ${row.map(cell).join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

export const RESULT_HEADERS = ['Scenario', 'conc.', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'];

/** rps, p50, p95, p99 and errors (with the status codes that were not 2xx) of one run. */
export function resultCells(r: LoadResult): string[] {
  return [rate(r.rps), ms(r.p50), ms(r.p95), ms(r.p99), errorsCell(r)];
}

export function errorsCell(r: Pick<LoadResult, 'errors' | 'statusCounts'>): string {
  if (r.errors === 0) return '0';
  const codes = Object.entries(r.statusCounts)
    .filter(([code]) => !/^2\d\d$/.test(code))
    .map(([code, n]) => `${code}×${n}`)
    .join(', ');
  return `${r.errors} (${codes})`;
}

export function rate(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}

export function ms(n: number): string {
  return Number.isFinite(n) ? n.toFixed(1) : '–';
}

export function percent(n: number | null): string {
  return n === null || !Number.isFinite(n) ? '' : `${n.toFixed(n < 10 ? 1 : 0)} %`;
}

export function ratio(ours: number, peer: number | null): string {
  if (peer === null) return '';
  if (!(peer > 0) || !Number.isFinite(ours)) return '–';
  return `${(ours / peer).toFixed(2)}×`;
}
