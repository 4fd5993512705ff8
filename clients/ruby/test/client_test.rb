# frozen_string_literal: true

# What the client sends and what it hands back, through an injected HTTP adapter (a lambda).
require_relative "../lib/contact_verify"
require "minitest/autorun"

class ClientTest < Minitest::Test
  ENTRY = { "requestId" => "0190a7c2-0000-7000-8000-000000000001", "channel" => "WHATSAPP", "status" => "pending",
            "expiresAt" => "2030-01-02T03:04:05.678Z", "to" => "+33******78", "deliveryType" => "CALL",
            "risk" => { "score" => 20, "level" => "low",
                        "signals" => [{ "name" => "number_type", "weight" => 20, "detail" => "a VOIP number" }] } }.freeze

  # A client whose adapter records each request and answers +answers+ in order.
  def client(*answers, **options)
    @seen = []
    http = lambda do |request|
      @seen << request
      status, body = answers.shift
      ContactVerify::HTTP::Response.new(status: status, headers: {}, body: JSON.generate(body))
    end
    ContactVerify::Client.new(base_url: "https://cv.example/", api_key: "cvk_test_k", http: http, **options)
  end

  def test_every_send_option_reaches_the_wire_by_its_name_in_the_document
    cv = client([200, { "data" => ENTRY }])
    entry = cv.send_code(channel: :whatsapp, phone: "+33612345678", country: "FR", delivery_type: :call,
                         purpose: "checkout", custom_message: "Almost done.", locale: "pt-BR",
                         idempotency_key: "order-42")
    request = @seen.fetch(0)
    assert_equal [:post, "https://cv.example/v1/contact/send-code"], [request.verb, request.url]
    assert_equal({ "channel" => "WHATSAPP", "phone" => "+33612345678", "country" => "FR", "deliveryType" => "CALL",
                   "purpose" => "checkout", "customMessage" => "Almost done.", "locale" => "pt-BR" },
                 JSON.parse(request.body))
    assert_equal "order-42", request.headers["Idempotency-Key"]
    assert_equal 10, request.timeout
    assert_equal :call, entry.delivery_type
  end

  def test_a_send_answer_reads_as_ruby_values
    entry = client([200, { "data" => ENTRY }]).send_code(channel: ContactVerify::Channel::WHATSAPP, phone: "+33612345678")
    assert_instance_of Time, entry.expires_at
    assert_equal Time.utc(2030, 1, 2, 3, 4, 5.678r), entry.expires_at
    assert_equal [:whatsapp, :pending], [entry.channel, entry.status]
    assert_predicate entry, :pending?
    refute_predicate entry, :undelivered?
    assert_equal :low, entry.risk.level
    assert_equal "a VOIP number", entry.risk.signals.first.detail
    assert_predicate entry, :frozen?
  end

  def test_a_dual_send_answers_a_list_in_the_order_of_its_channels
    undelivered = { "requestId" => "0190a7c2-0000-7000-8000-000000000002", "channel" => "SMS",
                    "status" => "undelivered", "expiresAt" => "2030-01-01T00:00:00Z", "to" => "+1",
                    "error" => { "code" => "DELIVERY_FAILED", "message" => "provider down" } }
    email = ENTRY.merge("channel" => "EMAIL", "deliveryType" => nil)
    entries = client([200, { "data" => [email, undelivered] }])
              .send_code(channels: %i[email sms], email: "j@x.io", phone: "+14155552671")
    assert_equal({ "channels" => %w[EMAIL SMS], "email" => "j@x.io", "phone" => "+14155552671" },
                 JSON.parse(@seen[0].body))
    assert_equal %i[email sms], entries.map(&:channel)
    assert_predicate entries[1], :undelivered?
    assert_equal "DELIVERY_FAILED", entries[1].error.code
  end

  def test_wrong_arguments_fail_before_any_request
    cv = client
    assert_raises(ArgumentError) { cv.send_code(email: "j@x.io") }
    assert_raises(ArgumentError) { cv.send_code(channel: :email, channels: %i[email sms]) }
    error = assert_raises(ArgumentError) { cv.send_code(channel: :emial, email: "j@x.io") }
    assert_match(/:email, :sms, :whatsapp/, error.message)
    assert_raises(ArgumentError) { cv.send_code(channel: :whatsapp, delivery_type: :fax) }
    assert_empty @seen
  end

  def test_the_wire_spelling_of_a_channel_is_accepted_too
    client([200, { "data" => ENTRY }]).send_code(channel: "SMS", phone: "+14155552671")
    assert_equal "SMS", JSON.parse(@seen[0].body)["channel"]
  end

  def test_a_verify_result_has_predicates_for_its_status
    answer = { "verified" => false, "channel" => "EMAIL", "requestId" => "r", "status" => "failed",
               "attemptsRemaining" => 0 }
    result = client([200, { "data" => answer }]).verify_code(request_id: "r", otp_code: "000000")
    assert_equal({ "requestId" => "r", "otpCode" => "000000" }, JSON.parse(@seen[0].body))
    refute_predicate result, :verified?
    assert_predicate result, :failed?
    refute_predicate result, :pending?
    assert_equal :failed, result.status
    verified = client([200, { "data" => answer.merge("verified" => true, "status" => "verified") }])
               .verify_code(request_id: "r", otp_code: "1")
    assert_predicate verified, :verified?
    assert_equal "verified", verified.status.to_s
  end

  def test_health_reads_nested_values
    body = { "status" => "degraded", "version" => "1.2.3", "uptimeSeconds" => 5,
             "services" => { "database" => "up", "rateLimitStore" => "down" },
             "channels" => { "SMS" => { "operational" => false, "providers" => [{ "name" => "twilio", "state" => "down" }],
                                        "liveCodes" => "refused" } },
             "pumpingBreakers" => [{ "country" => "FR", "count" => 2 }] }
    health = client([200, body]).health
    refute_predicate health, :ok?
    assert_equal :degraded, health.status
    assert_equal({ database: :up, rate_limit_store: :down }, health.services)
    refute_predicate health.channels[:sms], :operational?
    assert_equal :down, health.channels[:sms].providers[0].state
    assert_equal 2, health.pumping_breakers[0].count
    assert_nil health.code_secret_rotation
  end

  def test_health_reads_a_rotation_of_the_code_secret
    body = { "status" => "ok", "version" => "1.2.3", "uptimeSeconds" => 5, "services" => {}, "channels" => {},
             "codeSecretRotation" => { "previousSecrets" => 1, "since" => "2030-01-01T00:00:00.000Z",
                                       "removableAfter" => "2030-01-02T00:00:00.000Z" } }
    rotation = client([200, body]).health.code_secret_rotation
    assert_equal 1, rotation.previous_secrets
    assert_equal Time.utc(2030, 1, 1), rotation.since
    assert_equal Time.utc(2030, 1, 2), rotation.removable_after
  end

  def test_an_adapter_raising_connection_error_is_not_retried
    calls = 0
    http = lambda do |_request|
      calls += 1
      raise ContactVerify::ConnectionError, "down"
    end
    cv = ContactVerify::Client.new(base_url: "http://x", api_key: "k", http: http)
    assert_raises(ContactVerify::ConnectionError) { cv.health }
    assert_equal 1, calls
  end
end
