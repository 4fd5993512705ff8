import {
  type EffectiveSettings,
  effectiveSettings,
  type SettingsInForce,
  settingsInForce,
} from '../settings.js';
import type { AccountSettings, AuthenticatedKey } from '../types.js';

/** The settings requests run under: the deployment's defaults with an account's overrides. */
export class RequestSettings {
  /** Merged once per key record: the key cache hands out the same record for a few seconds. */
  private readonly perKey = new WeakMap<AuthenticatedKey, EffectiveSettings>();

  constructor(
    private readonly defaults: EffectiveSettings,
    /** The settings of `defaults` the deployment set; the others are built-in defaults. */
    private readonly defaultsGiven: ReadonlySet<string> = new Set(),
  ) {}

  /** An account's settings over the deployment defaults (what its sends use; the branding preview). */
  of(accountSettings: AccountSettings): EffectiveSettings {
    return effectiveSettings(this.defaults, accountSettings);
  }

  /** Each setting an account may override: the value its requests use and where it comes from. */
  inForce(accountSettings: AccountSettings): SettingsInForce {
    return settingsInForce(this.defaults, this.defaultsGiven, accountSettings);
  }

  /** Settings for requests made with `key`. */
  forKey(key: AuthenticatedKey): EffectiveSettings {
    let s = this.perKey.get(key);
    if (!s) {
      s = effectiveSettings(this.defaults, key.accountSettings);
      this.perKey.set(key, s);
    }
    return s;
  }
}
