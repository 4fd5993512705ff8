# frozen_string_literal: true

require_relative "lib/contact_verify/version"

Gem::Specification.new do |s|
  s.name = "contact_verify"
  s.version = ContactVerify::VERSION
  s.summary = "Client for the contact verification service: send and verify one-time codes by EMAIL, SMS and WHATSAPP."
  s.description = "Sends and verifies one-time codes through a contact-verify service; net/http and json only, " \
                  "typed results and errors, safe retries, and a test helper that reads test-mode codes."
  s.authors = ["contact-verify"]
  s.license = "MIT"
  s.files = Dir.chdir(__dir__) { Dir["lib/**/*.rb", "README.md"] }
  s.required_ruby_version = ">= 3.0"
  s.metadata = { "rubygems_mfa_required" => "true" }
end
