import {
  DEFAULT_BRANDING,
  type DeploymentSettings,
  deploymentDefaults,
  type EffectiveSettings,
} from '../../src/domain/settings.js';

/** The contract's defaults, as a deployment that sets nothing but its limits has them. */
export const DEPLOYMENT_LIMITS: DeploymentSettings = {
  codeLength: 6,
  codeTtlSeconds: 600,
  maxAttempts: 5,
  resendCooldownSeconds: 30,
  sendsPerDestinationPerHour: 5,
  failuresPerDestinationPerDay: 20,
  keySendPerSecond: 100,
  keyVerifyPerSecond: 500,
  countrySendsPerHour: 1000,
  allowedCountries: '*',
};

/** Effective settings of those defaults with `changes`, and the default branding. */
export const settingsWith = (changes: Partial<DeploymentSettings> = {}): EffectiveSettings =>
  deploymentDefaults({ ...DEPLOYMENT_LIMITS, ...changes }, DEFAULT_BRANDING);
