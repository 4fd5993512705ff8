# frozen_string_literal: true

module ContactVerify
  VERSION = "0.2.0"
end
