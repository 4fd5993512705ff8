import type { ErrorDetail } from './errors.js';

/** The code of a verify-code body: `otpCode`, or its alias `code`; both given must agree. */
export function verifyCodeProblems(
  body: { otpCode?: unknown; code?: unknown },
  refused: ReadonlySet<string>,
): ErrorDetail[] {
  if (refused.has('otpCode') || refused.has('code')) return [];
  const { otpCode, code } = body;
  // No code at all is for a SILENT request, whose provider is asked: the domain decides.
  if (otpCode !== undefined && code !== undefined && otpCode !== code) {
    return [{ field: 'code', message: 'otpCode and code were both given with different values' }];
  }
  return [];
}
