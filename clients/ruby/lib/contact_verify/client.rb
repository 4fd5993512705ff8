# frozen_string_literal: true

require "securerandom"

module ContactVerify
  # Sends and verifies one-time codes.
  #
  #   cv = ContactVerify::Client.new(base_url: ENV.fetch("CV_BASE_URL"), api_key: ENV.fetch("CV_API_KEY"))
  #   sent = cv.send_code(channel: :email, email: "jane@example.com")
  #   cv.verify_code(request_id: sent.request_id, otp_code: "042817").verified?
  #
  # Retries 503 and 429 RATE_LIMITED answers with a Retry-After of at most +max_retry_after+ seconds,
  # at most +max_retries+ times; never TOO_MANY_ATTEMPTS, another 4xx or a ConnectionError. Each
  # send carries an Idempotency-Key kept across its retries, so a retry never sends a second code.
  class Client
    # +http+: an adapter (see HTTP), NetHTTP by default; +timeout+ in seconds, per attempt.
    def initialize(base_url:, api_key:, timeout: 10, max_retries: 2, max_retry_after: 10, http: nil)
      @connection = Connection.new(base_url: base_url, token: api_key, timeout: timeout, http: http)
      @max_retries = max_retries
      @max_retry_after = max_retry_after
    end

    # Sends a code on +channel+ (a SendCodeEntry back) or on two +channels+ at once (an Array of
    # two entries, in that order). Channels and +delivery_type+ are Symbols (:email, :sms,
    # :whatsapp; :text, :call); +locale+ is the recipient's BCP 47 tag ("pt-BR"); +country+ an ISO
    # 3166-1 alpha-2 code, inferred from +phone+ when omitted. +idempotency_key+: your own key for
    # this send (a random one otherwise); a send repeated with it is answered as the first was.
    # +link+ (EMAIL only; the service needs PUBLIC_BASE_URL): +true+ adds a magic link beside the
    # code that ends on the service's own "verified" page, +{ redirect_url: "https://app.example.com/welcome" }+
    # one that sends the browser to your page (an origin of the account's linkRedirectOrigins).
    # +fallback+ (SILENT only: :sms, :whatsapp or :voice) sends a code when the silent check fails.
    def send_code(channel: nil, channels: nil, email: nil, phone: nil, country: nil, delivery_type: nil,
                  purpose: nil, custom_message: nil, locale: nil, link: nil, fallback: nil, idempotency_key: nil,
                  max_retries: nil)
      raise ArgumentError, "pass channel: or channels:, not both" if channel && channels
      raise ArgumentError, "pass channel: (one) or channels: (two)" unless channel || channels

      body = { channel: channel && Channel.to_wire(channel), channels: channels&.map { |c| Channel.to_wire(c) },
               email: email, phone: phone, country: country,
               deliveryType: delivery_type && DeliveryType.to_wire(delivery_type), purpose: purpose,
               customMessage: custom_message, locale: locale, link: link_body(link),
               fallback: fallback && Channel.to_wire(fallback) }.compact
      key = idempotency_key || SecureRandom.uuid
      data = with_retries(max_retries) do
        @connection.request(:post, "/v1/contact/send-code", body: body, headers: { "Idempotency-Key" => key })
      end["data"]
      data.is_a?(Array) ? data.map { |d| SendCodeEntry.from_json(d) } : SendCodeEntry.from_json(data)
    end

    # Checks +otp_code+ against the request; a wrong code is a VerifyCodeResult with +verified?+ false.
    # A SILENT request is checked without +otp_code+ (the service asks the provider; +silent.outcome+
    # says what it concluded, +:pending+: ask again), or with the code its provider's URL handed the
    # device (letters too: sent as +code+).
    def verify_code(request_id:, otp_code: nil, max_retries: nil)
      body = { requestId: request_id }
      body[otp_code.to_s.match?(/\A\d+\z/) ? :otpCode : :code] = otp_code unless otp_code.nil?
      VerifyCodeResult.from_json(with_retries(max_retries) do
        @connection.request(:post, "/v1/contact/verify-code", body: body)
      end["data"])
    end

    # The request as it is now (a Verification): its status, how it was verified, what became of its
    # message. An unknown id, or another account's, is a NotFoundError.
    def get_verification(request_id, max_retries: nil)
      Verification.from_json(with_retries(max_retries) do
        @connection.request(:get, verification_path(request_id))
      end["data"])
    end

    # Cancels a pending request and its dual sibling; answers the Verification. A settled request is
    # answered as it is, unchanged, so a repeated cancel is harmless.
    def cancel_verification(request_id, max_retries: nil)
      Verification.from_json(with_retries(max_retries) do
        # An empty JSON object: Net::HTTP would label a POST without a body as a form, which the service refuses.
        @connection.request(:post, "#{verification_path(request_id)}/cancel", body: {})
      end["data"])
    end

    # The service's Health (no key needed).
    def health(max_retries: nil)
      Health.from_json(with_retries(max_retries) { @connection.request(:get, "/health") })
    end

    private

    def verification_path(request_id)
      raise ArgumentError, "request_id is required" if request_id.to_s.empty?

      "/v1/contact/verifications/#{URI.encode_www_form_component(request_id.to_s).gsub('+', '%20')}"
    end

    def link_body(link)
      case link
      when nil, false then nil
      when true then {}
      when Hash
        url = link.fetch(:redirect_url) { link["redirectUrl"] || link[:redirectUrl] || link["redirect_url"] }
        url.nil? ? {} : { redirectUrl: url }
      else raise ArgumentError, "link: true, or { redirect_url: \"https://...\" }"
      end
    end

    def with_retries(max_retries)
      limit = max_retries || @max_retries
      attempt = 0
      begin
        yield
      rescue Error => e
        wait = retry_delay(e, attempt)
        raise if attempt >= limit || wait.nil?

        sleep(wait)
        attempt += 1
        retry
      end
    end

    def retry_delay(error, attempt)
      if error.status == 503
        error.retry_after ? [error.retry_after, @max_retry_after].min : 0.25 * (2**attempt)
      elsif error.is_a?(RateLimitError) && error.retry_after
        error.retry_after <= @max_retry_after ? error.retry_after : nil
      end
    end
  end
end
