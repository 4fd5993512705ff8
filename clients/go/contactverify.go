// Package contactverify is a client of the contact verification service: it sends one-time codes
// by EMAIL, SMS, WHATSAPP or VOICE, checks SILENT requests through the mobile network, verifies
// them, and reads or cancels a request (GetVerification, CancelVerification).
//
// Every call takes a context.Context first. A failed call returns an *Error (use errors.As or
// IsCode) carrying the HTTP status, the contract's ErrorCode, the message, the details and the
// service's Retry-After. 503 answers and 429 RATE_LIMITED answers with a short Retry-After are
// retried (2 times by default); every send carries an Idempotency-Key kept across its retries, so
// a retry never sends a second code.
package contactverify

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Version of this library, sent in the User-Agent.
const Version = "0.2.0"

// Options are a client's settings. New takes functions that change them, and so does every call
// (for that call only): WithHTTPClient, WithMaxRetries, WithMaxRetryAfter, or your own func.
type Options struct {
	// HTTPClient makes the requests (default: a client with a 10 s timeout). Bring your own for a
	// proxy, TLS settings, tracing or tests.
	HTTPClient *http.Client
	// MaxRetries bounds the retries of 503 and of 429 RATE_LIMITED with Retry-After (default 2).
	MaxRetries int
	// MaxRetryAfter: a 429 asking for a longer wait is returned at once for the caller to show (a
	// resend cooldown); a 503's wait is cut to it (default 10 s).
	MaxRetryAfter time.Duration
}

// WithHTTPClient makes requests with hc.
func WithHTTPClient(hc *http.Client) func(*Options) {
	return func(o *Options) { o.HTTPClient = hc }
}

// WithMaxRetries sets how many times a 503 or a short RATE_LIMITED is retried (0: never).
func WithMaxRetries(n int) func(*Options) {
	return func(o *Options) { o.MaxRetries = n }
}

// WithMaxRetryAfter sets the longest Retry-After that is waited for.
func WithMaxRetryAfter(d time.Duration) func(*Options) {
	return func(o *Options) { o.MaxRetryAfter = d }
}

// Client calls the API with one key. It is safe for concurrent use.
type Client struct {
	baseURL string
	token   string
	options Options
}

// New returns a client of the service at baseURL (http://127.0.0.1:8080) using apiKey.
func New(baseURL, apiKey string, optFns ...func(*Options)) *Client {
	o := Options{HTTPClient: &http.Client{Timeout: 10 * time.Second}, MaxRetries: 2, MaxRetryAfter: 10 * time.Second}
	for _, fn := range optFns {
		fn(&o)
	}
	return &Client{baseURL: strings.TrimRight(baseURL, "/"), token: apiKey, options: o}
}

// SendCode sends a code on one channel (req.Channel) and returns its entry.
func (c *Client) SendCode(ctx context.Context, req SendCodeRequest, optFns ...func(*Options)) (*SendCodeEntry, error) {
	if len(req.Channels) > 0 {
		return nil, &Error{Code: CodeValidationError, Message: "SendCode sends on one channel: use SendCodeDual for Channels"}
	}
	var out struct{ Data SendCodeEntry }
	if err := c.send(ctx, req, &out, optFns); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// SendCodeDual sends a code on two channels at once (req.Channels) and returns one entry per
// channel, in the order of Channels; either code verifies the pair.
func (c *Client) SendCodeDual(ctx context.Context, req SendCodeRequest, optFns ...func(*Options)) ([]SendCodeEntry, error) {
	if len(req.Channels) != 2 || req.Channel != "" {
		return nil, &Error{Code: CodeValidationError, Message: "SendCodeDual needs two Channels and no Channel"}
	}
	var out struct{ Data []SendCodeEntry }
	if err := c.send(ctx, req, &out, optFns); err != nil {
		return nil, err
	}
	return out.Data, nil
}

func (c *Client) send(ctx context.Context, req SendCodeRequest, out any, optFns []func(*Options)) error {
	key := req.IdempotencyKey
	if key == "" {
		key = randomUUID()
	}
	return c.call(ctx, http.MethodPost, "/v1/contact/send-code", req, out, optFns, key)
}

// VerifyCode checks the code the user typed for requestID (any entry's, for a dual send). For a
// SILENT request pass an empty otpCode (its provider is asked: see the result's Silent.Outcome), or
// the code the device received from Silent.URL when its provider hands one out.
func (c *Client) VerifyCode(ctx context.Context, requestID, otpCode string, optFns ...func(*Options)) (*VerifyCodeResult, error) {
	var out struct{ Data VerifyCodeResult }
	body := map[string]string{"requestId": requestID}
	if otpCode != "" {
		body["otpCode"] = otpCode
	}
	if err := c.call(ctx, http.MethodPost, "/v1/contact/verify-code", body, &out, optFns, ""); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// GetVerification reads a request as it is now: its status, how and when it was verified, its
// delivery. An unknown id (or another account's) is a 404 NOT_FOUND *Error.
func (c *Client) GetVerification(ctx context.Context, requestID string, optFns ...func(*Options)) (*Verification, error) {
	var out struct{ Data Verification }
	if err := c.call(ctx, http.MethodGet, verificationPath(requestID), nil, &out, optFns, ""); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// CancelVerification cancels a pending request and its dual sibling (their codes no longer
// verify) and returns it; a settled request is returned as it is, so a repeated cancel is safe.
func (c *Client) CancelVerification(ctx context.Context, requestID string, optFns ...func(*Options)) (*Verification, error) {
	var out struct{ Data Verification }
	// An empty object: the cancel takes no field.
	if err := c.call(ctx, http.MethodPost, verificationPath(requestID)+"/cancel", struct{}{}, &out, optFns, ""); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

func verificationPath(requestID string) string {
	return "/v1/contact/verifications/" + url.PathEscape(requestID)
}

// Health reads the service's health (no key needed).
func (c *Client) Health(ctx context.Context, optFns ...func(*Options)) (*Health, error) {
	var out Health
	if err := c.call(ctx, http.MethodGet, "/health", nil, &out, optFns, ""); err != nil {
		return nil, err
	}
	return &out, nil
}

// TestOutbox reads the built-in outbox (GET /v1/admin/outbox) with the ADMIN token, for
// automated tests of code built on a test-mode key (cvk_test_...): codes of test-mode requests
// stay in the outbox, readable while pending. Never use it in production code.
type TestOutbox struct{ c *Client }

// NewTestOutbox returns a reader of the outbox of the service at baseURL.
func NewTestOutbox(baseURL, adminToken string, optFns ...func(*Options)) *TestOutbox {
	return &TestOutbox{c: New(baseURL, adminToken, optFns...)}
}

// Messages lists the messages sent to a destination (an email address or a +phone), newest first.
func (o *TestOutbox) Messages(ctx context.Context, to string) ([]OutboxMessage, error) {
	var out struct{ Data []OutboxMessage }
	path := "/v1/admin/outbox?to=" + url.QueryEscape(to)
	if err := o.c.call(ctx, http.MethodGet, path, nil, &out, nil, ""); err != nil {
		return nil, err
	}
	return out.Data, nil
}

// LatestOutboxCode returns the code of the newest message sent to a destination; a *NoCodeError
// when there is none (no message, a live request's, or a request no longer pending).
func (o *TestOutbox) LatestOutboxCode(ctx context.Context, to string) (string, error) {
	messages, err := o.Messages(ctx, to)
	if err != nil {
		return "", err
	}
	if len(messages) == 0 || messages[0].Code == "" {
		return "", &NoCodeError{To: to}
	}
	return messages[0].Code, nil
}

func (c *Client) call(ctx context.Context, method, path string, body, out any, optFns []func(*Options), idempotencyKey string) error {
	o := c.options
	for _, fn := range optFns {
		fn(&o)
	}
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		apiErr := c.once(ctx, o.HTTPClient, method, path, raw, out, idempotencyKey)
		if apiErr == nil {
			return nil
		}
		wait, retry := retryDelay(apiErr, attempt, o.MaxRetryAfter)
		if attempt >= o.MaxRetries || !retry {
			return apiErr
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return &Error{Code: CodeNetworkError, Message: ctx.Err().Error(), cause: ctx.Err()}
		case <-timer.C:
		}
	}
}

// retryDelay: a 503 is retried after its Retry-After (cut to maxWait) or a growing backoff; a
// RATE_LIMITED 429 only when its Retry-After is short (a per-second limit, not a cooldown).
func retryDelay(e *Error, attempt int, maxWait time.Duration) (time.Duration, bool) {
	switch {
	case e.Status == http.StatusServiceUnavailable && e.hasRetryAfter:
		if e.RetryAfter > maxWait {
			return maxWait, true
		}
		return e.RetryAfter, true
	case e.Status == http.StatusServiceUnavailable:
		return time.Duration(250<<attempt) * time.Millisecond, true
	case e.Status == http.StatusTooManyRequests && e.Code == CodeRateLimited && e.hasRetryAfter:
		return e.RetryAfter, e.RetryAfter <= maxWait
	}
	return 0, false
}

func (c *Client) once(ctx context.Context, hc *http.Client, method, path string, body []byte, out any, idempotencyKey string) *Error {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, reader)
	if err != nil {
		return &Error{Code: CodeNetworkError, Message: err.Error(), cause: err}
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", "contact-verify-go/"+Version)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	res, err := hc.Do(req)
	if err != nil {
		return &Error{Code: CodeNetworkError, Message: err.Error(), cause: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return &Error{Code: CodeNetworkError, Message: err.Error(), cause: err}
	}
	if res.StatusCode < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			return &Error{Status: res.StatusCode, Code: CodeInternal, Message: "unreadable answer: " + err.Error(), cause: err}
		}
		return nil
	}
	var parsed struct{ Error *Error }
	if json.Unmarshal(raw, &parsed) != nil || parsed.Error == nil || parsed.Error.Code == "" {
		// Not the service's error body (a proxy's page): the status says what happened.
		parsed.Error = &Error{Code: CodeInternal, Message: fmt.Sprintf("HTTP %d", res.StatusCode)}
		if res.StatusCode == http.StatusServiceUnavailable {
			parsed.Error.Code = CodeUnavailable
		}
	}
	apiErr := parsed.Error
	apiErr.Status = res.StatusCode
	if s, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After"))); err == nil && s >= 0 {
		apiErr.RetryAfter, apiErr.hasRetryAfter = time.Duration(s)*time.Second, true
	}
	return apiErr
}

func randomUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("contactverify: the OS random source failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
