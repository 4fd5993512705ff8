# frozen_string_literal: true

# Client of the contact verification service: send and verify one-time codes by EMAIL, SMS and
# WHATSAPP. Start with ContactVerify::Client; ContactVerify::TestHelper reads test-mode codes.
module ContactVerify
end

require_relative "contact_verify/version"
require_relative "contact_verify/enums"
require_relative "contact_verify/errors"
require_relative "contact_verify/models"
require_relative "contact_verify/http"
require_relative "contact_verify/connection"
require_relative "contact_verify/client"
require_relative "contact_verify/test_helper"
