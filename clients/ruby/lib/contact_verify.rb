# frozen_string_literal: true

require "json"
require "net/http"
require "securerandom"
require "uri"

# Client of the contact verification service: send and verify one-time codes.
module ContactVerify
  VERSION = "0.1.0"

  # Every failed call: the service's error body, with the HTTP status and Retry-After.
  # +code+ is the contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED, ...),
  # or NETWORK_ERROR with +status+ 0 when no answer came.
  class Error < StandardError
    attr_reader :status, :code, :details, :retry_after

    def initialize(status, code, message, details = [], retry_after = nil)
      super("#{status} #{code}: #{message}")
      @status = status
      @code = code
      @details = details
      @retry_after = retry_after
    end
  end

  # One channel of a send: keep +request_id+ to verify the code.
  SendEntry = Struct.new(:request_id, :channel, :status, :expires_at, :to, :delivery_type, :error, :risk,
                         keyword_init: true) do
    def self.from_json(d)
      new(request_id: d["requestId"], channel: d["channel"], status: d["status"], expires_at: d["expiresAt"],
          to: d["to"], delivery_type: d["deliveryType"], error: d["error"], risk: d["risk"])
    end
  end

  # A wrong code is +verified+ false, not an error.
  VerifyResult = Struct.new(:verified, :channel, :request_id, :status, :attempts_remaining, keyword_init: true) do
    def self.from_json(d)
      new(verified: d["verified"], channel: d["channel"], request_id: d["requestId"], status: d["status"],
          attempts_remaining: d["attemptsRemaining"])
    end
  end

  # Retries 503 and 429 RATE_LIMITED answers with Retry-After, at most +max_retries+ times; never
  # TOO_MANY_ATTEMPTS or another 4xx. Each send carries an Idempotency-Key kept across its retries.
  class Client
    def initialize(base_url:, api_key:, timeout: 10, max_retries: 2, max_retry_after: 10)
      @base = URI(base_url.sub(%r{/+\z}, ""))
      @api_key = api_key
      @timeout = timeout
      @max_retries = max_retries
      @max_retry_after = max_retry_after
    end

    # Sends a code on +channel+ (a SendEntry back) or on two +channels+ (an Array, in order).
    def send_code(channel: nil, channels: nil, email: nil, phone: nil, country: nil, delivery_type: nil,
                  purpose: nil, custom_message: nil, locale: nil, idempotency_key: nil, max_retries: nil)
      body = { channel: channel, channels: channels, email: email, phone: phone, country: country,
               deliveryType: delivery_type, purpose: purpose, customMessage: custom_message,
               locale: locale }.compact
      data = call(:post, "/v1/contact/send-code", body, max_retries,
                  "Idempotency-Key" => idempotency_key || SecureRandom.uuid)["data"]
      data.is_a?(Array) ? data.map { |d| SendEntry.from_json(d) } : SendEntry.from_json(data)
    end

    def verify_code(request_id:, otp_code:, max_retries: nil)
      VerifyResult.from_json(call(:post, "/v1/contact/verify-code",
                                  { requestId: request_id, otpCode: otp_code }, max_retries)["data"])
    end

    # The service's health (no key needed), as a Hash.
    def health(max_retries: nil)
      call(:get, "/health", nil, max_retries)
    end

    private

    def call(method, path, body, max_retries, headers = {})
      limit = max_retries || @max_retries
      attempt = 0
      begin
        once(method, path, body, headers)
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
      elsif error.status == 429 && error.code == "RATE_LIMITED" && error.retry_after
        error.retry_after <= @max_retry_after ? error.retry_after : nil
      end
    end

    def once(method, path, body, headers)
      uri = URI("#{@base}#{path}")
      request = (method == :post ? Net::HTTP::Post : Net::HTTP::Get).new(uri)
      request["Accept"] = "application/json"
      request["Authorization"] = "Bearer #{@api_key}"
      request["User-Agent"] = "contact-verify-ruby/#{VERSION}"
      if body
        request["Content-Type"] = "application/json"
        request.body = JSON.generate(body)
      end
      headers.each { |k, v| request[k] = v }
      response = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https",
                                                     open_timeout: @timeout, read_timeout: @timeout) do |http|
        http.request(request)
      end
      parsed = begin
        JSON.parse(response.body.to_s)
      rescue JSON::ParserError
        nil
      end
      return parsed if response.code.to_i < 300

      error = parsed.is_a?(Hash) ? parsed["error"] || {} : {}
      status = response.code.to_i
      retry_after = response["Retry-After"]&.match?(/\A\d+\z/) ? response["Retry-After"].to_i : nil
      raise Error.new(status, error["code"] || (status == 503 ? "UNAVAILABLE" : "INTERNAL"),
                      error["message"] || "HTTP #{status}", error["details"] || [], retry_after)
    rescue SystemCallError, IOError, Timeout::Error, SocketError => e
      raise Error.new(0, "NETWORK_ERROR", "No answer from #{@base}: #{e.message}")
    end
  end
end
