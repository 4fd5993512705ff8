# frozen_string_literal: true

require "json"

module ContactVerify
  # One base URL and bearer token over an HTTP adapter: JSON in and out, answers of 300 and over
  # raised as the Error of their code. Shared by Client and TestHelper.
  class Connection
    def initialize(base_url:, token:, timeout:, http:)
      @base_url = base_url.to_s.sub(%r{/+\z}, "")
      @token = token
      @timeout = timeout
      @http = http || HTTP::NetHTTP.new
    end

    # The parsed JSON body of the answer.
    def request(verb, path, body: nil, headers: {})
      all = { "Accept" => "application/json", "Authorization" => "Bearer #{@token}",
              "User-Agent" => "contact-verify-ruby/#{VERSION}" }
      all["Content-Type"] = "application/json" if body
      answer = @http.call(HTTP::Request.new(verb: verb, url: "#{@base_url}#{path}", headers: all.merge(headers),
                                            body: body && JSON.generate(body), timeout: @timeout))
      parsed = parse(answer.body)
      return parsed if answer.status < 300

      raise error_of(answer, parsed)
    end

    private

    def parse(text)
      JSON.parse(text.to_s)
    rescue JSON::ParserError
      nil
    end

    def error_of(answer, parsed)
      error = parsed.is_a?(Hash) && parsed["error"].is_a?(Hash) ? parsed["error"] : {}
      status = answer.status
      retry_after = answer.headers.find { |name, _| name.casecmp?("retry-after") }&.last.to_s
      Error.from_answer(status, error["code"] || (status == 503 ? ErrorCode::UNAVAILABLE : ErrorCode::INTERNAL),
                        error["message"] || "HTTP #{status}",
                        details: (error["details"] || []).map { |d| ErrorDetail.from_json(d) },
                        retry_after: retry_after.match?(/\A\d+\z/) ? retry_after.to_i : nil)
    end
  end
end
