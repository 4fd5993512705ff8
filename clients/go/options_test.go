package contactverify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// recorder is an http.RoundTripper that answers every request itself and keeps what it was sent.
type recorder struct {
	status int
	body   string
	seen   []*http.Request
	bodies []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	raw := ""
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		raw = string(b)
	}
	r.seen = append(r.seen, req)
	r.bodies = append(r.bodies, raw)
	return &http.Response{
		StatusCode: r.status,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(strings.NewReader(r.body)),
		Request:    req,
	}, nil
}

func TestTheInjectedHTTPClientMakesEveryRequest(t *testing.T) {
	rt := &recorder{status: 200, body: sent}
	cv := New("http://service.invalid/", "cvk_test_key", WithHTTPClient(&http.Client{Transport: rt}))
	if _, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelEmail, Email: "j@example.com"}); err != nil {
		t.Fatal(err)
	}
	if len(rt.seen) != 1 || rt.seen[0].URL.String() != "http://service.invalid/v1/contact/send-code" {
		t.Fatalf("want one request through the injected client, got %v", rt.seen)
	}
	// Per call, too.
	other := &recorder{status: 200, body: `{"status":"ok"}`}
	if _, err := cv.Health(context.Background(), WithHTTPClient(&http.Client{Transport: other})); err != nil || len(other.seen) != 1 || len(rt.seen) != 1 {
		t.Fatalf("per-call client: %v, %d, %d", err, len(other.seen), len(rt.seen))
	}
}

func TestEverySendOptionReachesTheBody(t *testing.T) {
	rt := &recorder{status: 200, body: `{"data":[` + strings.TrimSuffix(strings.TrimPrefix(sent, `{"data":`), "}") + `,` +
		strings.TrimSuffix(strings.TrimPrefix(sent, `{"data":`), "}") + `]}`}
	cv := New("http://service.invalid", "k", WithHTTPClient(&http.Client{Transport: rt}))
	entries, err := cv.SendCodeDual(context.Background(), SendCodeRequest{
		Channels: []Channel{ChannelWhatsApp, ChannelEmail}, Email: "j@example.com", Phone: "+33612345678",
		Country: "FR", DeliveryType: DeliveryCall, Purpose: "checkout", CustomMessage: "Almost done.",
		Locale: "pt-BR", IdempotencyKey: "order-42",
	})
	if err != nil || len(entries) != 2 {
		t.Fatalf("want two entries, got %v, %v", entries, err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(rt.bodies[0]), &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"channels": []any{"WHATSAPP", "EMAIL"}, "email": "j@example.com", "phone": "+33612345678", "country": "FR",
		"deliveryType": "CALL", "purpose": "checkout", "customMessage": "Almost done.", "locale": "pt-BR",
	}
	got, _ := json.Marshal(body)
	expected, _ := json.Marshal(want)
	if string(got) != string(expected) {
		t.Fatalf("body:\n got  %s\n want %s", got, expected)
	}
	if rt.seen[0].Header.Get("Idempotency-Key") != "order-42" {
		t.Fatalf("the caller's key goes in the header, got %q", rt.seen[0].Header.Get("Idempotency-Key"))
	}
	// One channel with Channels, or two without, is refused before any request.
	if _, err := cv.SendCode(context.Background(), SendCodeRequest{Channels: []Channel{ChannelSMS, ChannelEmail}}); !IsCode(err, CodeValidationError) {
		t.Fatalf("SendCode with Channels: %v", err)
	}
	if _, err := cv.SendCodeDual(context.Background(), SendCodeRequest{Channel: ChannelSMS}); !IsCode(err, CodeValidationError) || len(rt.seen) != 1 {
		t.Fatalf("SendCodeDual with Channel: %v", err)
	}
}

func TestAnswersAreTyped(t *testing.T) {
	rt := &recorder{status: 200, body: `{"data":{"requestId":"r1","channel":"SMS","status":"pending","expiresAt":"2030-01-02T03:04:05.678Z","to":"+33*****78",
		"risk":{"score":20,"level":"low","signals":[{"name":"number_type","weight":20,"detail":"a VOIP number"}]}}}`}
	cv := New("http://service.invalid", "k", WithHTTPClient(&http.Client{Transport: rt}))
	entry, err := cv.SendCode(context.Background(), SendCodeRequest{Channel: ChannelSMS, Phone: "+33612345678"})
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2030, 1, 2, 3, 4, 5, 678e6, time.UTC)
	if !entry.ExpiresAt.Equal(want) || entry.Status != EntryPending || entry.Channel != ChannelSMS {
		t.Fatalf("entry: %+v", entry)
	}
	if entry.Risk == nil || entry.Risk.Level != RiskLow || entry.Risk.Signals[0].Weight != 20 {
		t.Fatalf("risk: %+v", entry.Risk)
	}
	rt.body = `{"data":{"verified":true,"channel":"SMS","requestId":"r1","status":"verified","attemptsRemaining":4}}`
	result, err := cv.VerifyCode(context.Background(), "r1", "123456")
	if err != nil || !result.Verified || result.Status != StatusVerified {
		t.Fatalf("result: %+v, %v", result, err)
	}
	rt.body = `{"status":"ok","version":"1","uptimeSeconds":5,"services":{"database":"up","rateLimitStore":"up"},"channels":{},
		"instances":{"live":1,"withoutRedis":0},
		"codeSecretRotation":{"previousSecrets":1,"since":"2030-01-01T00:00:00.000Z","removableAfter":"2030-01-02T00:00:00.000Z"}}`
	health, err := cv.Health(context.Background())
	if err != nil || health.CodeSecretRotation == nil || health.CodeSecretRotation.PreviousSecrets != 1 ||
		!health.CodeSecretRotation.RemovableAfter.Equal(time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("health: %+v, %v", health, err)
	}
}

func TestACanceledContextEndsTheWaitForARetry(t *testing.T) {
	cv, s := serve(t, answer{503, "5", fail("UNAVAILABLE")})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	started := time.Now()
	_, err := cv.Health(ctx)
	if !errors.Is(err, context.Canceled) || !IsCode(err, CodeNetworkError) || len(s.requests) != 1 {
		t.Fatalf("want a NETWORK_ERROR wrapping context.Canceled after 1 request, got %v after %d", err, len(s.requests))
	}
	if time.Since(started) > 4*time.Second {
		t.Fatal("waited for the Retry-After despite the canceled context")
	}
}

func TestANetworkErrorIsTypedAndWrapsTheCause(t *testing.T) {
	cv := New("http://127.0.0.1:1", "k", WithMaxRetries(0))
	_, err := cv.Health(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeNetworkError || e.Status != 0 || errors.Unwrap(e) == nil {
		t.Fatalf("want NETWORK_ERROR with its cause, got %#v", err)
	}
}

func TestLatestOutboxCodeReadsTheNewestItemsCode(t *testing.T) {
	rt := &recorder{status: 200, body: `{"data":[
		{"id":"msg_2","accountId":"acc","requestId":"r2","status":"pending","channel":"EMAIL","to":"j@example.com","text":"Your code is 654321","code":"654321","createdAt":"2030-01-01T00:00:02Z"},
		{"id":"msg_1","accountId":"acc","requestId":"r1","status":"pending","channel":"EMAIL","to":"j@example.com","text":"Your code is 123456","code":"123456","createdAt":"2030-01-01T00:00:01Z"}]}`}
	outbox := NewTestOutbox("http://service.invalid", "admin-token", WithHTTPClient(&http.Client{Transport: rt}))
	code, err := outbox.LatestOutboxCode(context.Background(), "j+1@example.com")
	if err != nil || code != "654321" {
		t.Fatalf("want the newest code, got %q, %v", code, err)
	}
	r := rt.seen[0]
	if r.URL.Path != "/v1/admin/outbox" || r.URL.Query().Get("to") != "j+1@example.com" || r.Header.Get("Authorization") != "Bearer admin-token" {
		t.Fatalf("request: %v %v", r.URL, r.Header)
	}
	// The newest message carries no code (a live request's, or no longer pending): no code.
	rt.body = `{"data":[{"id":"msg_3","accountId":"acc","requestId":"r3","status":"verified","channel":"EMAIL","to":"j@example.com","text":"Your code is ******","createdAt":"2030-01-01T00:00:03Z"},
		{"id":"msg_2","accountId":"acc","requestId":"r2","status":"pending","channel":"EMAIL","to":"j@example.com","text":"Your code is 654321","code":"654321","createdAt":"2030-01-01T00:00:02Z"}]}`
	_, err = outbox.LatestOutboxCode(context.Background(), "j@example.com")
	var none *NoCodeError
	if !errors.As(err, &none) || none.To != "j@example.com" {
		t.Fatalf("want a *NoCodeError, got %v", err)
	}
	rt.body = `{"data":[]}`
	if _, err = outbox.LatestOutboxCode(context.Background(), "j@example.com"); !errors.As(err, &none) {
		t.Fatalf("empty outbox: want a *NoCodeError, got %v", err)
	}
	rt.status, rt.body = 401, fail("UNAUTHORIZED")
	if _, err = outbox.LatestOutboxCode(context.Background(), "j@example.com"); !IsCode(err, CodeUnauthorized) {
		t.Fatalf("a wrong token: want UNAUTHORIZED, got %v", err)
	}
}
