# frozen_string_literal: true

require "net/http"
require "openssl"
require "uri"

module ContactVerify
  # The HTTP layer the clients call through. Any object with +call(request) -> response+ fits (a
  # lambda too): pass it as +http:+ to wrap, log or replace the default, NetHTTP.
  module HTTP
    # +verb+ is :get or :post; +headers+ a Hash; +body+ a JSON String or nil; +timeout+ in seconds.
    Request = Struct.new(:verb, :url, :headers, :body, :timeout, keyword_init: true)
    # +headers+ with lower-case names.
    Response = Struct.new(:status, :headers, :body, keyword_init: true)

    # The default adapter: one Net::HTTP connection per request. Raises ConnectionError when no
    # answer comes, as every adapter should.
    class NetHTTP
      FAILURES = [SystemCallError, IOError, Timeout::Error, SocketError, OpenSSL::SSL::SSLError].freeze

      def call(request)
        uri = URI(request.url)
        message = (request.verb == :post ? Net::HTTP::Post : Net::HTTP::Get).new(uri)
        request.headers.each { |name, value| message[name] = value }
        message.body = request.body if request.body
        answer = Net::HTTP.start(uri.host, uri.port, use_ssl: uri.scheme == "https",
                                                     open_timeout: request.timeout,
                                                     read_timeout: request.timeout) { |http| http.request(message) }
        Response.new(status: answer.code.to_i, headers: answer.each_header.to_h, body: answer.body.to_s)
      rescue *FAILURES => e
        raise ConnectionError, "No answer from #{uri.scheme}://#{uri.host}:#{uri.port}: #{e.message}"
      end
    end
  end
end
