# frozen_string_literal: true

# ContactVerify::TestHelper reads the newest outbox item's code field with the admin token.
require_relative "../lib/contact_verify"
require_relative "scripted_server"
require "minitest/autorun"

class TestHelperTest < Minitest::Test
  def item(code, text: "Your code is 999999")
    { "id" => "msg_1", "accountId" => "acc_default", "requestId" => "r1", "status" => "pending", "channel" => "SMS",
      "to" => "+33612345678", "text" => text, "code" => code, "createdAt" => "2030-01-01T00:00:00Z" }.compact
  end

  def helper(*answers)
    @server = ScriptedServer.new(*answers)
    ContactVerify::TestHelper.new(base_url: @server.url, admin_token: "admin-token")
  end

  def teardown
    @server&.close
  end

  def test_reads_the_code_field_of_the_newest_item_not_its_text
    outbox = helper([200, nil, { "data" => [item("042817"), item("111111")] }])
    assert_equal "042817", outbox.latest_outbox_code("+33 6 12 34 56 78")
    seen = @server.requests.fetch(0)
    assert_equal "GET /v1/admin/outbox?to=%2B33+6+12+34+56+78&limit=1 HTTP/1.1", seen.line
    assert_equal "Bearer admin-token", seen.headers["authorization"]
  end

  def test_no_message_or_no_code_is_a_typed_error
    error = assert_raises(ContactVerify::NoOutboxCodeError) { helper([200, nil, { "data" => [] }]).latest_outbox_code("a@x.io") }
    assert_match(/no message to a@x\.io/, error.message)
    teardown
    assert_raises(ContactVerify::NoOutboxCodeError) { helper([200, nil, { "data" => [item(nil)] }]).latest_outbox_code("a@x.io") }
  end

  def test_a_wrong_admin_token_is_the_services_error
    body = { "error" => { "code" => "UNAUTHORIZED", "message" => "wrong admin token" } }
    assert_raises(ContactVerify::AuthenticationError) { helper([401, nil, body]).latest_outbox_code("a@x.io") }
  end

  def test_outbox_lists_messages_as_values
    messages = helper([200, nil, { "data" => [item("042817")] }]).outbox(to: "+33612345678")
    assert_equal [:sms, "042817"], [messages[0].channel, messages[0].code]
    assert_instance_of Time, messages[0].created_at
  end
end
