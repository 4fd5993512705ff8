# frozen_string_literal: true

# The retry rules and the typed error, against a scripted local HTTP server (standard library only).
$LOAD_PATH.unshift(File.join(__dir__, "..", "lib"))
require "contact_verify"
require "minitest/autorun"
require "socket"

# Answers in order (the last one again once they run out) and records each request's headers.
class Script
  attr_reader :headers, :client

  def initialize(*answers)
    @answers = answers
    @headers = []
    @server = TCPServer.new("127.0.0.1", 0)
    @thread = Thread.new { loop { serve(@server.accept) } }
    @client = ContactVerify::Client.new(base_url: "http://127.0.0.1:#{@server.addr[1]}", api_key: "cvk_test_key")
  end

  def close
    @thread.kill
    @server.close
  end

  private

  def serve(socket)
    socket.gets
    request = {}
    while (line = socket.gets) && line != "\r\n"
      name, value = line.split(":", 2)
      request[name.downcase] = value.strip
    end
    socket.read(request["content-length"].to_i)
    @headers << request
    status, retry_after, body = @answers.length == 1 ? @answers.first : @answers.shift
    body = JSON.generate(body) unless body.is_a?(String)
    socket.write("HTTP/1.1 #{status} Scripted\r\nContent-Type: application/json\r\n" \
                 "#{retry_after ? "Retry-After: #{retry_after}\r\n" : ""}" \
                 "Content-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  ensure
    socket.close
  end
end

SENT = { "data" => { "requestId" => "0190a7c2-0000-7000-8000-000000000001", "channel" => "EMAIL",
                     "status" => "pending", "expiresAt" => "2030-01-01T00:00:00Z", "to" => "j***@example.com" } }.freeze

def error_body(code)
  { "error" => { "code" => code, "message" => "scripted", "details" => [{ "field" => "email", "message" => "m" }] } }
end

class RetryRulesTest < Minitest::Test
  def serve(*answers)
    (@scripts ||= []) << Script.new(*answers)
    @scripts.last
  end

  def teardown
    (@scripts || []).each(&:close)
  end

  def test_a_503_is_retried_at_most_max_retries_times
    s = serve([503, "0", error_body("UNAVAILABLE")])
    error = assert_raises(ContactVerify::Error) { s.client.health }
    assert_equal [503, "UNAVAILABLE"], [error.status, error.code]
    assert_equal 3, s.headers.length
    s = serve([503, "0", error_body("UNAVAILABLE")])
    assert_raises(ContactVerify::Error) { s.client.health(max_retries: 0) }
    assert_equal 1, s.headers.length
  end

  def test_a_503_without_retry_after_backs_off
    s = serve([503, nil, "<html>proxy</html>"], [200, nil, { "status" => "ok" }])
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    assert_equal "ok", s.client.health["status"]
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.2
    assert_equal 2, s.headers.length
  end

  def test_rate_limited_is_retried_only_with_a_short_retry_after
    s = serve([429, "0", error_body("RATE_LIMITED")], [200, nil, SENT])
    assert_equal "0190a7c2-0000-7000-8000-000000000001", s.client.send_code(channel: "EMAIL", email: "j@x.io").request_id
    assert_equal 2, s.headers.length
    [nil, "11"].each do |retry_after|
      s = serve([429, retry_after, error_body("RATE_LIMITED")])
      error = assert_raises(ContactVerify::Error) { s.client.send_code(channel: "EMAIL", email: "j@x.io") }
      assert_equal "RATE_LIMITED", error.code
      assert_equal retry_after&.to_i, error.retry_after
      assert_equal 1, s.headers.length
    end
  end

  def test_other_client_errors_are_never_retried
    [[429, "TOO_MANY_ATTEMPTS"], [401, "UNAUTHORIZED"], [400, "VALIDATION_ERROR"], [404, "NOT_FOUND"]].each do |status, code|
      s = serve([status, "0", error_body(code)])
      error = assert_raises(ContactVerify::Error) do
        s.client.verify_code(request_id: "0190a7c2-0000-7000-8000-000000000001", otp_code: "123456")
      end
      assert_equal [status, code], [error.status, error.code]
      assert_equal [{ "field" => "email", "message" => "m" }], error.details
      assert_equal 1, s.headers.length, code
    end
  end

  def test_every_send_has_one_idempotency_key_across_its_retries
    s = serve([503, "0", error_body("UNAVAILABLE")], [503, "0", error_body("UNAVAILABLE")], [200, nil, SENT])
    2.times { s.client.send_code(channel: "EMAIL", email: "j@x.io") }
    keys = s.headers.map { |h| h["idempotency-key"] }
    assert_equal 4, keys.length
    assert_match(/\A\h{8}-\h{4}-4\h{3}-[89ab]\h{3}-\h{12}\z/, keys[0])
    assert_equal [keys[0]] * 3, keys[0, 3]
    refute_equal keys[0], keys[3]
    s = serve([200, nil, SENT])
    s.client.send_code(channel: "EMAIL", email: "j@x.io", idempotency_key: "order-42")
    assert_equal "order-42", s.headers[0]["idempotency-key"]
  end

  def test_sends_its_user_agent_and_key
    s = serve([200, nil, { "status" => "ok" }])
    s.client.health
    assert_equal "contact-verify-ruby/#{ContactVerify::VERSION}", s.headers[0]["user-agent"]
    assert_equal "Bearer cvk_test_key", s.headers[0]["authorization"]
  end
end
