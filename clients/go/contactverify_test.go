package contactverify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// answer is one scripted reply of the fake service.
type answer struct {
	status     int
	retryAfter string
	body       string
}

// script serves its answers in order (the last one again once they run out) and records requests.
type script struct {
	mu       sync.Mutex
	answers  []answer
	requests []*http.Request
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Clone(context.Background()))
	a := s.answers[0]
	if len(s.answers) > 1 {
		s.answers = s.answers[1:]
	}
	if a.retryAfter != "" {
		w.Header().Set("Retry-After", a.retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_, _ = w.Write([]byte(a.body))
}

func fail(code string) string {
	return `{"error":{"code":"` + code + `","message":"scripted","details":[{"field":"email","message":"m"}]}}`
}

const sent = `{"data":{"requestId":"0190a7c2-0000-7000-8000-000000000001","channel":"EMAIL","status":"pending","expiresAt":"2030-01-01T00:00:00Z","to":"j***@example.com"}}`

func serve(t *testing.T, answers ...answer) (*Client, *script) {
	t.Helper()
	s := &script{answers: answers}
	server := httptest.NewServer(s)
	t.Cleanup(server.Close)
	return New(server.URL, "cvk_test_key"), s
}

func TestRetriesA503AtMostMaxRetriesTimes(t *testing.T) {
	cv, s := serve(t, answer{503, "0", fail("UNAVAILABLE")})
	_, err := cv.Health(context.Background())
	if !IsCode(err, CodeUnavailable) || len(s.requests) != 3 {
		t.Fatalf("want UNAVAILABLE after 1 + 2 requests, got %v after %d", err, len(s.requests))
	}
	cv, s = serve(t, answer{503, "0", fail("UNAVAILABLE")})
	_, _ = cv.Health(context.Background(), WithMaxRetries(0))
	if len(s.requests) != 1 {
		t.Fatalf("WithMaxRetries(0): want 1 request, got %d", len(s.requests))
	}
}

func TestA503WithoutRetryAfterBacksOff(t *testing.T) {
	cv, s := serve(t, answer{503, "", "<html>proxy</html>"}, answer{200, "", `{"status":"ok"}`})
	started := time.Now()
	health, err := cv.Health(context.Background())
	if err != nil || health.Status != "ok" || len(s.requests) != 2 {
		t.Fatalf("want ok after 2 requests, got %v, %v after %d", health, err, len(s.requests))
	}
	if waited := time.Since(started); waited < 200*time.Millisecond {
		t.Fatalf("want a backoff of 250 ms, waited %v", waited)
	}
}

func TestRetriesRateLimitedOnlyWithAShortRetryAfter(t *testing.T) {
	cv, s := serve(t, answer{429, "0", fail("RATE_LIMITED")}, answer{200, "", sent})
	if _, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com"}); err != nil || len(s.requests) != 2 {
		t.Fatalf("want the entry after 2 requests, got %v after %d", err, len(s.requests))
	}
	for _, retryAfter := range []string{"", "11"} {
		cv, s = serve(t, answer{429, retryAfter, fail("RATE_LIMITED")})
		_, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com"})
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeRateLimited || e.Status != 429 || len(s.requests) != 1 {
			t.Fatalf("Retry-After %q: want RATE_LIMITED at once, got %v after %d", retryAfter, err, len(s.requests))
		}
		if retryAfter == "11" && e.RetryAfter != 11*time.Second {
			t.Fatalf("want RetryAfter 11s, got %v", e.RetryAfter)
		}
	}
}

func TestNeverRetriesOtherClientErrors(t *testing.T) {
	for _, code := range []struct {
		status int
		code   ErrorCode
	}{{429, CodeTooManyAttempts}, {401, CodeUnauthorized}, {400, CodeValidationError}, {404, CodeNotFound}} {
		cv, s := serve(t, answer{code.status, "0", fail(string(code.code))})
		_, err := cv.VerifyCode(context.Background(), "0190a7c2-0000-7000-8000-000000000001", "123456")
		var e *Error
		if !errors.As(err, &e) || e.Code != code.code || e.Status != code.status || len(s.requests) != 1 {
			t.Fatalf("%s: want it at once, got %v after %d", code.code, err, len(s.requests))
		}
		if len(e.Details) != 1 || e.Details[0].Field != "email" || e.Message != "scripted" {
			t.Fatalf("%s: details and message not carried: %+v", code.code, e)
		}
	}
}

func TestEverySendHasOneIdempotencyKeyAcrossItsRetries(t *testing.T) {
	cv, s := serve(t, answer{503, "0", fail("UNAVAILABLE")}, answer{503, "0", fail("UNAVAILABLE")}, answer{200, "", sent})
	if _, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com"}); err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, r := range s.requests {
		keys = append(keys, r.Header.Get("Idempotency-Key"))
	}
	if len(keys) != 4 || keys[0] == "" || keys[0] != keys[1] || keys[1] != keys[2] || keys[3] == keys[0] {
		t.Fatalf("want one key for the 3 attempts of the first send and a new one for the second, got %q", keys)
	}
	if len(keys[0]) != 36 || strings.Count(keys[0], "-") != 4 || keys[0][14] != '4' {
		t.Fatalf("want a random (v4) UUID, got %q", keys[0])
	}
	cv, s = serve(t, answer{200, "", sent})
	_, _ = cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com", IdempotencyKey: "order-42"})
	if got := s.requests[0].Header.Get("Idempotency-Key"); got != "order-42" {
		t.Fatalf("want the caller's key, got %q", got)
	}
}

func TestSendsItsUserAgentAndKey(t *testing.T) {
	cv, s := serve(t, answer{200, "", `{"status":"ok"}`})
	_, _ = cv.Health(context.Background())
	r := s.requests[0]
	if r.Header.Get("User-Agent") != "contact-verify-go/"+Version || r.Header.Get("Authorization") != "Bearer cvk_test_key" {
		t.Fatalf("headers: %v", r.Header)
	}
}
