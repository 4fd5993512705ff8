import { isChannel, isSilentChannel } from '../channels/registry.js';

/**
 * How a verification request was verified, described once: the resource, the events and the
 * OpenAPI document read this list. A new way to prove control of a destination (a magic link, a
 * silent network check) is one entry here, and the statement that consumes the request by that
 * way writes its name on the row (`method`) when it verifies it.
 */
export const VERIFICATION_METHOD_SPECS = {
  code: { description: 'the code the user typed, checked by verify-code' },
  link: { description: "the email's magic link, used by its confirmation page's button (docs/links.md)" },
  silent: {
    description:
      'the mobile network, through the provider of a SILENT request (silent network authentication)',
  },
} as const;

export type VerificationMethod = keyof typeof VERIFICATION_METHOD_SPECS;

/** The methods' names, in the order the API documents them. */
export const VERIFICATION_METHODS = Object.keys(VERIFICATION_METHOD_SPECS) as [
  VerificationMethod,
  ...VerificationMethod[],
];

/** Whether a stored name is a method this version knows (a newer version may have written another). */
export const isVerificationMethod = (name: string): name is VerificationMethod =>
  Object.hasOwn(VERIFICATION_METHOD_SPECS, name);

/**
 * How a request in `status` was verified, from the method stored on its row: none unless it is
 * verified; a row verified before methods were kept (null) was verified by a code, the only way
 * then. A name a newer version wrote is passed on as it is.
 */
export const methodOf = (
  status: string,
  stored: string | null,
  /** A SILENT request is verified by the network only: the code its row keeps stands in for the device's. */
  channel?: string,
): VerificationMethod | null => {
  if (status !== 'verified') return null;
  if (channel !== undefined && isChannel(channel) && isSilentChannel(channel)) return 'silent';
  return (stored ?? 'code') as VerificationMethod;
};
