import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { Channel, DeliveryType } from '../../domain/types.js';
import type { ChannelProvider } from '../interface.js';
import type { StatusUpdate } from './callback.js';
import type { SettingsValues } from './settings.js';
import type { StateSeal } from './state-seal.js';
import type { WhatsAppCallFlow } from './whatsapp/whatsapp.call-flow.js';
import type { WhatsAppCalling } from './whatsapp/whatsapp.calling.js';

/**
 * The WhatsApp calling flow, built once by the composition root (it needs the store and outlives
 * a request): the CALL provider hands it sends, the WhatsApp webhook route hands it events.
 */
export interface WhatsAppCallsRuntime {
  flow: WhatsAppCallFlow;
  calling: WhatsAppCalling;
}

/** What a provider is built with besides its settings. */
export interface ProviderContext {
  /** PUBLIC_BASE_URL: where providers post delivery status (`/v1/callbacks/<name>`). */
  publicBaseUrl: string | null;
  /** SMS_WEBOTP_DOMAIN, for the autofill line of SMS providers. */
  webOtpDomain: string | undefined;
  /** Seals state a provider carries through its API to its webhooks (given when providers are built). */
  seal?: StateSeal;
  /** The WhatsApp calling flow, when this deployment's WhatsApp can call. */
  whatsappCalls?: WhatsAppCallsRuntime | null;
}

/** What a provider's delivery-status callback routes are given. */
export interface CallbackContext<S extends Record<string, TSchema>> {
  config: SettingsValues<S>;
  publicBaseUrl: string | null;
  now(): number;
  /** Records the states a provider reported (looked up again for ids not recorded yet). */
  record(updates: StatusUpdate[]): Promise<void>;
  /** Opens what the provider's messages sealed (ProviderContext.seal). */
  seal: StateSeal;
  /** What the HTTP layer lends the routes: their documentation, answers and refusals. */
  http: CallbackHttp;
  /** The WhatsApp calling flow, when this deployment's WhatsApp can call. */
  whatsappCalls?: WhatsAppCallsRuntime | null;
}

/** What the OpenAPI document says of a callback route. */
export interface CallbackDoc {
  operationId: string;
  summary: string;
  /**
   * What proves the provider sent it, since anyone can reach it (`security: []`): the header or
   * field it checks, over what, with which setting.
   */
  checks: string;
  /** It answers this plain-text echo instead of a receipt. */
  text?: string;
}

/**
 * The HTTP side of a callback route, owned by src/http: a provider states what it refuses and
 * why, and the HTTP layer decides the status and the body.
 */
export interface CallbackHttp {
  /** The route's OpenAPI entry. */
  doc(route: CallbackDoc): RouteShorthandOptions;
  /** Answers that the callback was taken. */
  received(reply: FastifyReply): FastifyReply;
  /** Parses a JSON body, refusing bad JSON and bodies nested too deep. */
  parseJson(body: string): unknown;
  /** The callbacks of `what` are not enabled on this deployment (404). */
  notConfigured(what: string): Error;
  /** The provider's signature (named by its header or field) does not match (401). */
  badSignature(header: string): Error;
  /** A token the provider presents does not match (401). */
  unauthorized(message: string): Error;
  /** The request lacks what the provider always sends (400). */
  invalid(message: string): Error;
  /**
   * What the callback asks of the provider's API failed for now (503): the provider delivers the
   * callback again.
   */
  retryLater(message: string): Error;
}

/**
 * Everything about one provider, in its own folder: its settings (described as data), how it is
 * built from them, the channel it serves and its delivery-status callback routes. The registry
 * (./registry.ts) lists them; settings, factory, SMS routing order and callbacks iterate it.
 */
export interface ProviderModule<S extends Record<string, TSchema> = Record<string, TSchema>> {
  /** Its name in SMS_ROUTES, /health, delivery records and `/v1/callbacks/<name>`. */
  name: string;
  /** Its name as sentences and the docs write it. */
  title: string;
  /** The API it calls, for docs/delivery.md. */
  api: string;
  /** What configures it, in words, when the settings alone do not say (start-up warnings). */
  setup?: string;
  channel: Channel;
  /**
   * For a channel whose provider the operator chooses with `<CHANNEL>_PROVIDER` (SILENT_PROVIDER):
   * the value that chooses this one. Such a provider is built only when chosen.
   */
  choice?: string;
  /** For a channel with delivery types (ChannelSpec.deliveryTypes): the one it serves (TEXT when absent). */
  deliveryType?: DeliveryType;
  settings: S;
  /** True when every setting it needs is present. */
  configured(config: SettingsValues<S>, context: ProviderContext): boolean;
  /**
   * Mistakes in its settings that the schema cannot see (a key that does not parse, a setting
   * that needs another), each naming its variable: the configuration is refused at start.
   */
  problems?(config: SettingsValues<S>, context: ProviderContext): string[];
  /** The provider, or null when it is not configured. */
  create(config: SettingsValues<S>, context: ProviderContext): ChannelProvider | null;
  /** Mounts `/v1/callbacks/<name>` routes (the plugin has raw-body parsers and no API routes). */
  callbackRoutes?(app: FastifyInstance, context: CallbackContext<S>): void;
}

/** Declares a provider module, keeping the type of its settings. */
export const defineProvider = <S extends Record<string, TSchema>>(
  module: ProviderModule<S>,
): ProviderModule<S> => module;
