# frozen_string_literal: true

# The library held to the service's OpenAPI document ($CV_OPENAPI, else clients/openapi.json): every
# field of the models it exposes, every send option, every enum value and every error code, both
# ways, so a field, status or code added to the service fails here until the library has it.
require_relative "../lib/contact_verify"
require "minitest/autorun"

module Drift
  CV = ContactVerify
  # Each model and the component schema it stands for: its members, camelCased, are the schema's fields.
  MODELS = {
    "SendCodeEntry" => CV::SendCodeEntry, "Risk" => CV::Risk, "RiskSignal" => CV::RiskSignal,
    "SendCodeEntryError" => CV::SendCodeEntryError, "VerifyCodeResult" => CV::VerifyCodeResult,
    "ErrorDetail" => CV::ErrorDetail, "Health" => CV::Health, "ChannelHealth" => CV::ChannelHealth,
    "ProviderHealth" => CV::ProviderHealth, "PumpingBreakerCount" => CV::PumpingBreakerCount,
    "InstancesHealth" => CV::InstancesHealth, "CodeSecretRotation" => CV::CodeSecretRotation,
    "OutboxMessage" => CV::OutboxMessage, "Verification" => CV::Verification,
    "VerificationDelivery" => CV::VerificationDelivery, "SilentFallback" => CV::SilentFallback
  }.freeze
  ENUMS = {
    "Channel" => CV::Channel, "DeliveryType" => CV::DeliveryType, "VerificationStatus" => CV::VerificationStatus,
    "SendCodeEntryStatus" => CV::SendCodeEntryStatus, "RiskLevel" => CV::RiskLevel, "HealthStatus" => CV::HealthStatus,
    "VerificationMethod" => CV::VerificationMethod, "DeliveryState" => CV::DeliveryState,
    "FallbackReason" => CV::FallbackReason
  }.freeze
  # Inline objects of the document and the Struct that stands for each.
  INLINE = {
    %w[SendCodeEntry silent] => CV::SilentStart, %w[VerifyCodeResult silent] => CV::SilentCheck,
    %w[Verification fallback] => CV::VerificationFallback
  }.freeze
  # Fields of SendCodeRequest that send_code leaves out on purpose: other names of +phone+.
  PHONE_ALIASES = %w[whatsappNumber phoneNumber].freeze
  # Keywords of send_code that are not body fields: a header and the client's retry limit.
  NOT_IN_BODY = %w[idempotencyKey maxRetries].freeze

  # Every difference between the library and +doc+, one sentence each.
  def self.problems(doc)
    schemas = doc.fetch("components").fetch("schemas")
    fields = ->(name) { schemas.fetch(name).fetch("properties").keys }
    found = []
    compare = lambda do |what, document, library|
      missing = document - library
      extra = library - document
      found << "#{what}: the document has #{missing.join(', ')}, the library lacks it" unless missing.empty?
      found << "#{what}: the library has #{extra.join(', ')}, the document does not" unless extra.empty?
    end
    MODELS.each { |name, model| compare.call(name, fields.call(name), model.members.map { |m| CV::Model.camel(m) }) }
    INLINE.each do |(name, field), model|
      compare.call("#{name}.#{field}", schemas.fetch(name).fetch("properties").fetch(field).fetch("properties").keys,
                   model.members.map { |m| CV::Model.camel(m) })
    end
    # send_code's link: its Hash's one key, redirect_url.
    compare.call("SendLink (send_code's link: Hash)", fields.call("SendLink"), %w[redirectUrl])
    keywords = CV::Client.instance_method(:send_code).parameters.map { |_, n| CV::Model.camel(n) }
    compare.call("SendCodeRequest (send_code's keywords)", fields.call("SendCodeRequest") - PHONE_ALIASES,
                 keywords - NOT_IN_BODY)
    compare.call("ApiError (ContactVerify::Error's readers)", fields.call("ApiError"),
                 fields.call("ApiError").select { |f| CV::Error.method_defined?(f) })
    ENUMS.each { |name, mod| compare.call(name, schemas.fetch(name).fetch("enum"), mod.wire_values) }
    compare.call("ErrorCode", schemas.fetch("ErrorCode").fetch("enum"), CV::ErrorCode::ALL)
    compare.call("SendCodeEntryError.code", schemas.fetch("SendCodeEntryError").dig("properties", "code", "enum"),
                 schemas.fetch("SendCodeEntryError").dig("properties", "code", "enum") & CV::ErrorCode::ALL)
    found
  end
end

class DriftTest < Minitest::Test
  DOCUMENT = ENV.fetch("CV_OPENAPI", File.join(__dir__, "..", "..", "openapi.json"))

  def document
    JSON.parse(File.read(DOCUMENT))
  end

  def test_the_library_matches_the_document
    assert_equal [], Drift.problems(document), "#{DOCUMENT} and the library differ: change the library to match"
  end

  # The check itself: a value added to the service's document, or one the library drops, is caught.
  def test_a_field_status_or_code_added_to_the_document_is_caught
    doc = document
    schemas = doc["components"]["schemas"]
    schemas["SendCodeEntry"]["properties"]["retryAt"] = { "type" => "string" }
    schemas["VerifyCodeResult"]["properties"]["lockedUntil"] = { "type" => "string" }
    schemas["OutboxMessage"]["properties"]["provider"] = { "type" => "string" }
    schemas["SendCodeRequest"]["properties"]["template"] = { "type" => "string" }
    schemas["VerificationStatus"]["enum"] << "locked"
    schemas["ErrorCode"]["enum"] << "PAYMENT_REQUIRED"
    schemas["Channel"]["enum"].delete("WHATSAPP")
    problems = Drift.problems(doc).join("\n")
    %w[retryAt lockedUntil provider template locked PAYMENT_REQUIRED].each do |name|
      assert_match(/the document has [^\n]*\b#{name}\b/, problems)
    end
    assert_match(/Channel: the library has WHATSAPP/, problems)
  end
end
