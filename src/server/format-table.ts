/** Rows under their headings, each column as wide as its widest cell, two spaces apart. */
export function formatTable(headings: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headings.map((heading, column) => Math.max(heading.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[headings, ...rows].map(line).join('\n')}\n`;
}
