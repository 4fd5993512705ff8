# frozen_string_literal: true

# The retry rules and the typed errors, against a scripted local HTTP server.
require_relative "../lib/contact_verify"
require_relative "scripted_server"
require "minitest/autorun"

class RetryRulesTest < Minitest::Test
  SENT = { "data" => { "requestId" => "0190a7c2-0000-7000-8000-000000000001", "channel" => "EMAIL",
                       "status" => "pending", "expiresAt" => "2030-01-01T00:00:00Z", "to" => "j***@example.com" } }.freeze
  HEALTHY = { "status" => "ok", "version" => "1", "uptimeSeconds" => 1, "services" => {}, "channels" => {} }.freeze

  def error_body(code)
    { "error" => { "code" => code, "message" => "scripted", "details" => [{ "field" => "email", "message" => "m" }] } }
  end

  def serve(*answers)
    (@servers ||= []) << ScriptedServer.new(*answers)
    server = @servers.last
    [server, ContactVerify::Client.new(base_url: server.url, api_key: "cvk_test_key")]
  end

  def teardown
    (@servers || []).each(&:close)
  end

  def test_a_503_is_retried_at_most_max_retries_times
    s, cv = serve([503, "0", error_body("UNAVAILABLE")])
    error = assert_raises(ContactVerify::ServerError) { cv.health }
    assert_equal [503, "UNAVAILABLE", 0], [error.status, error.code, error.retry_after]
    assert_equal 3, s.requests.length
    s, cv = serve([503, "0", error_body("UNAVAILABLE")])
    assert_raises(ContactVerify::ServerError) { cv.health(max_retries: 0) }
    assert_equal 1, s.requests.length
  end

  def test_a_503_without_retry_after_backs_off
    s, cv = serve([503, nil, "<html>proxy</html>"], [200, nil, HEALTHY])
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    assert_predicate cv.health, :ok?
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.2
    assert_equal 2, s.requests.length
  end

  def test_rate_limited_is_retried_only_with_a_short_retry_after
    s, cv = serve([429, "0", error_body("RATE_LIMITED")], [200, nil, SENT])
    assert_equal "0190a7c2-0000-7000-8000-000000000001", cv.send_code(channel: :email, email: "j@x.io").request_id
    assert_equal 2, s.requests.length
    [nil, "11"].each do |retry_after|
      s, cv = serve([429, retry_after, error_body("RATE_LIMITED")])
      error = assert_raises(ContactVerify::RateLimitError) { cv.send_code(channel: :email, email: "j@x.io") }
      assert_equal "RATE_LIMITED", error.code
      retry_after ? assert_equal(11, error.retry_after) : assert_nil(error.retry_after)
      assert_equal 1, s.requests.length
    end
  end

  def test_other_client_errors_are_never_retried_and_raise_their_class
    [[429, "TOO_MANY_ATTEMPTS", ContactVerify::TooManyAttemptsError],
     [401, "UNAUTHORIZED", ContactVerify::AuthenticationError],
     [400, "VALIDATION_ERROR", ContactVerify::ClientError],
     [404, "NOT_FOUND", ContactVerify::NotFoundError]].each do |status, code, klass|
      s, cv = serve([status, "0", error_body(code)])
      error = assert_raises(klass) do
        cv.verify_code(request_id: "0190a7c2-0000-7000-8000-000000000001", otp_code: "123456")
      end
      assert_equal [status, code], [error.status, error.code]
      assert_kind_of ContactVerify::Error, error
      assert_equal [ContactVerify::ErrorDetail.new(field: "email", message: "m")], error.details
      assert_equal "#{status} #{code}: scripted", error.message
      assert_equal 1, s.requests.length, code
    end
  end

  def test_no_answer_is_a_connection_error_and_is_not_retried
    port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }
    cv = ContactVerify::Client.new(base_url: "http://127.0.0.1:#{port}", api_key: "k")
    error = assert_raises(ContactVerify::ConnectionError) { cv.health }
    assert_equal [0, "NETWORK_ERROR"], [error.status, error.code]
  end

  def test_every_send_has_one_idempotency_key_across_its_retries
    s, cv = serve([503, "0", error_body("UNAVAILABLE")], [503, "0", error_body("UNAVAILABLE")], [200, nil, SENT])
    2.times { cv.send_code(channel: :email, email: "j@x.io") }
    keys = s.headers.map { |h| h["idempotency-key"] }
    assert_equal 4, keys.length
    assert_match(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, keys[0])
    assert_equal [keys[0]] * 3, keys[0, 3]
    refute_equal keys[0], keys[3]
    s, cv = serve([200, nil, SENT])
    cv.send_code(channel: :email, email: "j@x.io", idempotency_key: "order-42")
    assert_equal "order-42", s.headers[0]["idempotency-key"]
  end

  def test_sends_its_user_agent_and_key
    s, cv = serve([200, nil, HEALTHY])
    cv.health
    assert_equal "contact-verify-ruby/#{ContactVerify::VERSION}", s.headers[0]["user-agent"]
    assert_equal "Bearer cvk_test_key", s.headers[0]["authorization"]
  end
end
