# frozen_string_literal: true

module ContactVerify
  # Every failure of the library. +code+ is the contract's stable code (an ErrorCode String), +status+
  # the HTTP status (0 when no answer came), +details+ one ErrorDetail per problem, +retry_after+ the
  # seconds of the answer's Retry-After (nil without one). Rescue a subclass to handle one case:
  #
  #   Error
  #   ├── ConnectionError          no answer (status 0, NETWORK_ERROR)
  #   ├── ClientError              4xx: the request must change
  #   │   ├── AuthenticationError  UNAUTHORIZED
  #   │   ├── NotFoundError        NOT_FOUND
  #   │   ├── RateLimitError       RATE_LIMITED: wait retry_after seconds
  #   │   └── TooManyAttemptsError TOO_MANY_ATTEMPTS: send a new code
  #   ├── ServerError              5xx, once the retries are spent
  #   └── NoOutboxCodeError        TestHelper found no code to read
  class Error < StandardError
    attr_reader :status, :code, :details, :retry_after

    def initialize(message, status: nil, code: nil, details: [], retry_after: nil)
      super(status ? "#{status} #{code}: #{message}" : message)
      @status = status
      @code = code
      @details = details
      @retry_after = retry_after
    end

    # The error the service's answer stands for: the subclass of its code, else of its status.
    def self.from_answer(status, code, message, details: [], retry_after: nil)
      klass = BY_CODE.fetch(code) { status >= 500 ? ServerError : ClientError }
      klass.new(message, status: status, code: code, details: details, retry_after: retry_after)
    end
  end

  # No answer came: refused, reset or timed out (status 0, code NETWORK_ERROR). Never retried.
  class ConnectionError < Error
    def initialize(message)
      super(message, status: 0, code: ErrorCode::NETWORK_ERROR)
    end
  end

  class ClientError < Error; end
  class AuthenticationError < ClientError; end
  # An unknown request, or one on a channel the key is not enabled for (the same answer, on purpose).
  class NotFoundError < ClientError; end
  # Too many sends: a per-second limit (retried by the client when Retry-After is short) or a
  # destination's cooldown (raised at once: show the user +retry_after+).
  class RateLimitError < ClientError; end
  # The code's attempts are used up: the request is failed, send a new code. Never retried.
  class TooManyAttemptsError < ClientError; end
  class ServerError < Error; end

  # TestHelper#latest_outbox_code found no code: no message to that address, or its request is not
  # a test-mode one or has left pending.
  class NoOutboxCodeError < Error; end

  Error::BY_CODE = {
    ErrorCode::UNAUTHORIZED => AuthenticationError,
    ErrorCode::NOT_FOUND => NotFoundError,
    ErrorCode::RATE_LIMITED => RateLimitError,
    ErrorCode::TOO_MANY_ATTEMPTS => TooManyAttemptsError
  }.freeze
end
