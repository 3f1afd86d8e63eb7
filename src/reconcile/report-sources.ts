import { configError } from '../canonical/index.js';
import type { ReportProvider, ReportSource } from './provider-report.js';

/** The fields a configured provider may carry for reconciliation; the provider itself never sees them. */
export const REPORT_FIELDS = ['adminKey', 'adminBaseURL', 'apiKeyId'] as const;

/** Where each provider's admin API is when the config does not say. */
const OFFICIAL_BASE_URL: Record<ReportProvider, string> = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' };

/** The usage report a configured provider's traffic shows up in: OpenAI's for `openai` (not Azure) and `openai-responses`, Anthropic's for `anthropic`. */
export function reportProviderOf(name: string, config: Readonly<Record<string, unknown>>): ReportProvider | undefined {
  const type = typeof config.type === 'string' ? config.type : name;
  if ((type === 'openai' && config.azure === undefined) || type === 'openai-responses') return 'openai';
  if (type === 'anthropic') return 'anthropic';
  return undefined;
}

/** A provider's configuration without the reconciliation fields: what the provider itself is created from. */
export function withoutReportFields<T extends Record<string, unknown>>(config: T): T {
  const copy: Record<string, unknown> = { ...config };
  for (const field of REPORT_FIELDS) delete copy[field];
  return copy as T;
}

/**
 * The usage reports the configured providers' traffic can be checked against: one per provider
 * family with an `adminKey` (`providers.<name>.adminKey`), read at `adminBaseURL` (default: the
 * provider's own API; never the provider's `baseURL`, which may be a proxy that should not see an
 * admin key), covering every configured provider of that family, with their `apiKeyId`s.
 */
export function reportSourcesOf(providers: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined): ReportSource[] {
  for (const [name, config] of Object.entries(providers ?? {})) {
    const field = REPORT_FIELDS.find((candidate) => config[candidate] !== undefined);
    if (field !== undefined && reportProviderOf(name, config) === undefined) {
      throw configError(
        'CONFIG_FILE_INVALID',
        `providers.${name}.${field}: only OpenAI's (types openai without azure, openai-responses) and Anthropic's (type anthropic) usage reports can be reconciled.`,
      );
    }
  }
  const sources: ReportSource[] = [];
  for (const family of ['openai', 'anthropic'] as const) {
    const members = Object.entries(providers ?? {}).filter(([name, config]) => reportProviderOf(name, config) === family);
    const withKey = members.filter(([, config]) => typeof config.adminKey === 'string' && config.adminKey !== '');
    const [first] = withKey;
    if (first === undefined) continue;
    const [firstName, firstConfig] = first;
    for (const [name, config] of withKey) {
      if (config.adminKey !== firstConfig.adminKey || config.adminBaseURL !== firstConfig.adminBaseURL) {
        throw configError(
          'CONFIG_FILE_INVALID',
          `providers.${name}.adminKey differs from providers.${firstName}.adminKey: reconciliation reads one ${family} organisation's report; give the admin key on one provider of that family.`,
        );
      }
    }
    sources.push({
      provider: family,
      adminKey: firstConfig.adminKey as string,
      baseURL: typeof firstConfig.adminBaseURL === 'string' ? firstConfig.adminBaseURL : OFFICIAL_BASE_URL[family],
      gatewayProviders: members.map(([name, config]) =>
        typeof config.apiKeyId === 'string' ? { name, apiKeyId: config.apiKeyId } : { name },
      ),
    });
  }
  return sources;
}
