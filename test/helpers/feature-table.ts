import {
  INBOUNDS,
  INBOUND_SUPPORT,
  type InboundSupport,
  type MatrixFeature,
  type MatrixUpstream,
  type Support,
  type ToolChoiceForm,
} from './matrix/index.js';

/** The README markers the feature table sits between. */
export const FEATURE_TABLE_START = '<!-- feature-matrix:start -->';
export const FEATURE_TABLE_END = '<!-- feature-matrix:end -->';

interface Row {
  feature: MatrixFeature;
  label: string;
  /** What the caller's protocol can say about it; `true` everywhere when omitted. */
  inbound?: (support: (typeof INBOUND_SUPPORT)[keyof typeof INBOUND_SUPPORT]) => InboundSupport;
  /** The upstream's support; `true` when omitted. */
  upstream?: (upstream: MatrixUpstream) => Support | 'n/a';
}

const choice = (form: ToolChoiceForm) => (upstream: MatrixUpstream) => upstream.supports.toolChoice[form];

/** One row per matrix cell family, in the order `runMatrix` runs them. */
const ROWS: readonly Row[] = [
  { feature: 'text', label: 'Text, streamed and not, with usage' },
  { feature: 'multiTurn', label: 'Multi-turn history (in order)' },
  { feature: 'tools', label: 'Tool call round trip' },
  { feature: 'parallelTools', label: 'Parallel tool calls (two calls, two results)' },
  { feature: 'toolChoiceAuto', label: 'Tool choice: auto', upstream: choice('auto') },
  { feature: 'toolChoiceRequired', label: 'Tool choice: required / any', upstream: choice('required') },
  { feature: 'toolChoiceNamed', label: 'Tool choice: a named tool', upstream: choice('named') },
  { feature: 'toolChoiceNone', label: 'Tool choice: none', upstream: choice('none') },
  {
    feature: 'stopSequences',
    label: 'Stop sequences',
    inbound: (support) => support.stopSequences,
    upstream: (upstream) => upstream.supports.stopSequences,
  },
  { feature: 'maxTokens', label: 'Max tokens; a cut-off answer is `length` / `incomplete` / `max_tokens`' },
  { feature: 'jsonSchema', label: 'JSON-schema output', upstream: (upstream) => upstream.supports.jsonSchema },
  {
    feature: 'jsonObject',
    label: 'JSON mode without a schema',
    inbound: (support) => support.jsonObject,
    upstream: (upstream) => upstream.supports.jsonObject,
  },
  { feature: 'reasoning', label: 'Reasoning: asked for, and returned', upstream: (upstream) => upstream.supports.reasoning },
  {
    feature: 'reasoningTokens',
    label: 'Reasoning tokens in usage',
    upstream: (upstream) => (upstream.supports.reasoningTokens ? true : 'n/a'),
  },
  {
    feature: 'reasoningReplay',
    label: 'Reasoning state sent back on the next turn',
    upstream: (upstream) => upstream.supports.reasoningReplay,
  },
  {
    feature: 'images',
    label: 'Images (base64 and URL)',
    upstream: (upstream) => (upstream.refusesImageUrls ? { refused: 'image URLs (base64 only)' } : true),
  },
];

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

/** The "clients" cell: every inbound protocol, with what those that cannot say the feature get instead. */
function clientsCell(row: Row): string {
  if (row.feature === 'reasoningReplay') {
    return INBOUNDS.map((inbound) => `${INBOUND_SUPPORT[inbound].label} (${INBOUND_SUPPORT[inbound].signatureCarrier})`).join(', ');
  }
  const refused = INBOUNDS.filter((inbound) => row.inbound !== undefined && row.inbound(INBOUND_SUPPORT[inbound]) !== true);
  if (refused.length === 0) return 'all';
  const able = INBOUNDS.filter((inbound) => !refused.includes(inbound)).map((inbound) => INBOUND_SUPPORT[inbound].label);
  const notes = refused.map((inbound) => {
    const support = row.inbound!(INBOUND_SUPPORT[inbound]) as Exclude<InboundSupport, true>;
    const passthrough = support.sameProtocolPassthrough ? `; a ${INBOUND_SUPPORT[inbound].label} upstream gets it as sent` : '';
    return `${INBOUND_SUPPORT[inbound].label}: 400, ${support.note}${passthrough}`;
  });
  return `${able.join(', ')} (${notes.join('; ')})`;
}

function upstreamCell(row: Row, upstream: MatrixUpstream): string {
  const support = row.upstream?.(upstream) ?? true;
  if (support === 'n/a') return '—';
  if (support !== true) return `400: ${support.refused}`;
  const note = upstream.notes?.[row.feature];
  return note === undefined ? '✓' : `✓ ${note}`;
}

/**
 * The README's "Providers and features" table, from the matrix definitions themselves: one row
 * per feature the e2e matrix proves, one column per upstream. ✓ = every client's cell passes
 * (with a note on the upstream's own field where useful); `400: …` = the gateway refuses it
 * with a 400 naming it (and the matrix asserts that); — = the upstream has no such thing.
 */
export function renderFeatureTable(upstreams: readonly MatrixUpstream[]): string {
  const header = ['Feature', 'Clients', ...upstreams.map((upstream) => upstream.label)];
  const lines = [
    `| ${header.map(escapeCell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...ROWS.map(
      (row) =>
        `| ${[row.label, clientsCell(row), ...upstreams.map((upstream) => upstreamCell(row, upstream))].map(escapeCell).join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}

/** The text between the README markers (trimmed), or undefined when a marker is missing. */
export function readFeatureTable(readme: string): string | undefined {
  const start = readme.indexOf(FEATURE_TABLE_START);
  const end = readme.indexOf(FEATURE_TABLE_END);
  if (start === -1 || end === -1 || end < start) return undefined;
  return readme.slice(start + FEATURE_TABLE_START.length, end).trim();
}
