# frozen_string_literal: true

# Runs clients/scenario.json with this library against a running service (see clients/README.md).
$LOAD_PATH.unshift(File.join(__dir__, "lib"))
require "contact_verify"

scenario = JSON.parse(File.read(ENV.fetch("CV_SCENARIO")))
vars = { "lang" => "ruby", "runId" => ENV.fetch("CV_RUN_ID") }
expand = lambda do |v|
  case v
  when String then v.gsub(/\{(\w+)\}/) { vars.fetch(Regexp.last_match(1), Regexp.last_match(0)) }
  when Array then v.map { |e| expand.call(e) }
  when Hash then v.transform_values { |e| expand.call(e) }
  else v
  end
end
scenario["vars"].each { |k, v| vars[k] = expand.call(v) }

base = ENV.fetch("CV_BASE_URL")
client = ->(url, key) { ContactVerify::Client.new(base_url: url, api_key: key) }
clients = {
  "default" => client.call(base, ENV.fetch("CV_API_KEY")),
  "badKey" => client.call(base, "cv_live_not_a_real_key_000000000000"),
  "stub" => client.call(ENV.fetch("CV_STUB_URL"), ENV.fetch("CV_API_KEY")),
  "test" => ENV["CV_TEST_API_KEY"] && client.call(base, ENV["CV_TEST_API_KEY"])
}
outbox = ContactVerify::TestHelper.new(base_url: base, admin_token: ENV.fetch("CV_ADMIN_TOKEN"))

# The library's answers as the service's JSON spells them, for the scenario's expectations: a Symbol
# by the enum of its member (:silent is a channel, SILENT, and a method, silent).
wire_symbol = lambda do |s, member|
  enum = { channel: ContactVerify::Channel, channels: ContactVerify::Channel,
           delivery_type: ContactVerify::DeliveryType }[member]
  enum&.wire_values&.find { |w| w.casecmp?(s.to_s) } || s.to_s
end
as_json = lambda do |v, member = nil|
  case v
  when Struct then v.to_h.to_h { |k, e| [ContactVerify::Model.camel(k), as_json.call(e, k)] }
  when Array then v.map { |e| as_json.call(e, member) }
  when Symbol then wire_symbol.call(v, member)
  when Time then v.utc.iso8601(3)
  else v
  end
end

mismatch = lambda do |expected, actual, at|
  case expected
  when Array
    return "#{at}: expected a list of #{expected.size}, got #{actual.inspect}" unless actual.is_a?(Array) && actual.size == expected.size

    expected.each_with_index.map { |e, i| mismatch.call(e, actual[i], "#{at}[#{i}]") }.compact.first
  when Hash
    return "#{at}: expected an object, got #{actual.inspect}" unless actual.is_a?(Hash)

    expected.map { |k, e| mismatch.call(e, actual[k], "#{at}.#{k}") }.compact.first
  else
    expected == actual ? nil : "#{at}: expected #{expected.inspect}, got #{actual.inspect}"
  end
end

pick = lambda do |data, path|
  path.gsub(/\[(\d+)\]/, '.\1').split(".").reject(&:empty?).reduce(data) do |v, key|
    next nil if v.nil?

    v.is_a?(Array) ? v[key.to_i] : v[key]
  end
end

# Not a library call: the outbox's newest text, matched against the scenario's pattern.
outbox_code = lambda do |to|
  uri = URI("#{base}/v1/admin/outbox?to=#{URI.encode_www_form_component(to)}")
  request = Net::HTTP::Get.new(uri)
  request["Authorization"] = "Bearer #{ENV.fetch('CV_ADMIN_TOKEN')}"
  items = JSON.parse(Net::HTTP.start(uri.host, uri.port) { |http| http.request(request) }.body)["data"]
  match = Regexp.new(scenario["codePattern"]).match(items.first&.fetch("text").to_s)
  raise "no code in the outbox for #{to}" unless match

  { "code" => match[1] }
end

send_code = lambda do |cv, args, retries|
  symbol = ->(wire) { wire&.downcase&.to_sym }
  cv.send_code(channel: symbol.call(args["channel"]), channels: args["channels"]&.map(&symbol),
               email: args["email"], phone: args["phone"], country: args["country"],
               delivery_type: symbol.call(args["deliveryType"]), purpose: args["purpose"],
               custom_message: args["customMessage"], locale: args["locale"],
               link: args["link"] && { redirect_url: args["link"]["redirectUrl"] },
               fallback: symbol.call(args["fallback"]),
               idempotency_key: args["idempotencyKey"], max_retries: retries)
end

failed = 0
scenario["steps"].each do |step|
  cv = clients.fetch(step["client"] || "default") or raise "CV_TEST_API_KEY is not set"
  args = expand.call(step["args"] || {})
  expect = step["expect"] || {}
  begin
    begin
      data = case step["op"]
             when "health" then cv.health(max_retries: step["retries"])
             when "sendCode" then send_code.call(cv, args, step["retries"])
             when "verifyCode"
               cv.verify_code(request_id: args["requestId"], otp_code: args["otpCode"], max_retries: step["retries"])
             when "getVerification" then cv.get_verification(args["requestId"], max_retries: step["retries"])
             when "cancelVerification" then cv.cancel_verification(args["requestId"], max_retries: step["retries"])
             when "latestOutboxCode" then { "code" => outbox.latest_outbox_code(args["to"]) }
             when "outboxCode" then outbox_code.call(args["to"])
             else raise "unknown op #{step['op']}"
             end
    rescue ContactVerify::Error => e
      want = expect["error"] or raise
      raise "expected #{want['status']} #{want['code']}, got #{e.status} #{e.code}" unless [e.status, e.code] == [want["status"], want["code"]]
      raise "expected retry_after >= #{want['retryAfterAtLeast']}" if want["retryAfterAtLeast"] && (e.retry_after || 0) < want["retryAfterAtLeast"]

      puts "ok   #{step['name']}"
      next
    end
    raise "expected #{expect['error']['code']}, got an answer" if expect["error"]

    answer = as_json.call(data)
    if expect.key?("ok")
      m = mismatch.call(expand.call(expect["ok"]), answer, "data")
      raise m if m
    end
    (expect["present"] || []).each do |path|
      raise "data.#{path} is missing" if pick.call(answer, path).nil?
    end
    (step["save"] || {}).each { |name, path| vars[name] = pick.call(answer, path).to_s }
    puts "ok   #{step['name']}"
  rescue StandardError => e
    failed += 1
    puts "FAIL #{step['name']}: #{e.message}"
  end
end
puts "#{scenario['steps'].size - failed} passed, #{failed} failed"
exit(failed.zero? ? 0 : 1)
