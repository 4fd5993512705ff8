# frozen_string_literal: true

require "socket"
require "json"

# A local HTTP server that answers from a script, in order (the last answer again once they run
# out), and records each request: a real socket under the client's default adapter.
class ScriptedServer
  Seen = Struct.new(:line, :headers, :body, keyword_init: true)

  attr_reader :requests

  def initialize(*answers)
    @answers = answers
    @requests = []
    @server = TCPServer.new("127.0.0.1", 0)
    @thread = Thread.new { loop { serve(@server.accept) } }
  end

  def url
    "http://127.0.0.1:#{@server.addr[1]}"
  end

  def headers
    @requests.map(&:headers)
  end

  def close
    @thread.kill
    @server.close
  end

  private

  def serve(socket)
    line = socket.gets.to_s.strip
    headers = {}
    while (header = socket.gets) && header != "\r\n"
      name, value = header.split(":", 2)
      headers[name.downcase] = value.strip
    end
    @requests << Seen.new(line: line, headers: headers, body: socket.read(headers["content-length"].to_i))
    status, retry_after, body = @answers.length == 1 ? @answers.first : @answers.shift
    body = JSON.generate(body) unless body.is_a?(String)
    socket.write("HTTP/1.1 #{status} Scripted\r\nContent-Type: application/json\r\n" \
                 "#{retry_after ? "Retry-After: #{retry_after}\r\n" : ''}" \
                 "Content-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  ensure
    socket.close
  end
end
