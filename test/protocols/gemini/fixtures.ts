import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = join(import.meta.dirname, '../../fixtures/gemini');

/** A JSON fixture of `test/fixtures/gemini/`. */
export function geminiFixture(name: string): unknown {
  return JSON.parse(readFileSync(join(folder, name), 'utf8'));
}

/** The chunk objects of a `.chunks.txt` fixture (one GenerateContentResponse JSON per line). */
export function geminiChunks(name: string): string[] {
  return readFileSync(join(folder, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The chunks framed as Google sends them: `data: <json>` and a `\r\n\r\n` blank line, no end marker. */
export function geminiSse(name: string): string {
  return geminiChunks(name)
    .map((line) => `data: ${line}\r\n\r\n`)
    .join('');
}
