# The program around the Python row of the main README's client table
# (test/clients.readme-snippets.test.ts): the row replaces the marked line below and must print
# "verified". The row sends and verifies in one line, so the code has to be known between its two
# calls: the client's injected urllib opener reads it from the outbox (test-mode key) as soon as
# the send is answered.
import os
import time
import urllib.request

from contact_verify import ContactVerify, TestHelper

email = f"readme-row-python-{time.time_ns()}@example.com"
outbox = TestHelper(os.environ["CV_BASE_URL"], admin_token=os.environ["CV_ADMIN_TOKEN"])
otp_code = ""


class ReadsTheCode(urllib.request.BaseHandler):
    def http_response(self, request, response):
        global otp_code
        if request.full_url.endswith("/v1/contact/send-code") and response.status == 200:
            otp_code = outbox.latest_outbox_code(email)
        return response


opener = urllib.request.build_opener(ReadsTheCode())
cv = ContactVerify(os.environ["CV_BASE_URL"], api_key=os.environ["CV_API_KEY"], opener=opener)

# README_ROW
print(r.status)
