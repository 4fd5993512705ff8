# frozen_string_literal: true

require "time"

module ContactVerify
  # Builds a frozen Struct from the service's JSON object: each member reads the field of the same
  # name in camelCase (+request_id+ from +requestId+), through the converter declared for it.
  module Model
    def self.camel(name)
      name.to_s.gsub(/_([a-z])/) { Regexp.last_match(1).upcase }
    end

    TIME = ->(text) { Time.iso8601(text) }

    def self.enum(mod)
      ->(text) { mod.from_wire(text) }
    end

    def self.list(model)
      ->(items) { items.map { |item| model.from_json(item) } }
    end

    # The converters of this model's members (a member without one keeps the JSON value).
    def convert(**converters)
      @converters = converters
    end

    def from_json(data)
      return nil if data.nil?

      converters = @converters || {}
      new(**members.to_h do |member|
        value = data[Model.camel(member)]
        convert = converters[member]
        convert = convert.method(:from_json) if convert.respond_to?(:from_json)
        [member, value.nil? || convert.nil? ? value : convert.call(value)]
      end).freeze
    end
  end

  # One problem with one field of the request (Error#details).
  ErrorDetail = Struct.new(:field, :message, :channel, keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel)
  end

  # One signal behind a send's fraud score.
  RiskSignal = Struct.new(:name, :weight, :detail, keyword_init: true) { extend Model }

  # The fraud score of a send (0–100), its band (a RiskLevel) and the signals behind it.
  Risk = Struct.new(:score, :level, :signals, keyword_init: true) do
    extend Model
    convert level: Model.enum(RiskLevel), signals: Model.list(RiskSignal)
  end

  # Why the channel of an undelivered entry of a dual send was not delivered.
  SendCodeEntryError = Struct.new(:code, :message, keyword_init: true) { extend Model }

  # SILENT only: open +url+ from the app on the user's device over mobile data (not Wi-Fi), then call
  # Client#verify_code with the request id alone (or with the code the URL answered, when the
  # provider hands one out).
  SilentStart = Struct.new(:url, keyword_init: true) { extend Model }

  # The code a SILENT request fell back to (send_code's +fallback:+): either request id verifies it.
  SilentFallback = Struct.new(:request_id, :channel, :status, :reason, :expires_at, keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), status: Model.enum(SendCodeEntryStatus), reason: Model.enum(FallbackReason),
            expires_at: Model::TIME
  end

  # SILENT only: what the provider concluded (+outcome+, a SilentOutcome Symbol) and why, in a sentence.
  SilentCheck = Struct.new(:outcome, :reason, keyword_init: true) do
    extend Model
    convert outcome: Model.enum(SilentOutcome)
  end

  # One channel of a send: keep +request_id+ to verify the code. +expires_at+ is a Time, +channel+,
  # +status+ and +delivery_type+ Symbols (+:email+, +:pending+, +:call+). +silent+ (a SilentStart)
  # for SILENT only; +fallback+ (a SilentFallback) when its silent start failed at once.
  SendCodeEntry = Struct.new(:request_id, :channel, :status, :expires_at, :to, :delivery_type, :error, :risk,
                             :silent, :fallback, keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), status: Model.enum(SendCodeEntryStatus), expires_at: Model::TIME,
            delivery_type: Model.enum(DeliveryType), error: SendCodeEntryError, risk: Risk,
            silent: SilentStart, fallback: SilentFallback

    def pending?
      status == SendCodeEntryStatus::PENDING
    end

    def undelivered?
      status == SendCodeEntryStatus::UNDELIVERED
    end
  end

  # The answer to a verify: a wrong code is +verified?+ false with +attempts_remaining+, not an error.
  # For SILENT, +silent+ (a SilentCheck) says what the provider concluded, and +fallback+ (a
  # SilentFallback) is the code a failed check sent.
  VerifyCodeResult = Struct.new(:verified, :channel, :request_id, :status, :attempts_remaining, :silent, :fallback,
                                keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), status: Model.enum(VerificationStatus), silent: SilentCheck,
            fallback: SilentFallback

    # True only on the call that consumed the code.
    def verified?
      verified == true
    end

    VerificationStatus::ALL.reject { |s| s == :verified }.each do |state|
      define_method(:"#{state}?") { status == state }
    end
  end

  # What became of the message (or call) that carries the code: +status+ a DeliveryState Symbol,
  # +provider+ nil before one took it, +updated_at+ a Time.
  VerificationDelivery = Struct.new(:status, :provider, :updated_at, keyword_init: true) do
    extend Model
    convert status: Model.enum(DeliveryState), updated_at: Model::TIME
  end

  # A SILENT request's fallback (send_code's +fallback:+) and what became of it: +state+ a FallbackState
  # Symbol; +reason+ (a FallbackReason Symbol) and +request_id+ (the sibling that carries the code) once it fired.
  VerificationFallback = Struct.new(:channel, :state, :reason, :request_id, keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), state: Model.enum(FallbackState), reason: Model.enum(FallbackReason)
  end

  # A verification request as a resource (Client#get_verification, Client#cancel_verification).
  # +verified_at+ (a Time) and +method+ (a VerificationMethod Symbol) once it is verified,
  # +delivery_type+ for WHATSAPP, +sibling_request_id+ for a dual send; +delivery+ a VerificationDelivery;
  # +fallback+ (a VerificationFallback) for a SILENT send with one.
  # (+method+ is the API's name: Object#method is not available on a Verification.)
  Verification = Struct.new(:request_id, :channel, :status, :to, :created_at, :expires_at, :attempts_remaining,
                            :delivery_type, :verified_at, :method, :sibling_request_id, :delivery, :fallback,
                            keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), status: Model.enum(VerificationStatus), created_at: Model::TIME,
            expires_at: Model::TIME, delivery_type: Model.enum(DeliveryType), verified_at: Model::TIME,
            method: Model.enum(VerificationMethod), delivery: VerificationDelivery, fallback: VerificationFallback

    VerificationStatus::ALL.each do |state|
      define_method(:"#{state}?") { status == state }
    end
  end

  # A provider of a channel (or the carrier lookup provider) and its state (:up, :down, or :unknown
  # before any use); +detail+ what its last check found, where it says more than its state
  # (whatsapp-call's calling setting), else nil.
  ProviderHealth = Struct.new(:name, :state, :detail, keyword_init: true) do
    extend Model
    convert state: ->(text) { text.to_sym }
  end

  # SMS-pumping breakers tripped now for one country.
  PumpingBreakerCount = Struct.new(:country, :count, keyword_init: true) { extend Model }

  # One channel's health: whether live traffic works, its providers, and what becomes of live codes
  # (:delivered, :outbox or :refused).
  ChannelHealth = Struct.new(:operational, :providers, :live_codes, :note, keyword_init: true) do
    extend Model
    convert providers: Model.list(ProviderHealth), live_codes: ->(text) { text.to_sym }

    def operational?
      operational == true
    end
  end

  # The instances serving on the service's database, as the answering one last saw them: with +live+
  # above 1, any +without_redis+ (instances without REDIS_URL) makes the status degraded.
  InstancesHealth = Struct.new(:live, :without_redis, keyword_init: true) { extend Model }

  # A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a secret): +previous_secrets+
  # are still accepted since the answering instance's start (+since+, a Time), and once every instance
  # is past +removable_after+ (a Time), CODE_SECRET_PREVIOUS can be removed (and the service restarted).
  CodeSecretRotation = Struct.new(:previous_secrets, :since, :removable_after, keyword_init: true) do
    extend Model
    convert since: Model::TIME, removable_after: Model::TIME
  end

  # The service's health (GET /health, no key needed). +services+ maps +:database+ and
  # +:rate_limit_store+ to +:up+ or +:down+; +channels+ maps each channel Symbol to its ChannelHealth;
  # +instances+ is nil from a service that does not say; +lookups+ is the carrier lookup provider
  # (LOOKUP_PROVIDER) on the answering instance as a ProviderHealth, nil when none is configured
  # (:down while its circuit is open, which makes the status degraded; :up once it answered;
  # :unknown before); +code_secret_rotation+ is nil unless a rotation of CODE_SECRET is in progress.
  Health = Struct.new(:status, :version, :uptime_seconds, :services, :channels, :lookups, :instances,
                      :pumping_breakers, :code_secret_rotation, keyword_init: true) do
    extend Model
    convert status: Model.enum(HealthStatus),
            services: ->(h) { h.to_h { |k, v| [k.gsub(/([A-Z])/) { "_#{Regexp.last_match(1).downcase}" }.to_sym, v.to_sym] } },
            channels: ->(h) { h.to_h { |k, v| [Channel.from_wire(k), ChannelHealth.from_json(v)] } },
            lookups: ProviderHealth,
            instances: InstancesHealth,
            pumping_breakers: Model.list(PumpingBreakerCount),
            code_secret_rotation: CodeSecretRotation

    def ok?
      status == HealthStatus::OK
    end
  end

  # A message kept by the service's outbox (TestHelper reads them). +code+ is set only for a
  # test-mode request while it is pending.
  # +status+ is the state of its request now (a VerificationStatus Symbol). +group_id+ is shared by
  # both requests of a dual send, and +sibling_request_id+ is the other request of one (nil otherwise).
  # +verified_at+ (a Time) and +method+ (a VerificationMethod Symbol) once its request is verified.
  OutboxMessage = Struct.new(:id, :account_id, :request_id, :group_id, :sibling_request_id, :status, :verified_at,
                             :method, :channel, :to, :subject, :text, :html, :code, :created_at,
                             keyword_init: true) do
    extend Model
    convert channel: Model.enum(Channel), status: Model.enum(VerificationStatus), created_at: Model::TIME,
            verified_at: Model::TIME, method: Model.enum(VerificationMethod)
  end
end
