/** A table printed to the terminal and written as markdown; the first column is left-aligned, the rest right. */
export interface ReportTable {
  title: string;
  head: string[];
  rows: string[][];
  notes?: string[];
}

export const kib = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KiB` : '–');
export const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '–');

export function tableAsText(table: ReportTable): string {
  const widths = table.head.map((h, i) => Math.max(h.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    table.title,
    line(table.head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.rows.map(line),
    ...(table.notes ?? []).map((n) => `  * ${n}`),
  ].join('\n');
}

export function tableAsMarkdown(table: ReportTable): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  const line = (cells: string[]) => `| ${cells.map(escape).join(' | ')} |`;
  return [
    `## ${table.title}`,
    '',
    line(table.head),
    line(table.head.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...table.rows.map(line),
    ...(table.notes?.length ? ['', ...table.notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
}
