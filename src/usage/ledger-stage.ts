import type { Usage } from '../canonical/index.js';
import { cutStreamUsage, reportedCutUsage, type InterruptedStreamPolicy } from './cut-stream-usage.js';
import { failedAttemptRowOf, ledgerRowOf, type RowCost } from './ledger-row.js';
import type { LedgerWriter } from './ledger-writer.js';
import { answeredAt, type Recorder, type RequestRecord } from './record-stage.js';

/** Prices a row's usage; undefined when a price is unknown (the row stays unpriced). */
export type PriceUsage = (record: RequestRecord, usage: Usage) => RowCost | undefined;

export interface LedgerStageOptions {
  writer: LedgerWriter;
  interruptedStreams?: InterruptedStreamPolicy;
  price?: PriceUsage;
  onError?: (error: unknown) => void;
}

/** The "record" stage that keeps the usage ledger; `settled` waits for rows still being built. */
export interface LedgerStage extends Recorder {
  settled(): Promise<void>;
}

/**
 * Writes one ledger row per upstream attempt of each request; a request refused before any
 * provider was called gets none, except a 429 (row attempt 0, nothing billed). A stream cut short
 * is billed by the cut-stream policy (the `interruptedStreams` option); its row is built asynchronously (counting its input
 * may load the tokenizer), every other row at once.
 */
export function createLedgerStage(options: LedgerStageOptions): LedgerStage {
  const { writer, price } = options;
  const policy = options.interruptedStreams ?? 'estimate';
  const onError = options.onError ?? (() => undefined);
  const building = new Set<Promise<void>>();

  const write = (record: RequestRecord, usage: Usage | undefined, estimated: boolean) => {
    const cost = usage === undefined ? undefined : price?.(record, usage);
    writer.enqueue(ledgerRowOf(record, record.attempts, usage, estimated, cost), answeredAt(record));
  };

  return {
    record(entry) {
      if (entry.answeredBy !== undefined) {
        // Answered by a stage (a cache hit): no provider was called, so no upstream usage and nothing to pay.
        writer.enqueue(
          { ...ledgerRowOf(entry, 0, undefined, false, undefined), cost_nano_usd: 0, usage_source: 'stage' },
          answeredAt(entry),
        );
        return;
      }
      if (entry.attempts === 0) {
        // Refused before any provider was called: only a 429 (a limit or budget) is kept, as attempt 0
        // with no usage, so usage and the status page count the refusals a key met.
        if (entry.status === 429 && entry.model !== undefined)
          writer.enqueue(ledgerRowOf(entry, 0, undefined, false, undefined), answeredAt(entry));
        return;
      }
      const log = entry.attemptLog;
      let record = entry;
      if (log !== undefined && log.length > 0) {
        // A row for each attempt that failed before the last; the last is the record's own row.
        for (let index = 0; index < log.length - 1; index++)
          writer.enqueue(failedAttemptRowOf(entry, index + 1, log[index]!), answeredAt(entry));
        const served = log[log.length - 1]!;
        // Priced and counted as the model that answered (a fallback's, when one did).
        if (served.model !== entry.model) record = { ...entry, model: served.model };
      }
      const { cut } = record;
      if (cut === undefined) {
        write(record, record.usage, false);
        return;
      }
      const pending = cutStreamUsage(cut, policy)
        .then(({ usage, estimated }) => write(record, usage, estimated))
        .catch((error: unknown) => {
          onError(error);
          write(record, reportedCutUsage(cut), false);
        })
        .finally(() => building.delete(pending));
      building.add(pending);
    },
    async settled() {
      await Promise.all(building);
    },
  };
}
