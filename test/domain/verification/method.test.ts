import { describe, expect, it } from 'vitest';
import { ATTEMPT_RULE } from '../../../src/domain/attempt-rule.js';
import {
  isVerificationMethod,
  VERIFICATION_METHOD_SPECS,
  VERIFICATION_METHODS,
} from '../../../src/domain/verification/method.js';

describe('verification methods', () => {
  it('are listed once, each with a description for the documents', () => {
    expect(VERIFICATION_METHODS).toContain('code');
    for (const m of VERIFICATION_METHODS) expect(VERIFICATION_METHOD_SPECS[m].description).not.toBe('');
  });

  it('tell a known stored name from another', () => {
    expect(isVerificationMethod('code')).toBe(true);
    expect(isVerificationMethod('toString')).toBe(false);
    expect(isVerificationMethod('carrier-pigeon')).toBe(false);
  });

  it('name the one the attempt rule writes on the request a code verified', () => {
    expect(JSON.stringify(ATTEMPT_RULE.set.method)).toContain('"literal":"code"');
  });
});
