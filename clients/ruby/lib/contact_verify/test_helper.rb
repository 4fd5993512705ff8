# frozen_string_literal: true

module ContactVerify
  # For tests only: reads codes of test-mode sends (made with a cvk_test_ key) from the service's
  # outbox with the ADMIN token, so an automated test can verify without a mailbox or a phone.
  # Never give the admin token to production code.
  #
  #   outbox = ContactVerify::TestHelper.new(base_url: ENV.fetch("CV_BASE_URL"),
  #                                          admin_token: ENV.fetch("CV_ADMIN_TOKEN"))
  #   outbox.latest_outbox_code("jane@example.com") # => "042817"
  class TestHelper
    def initialize(base_url:, admin_token:, timeout: 10, http: nil)
      @connection = Connection.new(base_url: base_url, token: admin_token, timeout: timeout, http: http)
    end

    # The messages the outbox holds for +to+ (an address or a +phone number), newest first.
    def outbox(to:, limit: nil)
      query = URI.encode_www_form({ to: to, limit: limit }.compact)
      @connection.request(:get, "/v1/admin/outbox?#{query}")["data"].map { |m| OutboxMessage.from_json(m) }
    end

    # The code of the newest message to +to+; NoOutboxCodeError when there is none, or when that
    # message carries no code (a live request, or one that is no longer pending).
    def latest_outbox_code(to)
      newest = outbox(to: to, limit: 1).first
      raise NoOutboxCodeError, "the outbox holds no message to #{to}" unless newest
      return newest.code if newest.code

      raise NoOutboxCodeError, "the newest message to #{to} carries no code: its request was not made " \
                               "with a test key, or it is no longer pending"
    end
  end
end
