import type { CanonicalStreamEvent } from '../canonical/index.js';

/**
 * The problems with a canonical event stream, or [] when it is well formed: `start` first,
 * blocks opened, fed and closed in order without interleaving, exactly one `finish` (or an
 * `error`) last.
 */
export function checkStreamEvents(events: readonly CanonicalStreamEvent[]): string[] {
  const problems: string[] = [];
  if (events[0]?.type !== 'start') problems.push(`the first event is '${events[0]?.type ?? 'nothing'}', not 'start'`);
  const last = events.at(-1);
  if (last?.type !== 'finish' && last?.type !== 'error')
    problems.push(`the last event is '${last?.type ?? 'nothing'}', not 'finish' or 'error'`);
  let open: { id: string; kind: string } | undefined;
  const used = new Set<string>();
  events.forEach((event, index) => {
    const at = `event ${index} (${event.type})`;
    if (event.type === 'start') {
      if (index !== 0) problems.push(`${at}: 'start' after the first event`);
      return;
    }
    if ((event.type === 'finish' || event.type === 'error') && index !== events.length - 1) {
      problems.push(`${at}: events follow it`);
    }
    const [kind, phase] = event.type.startsWith('tool-call-')
      ? ['tool-call', event.type.slice('tool-call-'.length)]
      : event.type.split('-');
    if (phase === 'start' && 'id' in event) {
      if (open) problems.push(`${at}: block '${event.id}' starts while '${open.id}' is open`);
      if (used.has(event.id)) problems.push(`${at}: block id '${event.id}' is reused`);
      used.add(event.id);
      open = { id: event.id, kind: kind ?? '' };
    } else if ((phase === 'delta' || phase === 'end') && 'id' in event) {
      if (open?.id !== event.id || open.kind !== kind) problems.push(`${at}: block '${event.id}' is not the open ${kind} block`);
      if (phase === 'end') open = undefined;
    } else if (event.type === 'finish' && open) {
      problems.push(`${at}: block '${open.id}' is still open`);
    }
  });
  return problems;
}
