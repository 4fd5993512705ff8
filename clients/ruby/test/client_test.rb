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
    assert_match(/:email, :sms, :whatsapp, :voice, :silent/, error.message)
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

  VERIFICATION = { "requestId" => "0190a7c2-0000-7000-8000-000000000001", "channel" => "EMAIL", "status" => "verified",
                   "to" => "j***@example.com", "createdAt" => "2030-01-01T00:00:00.000Z",
                   "expiresAt" => "2030-01-01T00:10:00.000Z", "attemptsRemaining" => 4,
                   "verifiedAt" => "2030-01-01T00:01:12.000Z", "method" => "link",
                   "siblingRequestId" => "0190a7c2-0000-7000-8000-000000000002",
                   "delivery" => { "status" => "delivered", "provider" => "smtp",
                                   "updatedAt" => "2030-01-01T00:00:02.000Z" } }.freeze

  def test_get_verification_reads_every_field_of_the_resource
    v = client([200, { "data" => VERIFICATION }]).get_verification("0190a7c2-0000-7000-8000-000000000001")
    request = @seen.fetch(0)
    assert_equal [:get, "https://cv.example/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001"],
                 [request.verb, request.url]
    assert_nil request.body
    assert_equal "Bearer cvk_test_k", request.headers["Authorization"]
    assert_equal [:email, :verified, "j***@example.com", 4], [v.channel, v.status, v.to, v.attempts_remaining]
    assert_predicate v, :verified?
    refute_predicate v, :pending?
    assert_equal Time.utc(2030, 1, 1), v.created_at
    assert_equal Time.utc(2030, 1, 1, 0, 10), v.expires_at
    assert_equal Time.utc(2030, 1, 1, 0, 1, 12), v.verified_at
    assert_equal :link, v.method
    assert_nil v.delivery_type
    assert_equal "0190a7c2-0000-7000-8000-000000000002", v.sibling_request_id
    assert_equal [:delivered, "smtp", Time.utc(2030, 1, 1, 0, 0, 2)],
                 [v.delivery.status, v.delivery.provider, v.delivery.updated_at]
    assert_predicate v, :frozen?
    assert_nil v.fallback
  end

  def test_a_silent_requests_fallback_on_the_resource
    answer = VERIFICATION.merge("channel" => "SILENT",
                                "fallback" => { "channel" => "SMS", "state" => "fired", "reason" => "timeout", "requestId" => "f" })
    fallback = client([200, { "data" => answer }]).get_verification("s").fallback
    assert_equal [:sms, :fired, :timeout, "f"], [fallback.channel, fallback.state, fallback.reason, fallback.request_id]
  end

  def test_a_method_or_delivery_state_newer_than_the_library_reads_as_its_symbol
    answer = VERIFICATION.merge("method" => "passkey", "delivery" => { "status" => "read", "updatedAt" => "2030-01-01T00:00:02Z" })
    v = client([200, { "data" => answer }]).get_verification("r")
    assert_equal [:passkey, :read], [v.method, v.delivery.status]
    assert_nil v.delivery.provider
  end

  def test_cancel_verification_posts_to_its_cancel_path
    canceled = VERIFICATION.merge("status" => "canceled", "delivery" => { "status" => "queued", "updatedAt" => "2030-01-01T00:00:00Z" })
    canceled = canceled.reject { |k, _| %w[verifiedAt method].include?(k) }
    v = client([200, { "data" => canceled }]).cancel_verification("0190a7c2-0000-7000-8000-000000000001")
    assert_equal [:post, "https://cv.example/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001/cancel"],
                 [@seen[0].verb, @seen[0].url]
    assert_equal ["{}", "application/json"], [@seen[0].body, @seen[0].headers["Content-Type"]]
    assert_predicate v, :canceled?
    assert_nil v.method
    assert_nil v.verified_at
    assert_equal :queued, v.delivery.status
  end

  def test_an_id_is_one_path_segment_and_an_unknown_one_is_a_typed_not_found
    cv = client([404, { "error" => { "code" => "NOT_FOUND", "message" => "no such request" } }])
    error = assert_raises(ContactVerify::NotFoundError) { cv.get_verification("../admin/outbox?x=1 2") }
    assert_equal "https://cv.example/v1/contact/verifications/..%2Fadmin%2Foutbox%3Fx%3D1%202", @seen[0].url
    assert_equal [404, "NOT_FOUND"], [error.status, error.code]
    assert_equal 1, @seen.size, "a 404 is not retried"
    assert_raises(ArgumentError) { cv.cancel_verification("") }
  end

  def test_the_link_option_with_and_without_a_redirect
    cv = client([200, { "data" => ENTRY }], [200, { "data" => ENTRY }], [200, { "data" => [ENTRY, ENTRY] }])
    cv.send_code(channel: :email, email: "j@x.io", link: true)
    cv.send_code(channel: :email, email: "j@x.io", link: { redirect_url: "https://app.example.com/welcome" })
    cv.send_code(channels: %i[email sms], email: "j@x.io", phone: "+14155552671", link: {})
    assert_equal({ "channel" => "EMAIL", "email" => "j@x.io", "link" => {} }, JSON.parse(@seen[0].body))
    assert_equal({ "redirectUrl" => "https://app.example.com/welcome" }, JSON.parse(@seen[1].body)["link"])
    assert_equal({}, JSON.parse(@seen[2].body)["link"])
    assert_raises(ArgumentError) { cv.send_code(channel: :email, email: "j@x.io", link: "https://app.example.com") }
    assert_equal 3, @seen.size
  end

  def test_a_silent_send_with_a_fallback_and_its_checks
    silent = { "requestId" => "s", "channel" => "SILENT", "status" => "pending", "expiresAt" => "2030-01-01T00:10:00Z",
               "to" => "+1******2671", "silent" => { "url" => "https://silent.test.invalid/check/s" } }
    rejected = { "verified" => false, "channel" => "SILENT", "requestId" => "s", "status" => "pending",
                 "attemptsRemaining" => 4, "silent" => { "outcome" => "rejected", "reason" => "another SIM" },
                 "fallback" => { "requestId" => "f", "channel" => "SMS", "status" => "pending", "reason" => "rejected",
                                 "expiresAt" => "2030-01-01T00:10:00Z" } }
    verified = { "verified" => true, "channel" => "SILENT", "requestId" => "s", "status" => "verified",
                 "attemptsRemaining" => 4, "silent" => { "outcome" => "verified" } }
    cv = client([200, { "data" => silent }], [200, { "data" => rejected }], [200, { "data" => verified }])
    entry = cv.send_code(channel: :silent, phone: "+14155552671", fallback: :sms)
    assert_equal({ "channel" => "SILENT", "phone" => "+14155552671", "fallback" => "SMS" }, JSON.parse(@seen[0].body))
    assert_equal [:silent, "https://silent.test.invalid/check/s"], [entry.channel, entry.silent.url]
    assert_nil entry.fallback
    check = cv.verify_code(request_id: "s")
    assert_equal({ "requestId" => "s" }, JSON.parse(@seen[1].body), "no code at all")
    assert_equal [:rejected, "another SIM"], [check.silent.outcome, check.silent.reason]
    assert_equal ["f", :sms, :rejected, :pending], [check.fallback.request_id, check.fallback.channel,
                                                    check.fallback.reason, check.fallback.status]
    assert_predicate cv.verify_code(request_id: "s", otp_code: "Ab3_x-9Z"), :verified?
    assert_equal({ "requestId" => "s", "code" => "Ab3_x-9Z" }, JSON.parse(@seen[2].body),
                 "a device code of letters goes as code, the document's name for it")
  end

  def test_health_reads_nested_values
    body = { "status" => "degraded", "version" => "1.2.3", "uptimeSeconds" => 5,
             "services" => { "database" => "up", "rateLimitStore" => "down" },
             "channels" => { "SMS" => { "operational" => false, "providers" => [{ "name" => "twilio", "state" => "down", "detail" => "HTTP 401" }],
                                        "liveCodes" => "refused" } },
             "lookups" => { "name" => "twilio", "state" => "down" },
             "pumpingBreakers" => [{ "country" => "FR", "count" => 2 }] }
    health = client([200, body]).health
    refute_predicate health, :ok?
    assert_equal :degraded, health.status
    assert_equal({ database: :up, rate_limit_store: :down }, health.services)
    refute_predicate health.channels[:sms], :operational?
    assert_equal :down, health.channels[:sms].providers[0].state
    assert_equal "HTTP 401", health.channels[:sms].providers[0].detail
    assert_equal 2, health.pumping_breakers[0].count
    assert_equal "twilio", health.lookups.name
    assert_equal :down, health.lookups.state
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
