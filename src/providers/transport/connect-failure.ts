/** A network error's code, on the error or the cause undici wrapped it around. */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Why an answer broke off after it began, with the system's code: the connection was up, so none
 * of the reasons of `describeConnectFailure` (refused, name, TLS) applies.
 */
export function describeBrokenAnswer(error: unknown): string {
  const code = codeOf(error);
  return code === undefined ? 'the connection was lost' : `the connection was lost [${code}]`;
}

/**
 * Why a connection to a provider failed, in words an operator can act on (refused, name not
 * found, TLS, timeout), with the system's code. The address itself is left out: callers see this.
 */
export function describeConnectFailure(error: unknown): string {
  const code = codeOf(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (nothing listens at its address) [ECONNREFUSED]';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `its host name did not resolve [${code}]`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return `the connection was closed before an answer came [${code}]`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connecting timed out [${code}]`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `its network is unreachable [${code}]`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `the TLS handshake failed (is the base URL's http/https right?) [${code}]`;
    case undefined:
      return 'the connection failed';
    default:
      if (/CERT|SSL|TLS|SIGNATURE/.test(code)) return `its TLS certificate was not accepted [${code}]`;
      return `the connection failed [${code}]`;
  }
}
