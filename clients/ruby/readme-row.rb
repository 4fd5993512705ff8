# The Ruby row of the main README's client table, as a program: test/clients.readme-snippets.test.ts
# puts the row in place of the marker line below. `cv` and `email` are made before it; `otp_code`
# is what the user would type, read from the outbox when the row's verify calls it, after its send.
require "contact_verify"
require "securerandom"

cv = ContactVerify::Client.new(base_url: ENV.fetch("CV_BASE_URL"), api_key: ENV.fetch("CV_API_KEY"))
EMAIL = "row.#{SecureRandom.hex(4)}@example.com"
OUTBOX = ContactVerify::TestHelper.new(base_url: ENV.fetch("CV_BASE_URL"), admin_token: ENV.fetch("CV_ADMIN_TOKEN"))
def otp_code
  OUTBOX.latest_outbox_code(EMAIL)
end
email = EMAIL

README_ROW
puts r.status
