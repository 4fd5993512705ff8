Gem::Specification.new do |s|
  s.name = "contact_verify"
  s.version = "0.1.0"
  s.summary = "Client for the contact verification service: send and verify one-time codes by EMAIL, SMS and WHATSAPP."
  s.authors = ["contact-verify"]
  s.license = "MIT"
  s.files = Dir["lib/**/*.rb", "README.md"]
  s.required_ruby_version = ">= 2.7"
end
