package contactverify

import (
	"context"
	"net/http"
	"testing"
	"time"
)

const resource = `{"data":{"requestId":"r1","channel":"EMAIL","status":"verified","to":"j***@example.com",
	"createdAt":"2030-01-01T00:00:00.000Z","expiresAt":"2030-01-01T00:10:00.000Z","attemptsRemaining":4,
	"verifiedAt":"2030-01-01T00:01:00.000Z","method":"link","siblingRequestId":"r2",
	"delivery":{"status":"delivered","provider":"smtp","updatedAt":"2030-01-01T00:00:02.000Z"},
	"fallback":{"channel":"SMS","state":"fired","reason":"timeout","requestId":"r3"}}}`

func TestGetVerificationReadsTheResource(t *testing.T) {
	rt := &recorder{status: 200, body: resource}
	cv := New("http://service.invalid", "k", WithHTTPClient(&http.Client{Transport: rt}))
	v, err := cv.GetVerification(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	r := rt.seen[0]
	if r.Method != http.MethodGet || r.URL.Path != "/v1/contact/verifications/r1" || rt.bodies[0] != "" {
		t.Fatalf("request: %s %s %q", r.Method, r.URL, rt.bodies[0])
	}
	if v.Status != StatusVerified || v.Method != MethodLink || v.VerifiedAt == nil ||
		!v.VerifiedAt.Equal(time.Date(2030, 1, 1, 0, 1, 0, 0, time.UTC)) || v.SiblingRequestID != "r2" ||
		v.AttemptsRemaining != 4 || !v.CreatedAt.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("resource: %+v", v)
	}
	if v.Delivery.Status != DeliveryDelivered || v.Delivery.Provider != "smtp" ||
		!v.Delivery.UpdatedAt.Equal(time.Date(2030, 1, 1, 0, 0, 2, 0, time.UTC)) {
		t.Fatalf("delivery: %+v", v.Delivery)
	}
	if f := v.Fallback; f == nil || f.Channel != ChannelSMS || f.State != FallbackFired || f.Reason != FallbackTimeout || f.RequestID != "r3" {
		t.Fatalf("fallback: %+v", v.Fallback)
	}
	rt.status, rt.body = 404, fail("NOT_FOUND")
	if _, err := cv.GetVerification(context.Background(), "unknown"); !IsCode(err, CodeNotFound) || len(rt.seen) != 2 {
		t.Fatalf("an unknown id: want NOT_FOUND at once, got %v after %d requests", err, len(rt.seen))
	}
}

func TestCancelVerificationPostsAnEmptyObjectAndKeepsUnknownValues(t *testing.T) {
	rt := &recorder{status: 200, body: `{"data":{"requestId":"r/1","channel":"EMAIL","status":"canceled","to":"j***@example.com",
		"createdAt":"2030-01-01T00:00:00Z","expiresAt":"2030-01-01T00:10:00Z","attemptsRemaining":5,
		"delivery":{"status":"read_aloud","updatedAt":"2030-01-01T00:00:00Z"}}}`}
	cv := New("http://service.invalid", "k", WithHTTPClient(&http.Client{Transport: rt}))
	v, err := cv.CancelVerification(context.Background(), "r/1")
	if err != nil {
		t.Fatal(err)
	}
	r := rt.seen[0]
	// The id is one path segment, whatever it holds.
	if r.Method != http.MethodPost || r.URL.EscapedPath() != "/v1/contact/verifications/r%2F1/cancel" || rt.bodies[0] != "{}" ||
		r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("request: %s %s %q", r.Method, r.URL.EscapedPath(), rt.bodies[0])
	}
	// A state this version does not know yet is kept as it came.
	if v.Status != StatusCanceled || v.Method != "" || v.VerifiedAt != nil || v.Delivery.Status != "read_aloud" {
		t.Fatalf("resource: %+v", v)
	}
}

func TestLinkAndFallbackReachTheBodyAndSilentAnswersAreTyped(t *testing.T) {
	rt := &recorder{status: 200, body: sent}
	cv := New("http://service.invalid", "k", WithHTTPClient(&http.Client{Transport: rt}))
	ctx := context.Background()
	if _, err := cv.SendCode(ctx, SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com", Link: &Link{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cv.SendCode(ctx, SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com",
		Link: &Link{RedirectURL: "https://app.example.com/in"}}); err != nil {
		t.Fatal(err)
	}
	rt.body = `{"data":{"requestId":"r1","channel":"SILENT","status":"pending","expiresAt":"2030-01-01T00:10:00Z","to":"+44*******457",
		"silent":{"url":"https://silent.test.invalid/check/abc"}}}`
	entry, err := cv.SendCode(ctx, SendCodeRequest{Channel: ChannelSilent, Phone: "+447911123457", Fallback: ChannelSMS})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		`{"channel":"EMAIL","email":"j@example.com","link":{}}`,
		`{"channel":"EMAIL","email":"j@example.com","link":{"redirectUrl":"https://app.example.com/in"}}`,
		`{"channel":"SILENT","phone":"+447911123457","fallback":"SMS"}`,
	} {
		if rt.bodies[i] != want {
			t.Fatalf("body %d:\n got  %s\n want %s", i, rt.bodies[i], want)
		}
	}
	if entry.Channel != ChannelSilent || entry.Silent == nil || entry.Silent.URL != "https://silent.test.invalid/check/abc" || entry.Fallback != nil {
		t.Fatalf("entry: %+v", entry)
	}

	rt.body = `{"data":{"verified":false,"channel":"SILENT","requestId":"r1","status":"pending","attemptsRemaining":4,
		"silent":{"outcome":"rejected","reason":"another SIM"},
		"fallback":{"requestId":"r2","channel":"SMS","status":"pending","reason":"rejected","expiresAt":"2030-01-01T00:10:00Z"}}}`
	result, err := cv.VerifyCode(ctx, "r1", "")
	if err != nil {
		t.Fatal(err)
	}
	if rt.bodies[3] != `{"requestId":"r1"}` {
		t.Fatalf("a SILENT verify sends the id alone, got %s", rt.bodies[3])
	}
	if result.Silent == nil || result.Silent.Outcome != SilentRejected || result.Silent.Reason != "another SIM" ||
		result.Fallback == nil || result.Fallback.Channel != ChannelSMS || result.Fallback.Reason != FallbackRejected ||
		!result.Fallback.ExpiresAt.Equal(time.Date(2030, 1, 1, 0, 10, 0, 0, time.UTC)) {
		t.Fatalf("result: %+v", result)
	}
	// A provider that hands the device a code (Vonage): it goes with the id.
	if _, err := cv.VerifyCode(ctx, "r1", "Ab3_x9"); err != nil || rt.bodies[4] != `{"otpCode":"Ab3_x9","requestId":"r1"}` {
		t.Fatalf("body: %s, %v", rt.bodies[4], err)
	}
}
