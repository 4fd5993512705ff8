// Package contactverify is a client of the contact verification service: it sends one-time
// codes by EMAIL, SMS or WHATSAPP and verifies them.
package contactverify

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Version of this library, sent in the User-Agent.
const Version = "0.1.0"

// Channel is EMAIL, SMS or WHATSAPP.
type Channel string

const (
	Email    Channel = "EMAIL"
	SMS      Channel = "SMS"
	WhatsApp Channel = "WHATSAPP"
)

// SendRequest is the send-code body: Channel for one channel, Channels for two at once.
type SendRequest struct {
	Channel       Channel   `json:"channel,omitempty"`
	Channels      []Channel `json:"channels,omitempty"`
	Email         string    `json:"email,omitempty"`
	Phone         string    `json:"phone,omitempty"`
	Country       string    `json:"country,omitempty"`
	DeliveryType  string    `json:"deliveryType,omitempty"`
	Purpose       string    `json:"purpose,omitempty"`
	CustomMessage string    `json:"customMessage,omitempty"`
	// Locale is the recipient's BCP 47 language tag (es, pt-BR, de-AT); English when unsupported.
	Locale string `json:"locale,omitempty"`
}

// RiskSignal is one reason behind a risk score.
type RiskSignal struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	Detail string  `json:"detail,omitempty"`
}

// Risk is the score (0-100) the service gave a send, with its level and signals.
type Risk struct {
	Score   int          `json:"score"`
	Level   string       `json:"level"`
	Signals []RiskSignal `json:"signals"`
}

// SendEntry is one channel of a send; keep RequestID to verify the code.
type SendEntry struct {
	RequestID    string      `json:"requestId"`
	Channel      Channel     `json:"channel"`
	Status       string      `json:"status"`
	ExpiresAt    time.Time   `json:"expiresAt"`
	To           string      `json:"to"`
	DeliveryType string      `json:"deliveryType,omitempty"`
	Error        *EntryError `json:"error,omitempty"`
	Risk         *Risk       `json:"risk,omitempty"`
}

// EntryError says why one channel of a dual send was not delivered.
type EntryError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// VerifyResult is the answer of verify-code; a wrong code is Verified false, not an error.
type VerifyResult struct {
	Verified          bool    `json:"verified"`
	Channel           Channel `json:"channel"`
	RequestID         string  `json:"requestId"`
	Status            string  `json:"status"`
	AttemptsRemaining int     `json:"attemptsRemaining"`
}

// Health is the answer of GET /health: Status is ok, degraded or down.
type Health struct {
	Status        string                   `json:"status"`
	Version       string                   `json:"version"`
	UptimeSeconds float64                  `json:"uptimeSeconds"`
	Services      map[string]string        `json:"services"`
	Channels      map[string]ChannelHealth `json:"channels"`
	// PumpingBreakers counts the SMS-pumping breakers tripped now, per country.
	PumpingBreakers []PumpingBreakers `json:"pumpingBreakers,omitempty"`
}

// ChannelHealth says whether a channel can deliver, and the state of each of its providers.
type ChannelHealth struct {
	Operational bool `json:"operational"`
	Providers   []struct {
		Name  string `json:"name"`
		State string `json:"state"`
	} `json:"providers"`
}

// PumpingBreakers is how many SMS-pumping breakers (over every account and mode) stop sends to
// Country; which accounts, on the admin API.
type PumpingBreakers struct {
	Country string `json:"country"`
	Count   int    `json:"count"`
}

// ErrorDetail is one problem with one field of a request.
type ErrorDetail struct {
	Field   string `json:"field"`
	Message string `json:"message"`
	Channel string `json:"channel,omitempty"`
}

// Error is every failed call: the service's error body, the HTTP status and Retry-After.
// Code is the contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED, ...), or
// NETWORK_ERROR with Status 0 when no answer came. Use errors.As to get it.
type Error struct {
	Status     int
	Code       string
	Message    string
	Details    []ErrorDetail
	RetryAfter *int // seconds, when the service sent Retry-After
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// The contract's error codes a caller most often acts on (Error.Code holds any of the contract's).
const (
	CodeValidation      = "VALIDATION_ERROR"
	CodeUnauthorized    = "UNAUTHORIZED"
	CodeNotFound        = "NOT_FOUND"
	CodeRateLimited     = "RATE_LIMITED"
	CodeTooManyAttempts = "TOO_MANY_ATTEMPTS"
	CodeDeliveryFailed  = "DELIVERY_FAILED"
	CodeUnavailable     = "UNAVAILABLE"
	// CodeNetwork is no answer at all (Status 0): a refused connection or a timeout.
	CodeNetwork = "NETWORK_ERROR"
)

// IsCode reports whether err is an *Error with this code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Client calls the API. Build it with New; it is safe for concurrent use.
type Client struct {
	BaseURL string
	APIKey  string
	// MaxRetries bounds retries of 503 and of 429 RATE_LIMITED with Retry-After (default 2).
	MaxRetries int
	// MaxRetryAfter: a longer Retry-After is not waited for, the error is returned (default 10 s).
	MaxRetryAfter time.Duration
	HTTP          *http.Client
}

// New returns a client with a 10 s timeout and 2 retries.
func New(baseURL, apiKey string) *Client {
	return &Client{
		BaseURL:       strings.TrimRight(baseURL, "/"),
		APIKey:        apiKey,
		MaxRetries:    2,
		MaxRetryAfter: 10 * time.Second,
		HTTP:          &http.Client{Timeout: 10 * time.Second},
	}
}

// CallOption changes one call.
type CallOption func(*callOptions)

type callOptions struct {
	maxRetries     *int
	idempotencyKey string
}

// WithMaxRetries overrides the client's MaxRetries for one call.
func WithMaxRetries(n int) CallOption { return func(o *callOptions) { o.maxRetries = &n } }

// WithIdempotencyKey sets the send's Idempotency-Key (a random one is made otherwise).
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = key }
}

// SendCode sends a code on one channel and returns its entry.
func (c *Client) SendCode(ctx context.Context, req SendRequest, opts ...CallOption) (*SendEntry, error) {
	if len(req.Channels) > 0 {
		return nil, &Error{Status: 0, Code: "VALIDATION_ERROR", Message: "use SendCodeDual for two channels"}
	}
	var out struct{ Data SendEntry }
	if err := c.send(ctx, req, &out, opts); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// SendCodeDual sends a code on two channels at once and returns one entry per channel, in order.
func (c *Client) SendCodeDual(ctx context.Context, req SendRequest, opts ...CallOption) ([]SendEntry, error) {
	var out struct{ Data []SendEntry }
	if err := c.send(ctx, req, &out, opts); err != nil {
		return nil, err
	}
	return out.Data, nil
}

func (c *Client) send(ctx context.Context, req SendRequest, out any, opts []CallOption) error {
	o := options(opts)
	key := o.idempotencyKey
	if key == "" {
		key = randomUUID()
	}
	return c.call(ctx, http.MethodPost, "/v1/contact/send-code", req, out, o, map[string]string{"Idempotency-Key": key})
}

// VerifyCode checks a code.
func (c *Client) VerifyCode(ctx context.Context, requestID, otpCode string, opts ...CallOption) (*VerifyResult, error) {
	var out struct{ Data VerifyResult }
	body := map[string]string{"requestId": requestID, "otpCode": otpCode}
	if err := c.call(ctx, http.MethodPost, "/v1/contact/verify-code", body, &out, options(opts), nil); err != nil {
		return nil, err
	}
	return &out.Data, nil
}

// Health reads the service's health (no key needed).
func (c *Client) Health(ctx context.Context, opts ...CallOption) (*Health, error) {
	var out Health
	if err := c.call(ctx, http.MethodGet, "/health", nil, &out, options(opts), nil); err != nil {
		return nil, err
	}
	return &out, nil
}

func options(opts []CallOption) callOptions {
	var o callOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func (c *Client) call(ctx context.Context, method, path string, body, out any, o callOptions, headers map[string]string) error {
	limit := c.MaxRetries
	if o.maxRetries != nil {
		limit = *o.maxRetries
	}
	for attempt := 0; ; attempt++ {
		err := c.once(ctx, method, path, body, out, headers)
		var apiErr *Error
		if err == nil || !errors.As(err, &apiErr) {
			return err
		}
		wait, retry := c.retryDelay(apiErr, attempt)
		if attempt >= limit || !retry {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

func (c *Client) retryDelay(e *Error, attempt int) (time.Duration, bool) {
	if e.Status == http.StatusServiceUnavailable {
		if e.RetryAfter != nil {
			wait := time.Duration(*e.RetryAfter) * time.Second
			if wait > c.MaxRetryAfter {
				wait = c.MaxRetryAfter
			}
			return wait, true
		}
		return time.Duration(250<<attempt) * time.Millisecond, true
	}
	if e.Status == http.StatusTooManyRequests && e.Code == "RATE_LIMITED" && e.RetryAfter != nil {
		wait := time.Duration(*e.RetryAfter) * time.Second
		return wait, wait <= c.MaxRetryAfter
	}
	return 0, false
}

func (c *Client) once(ctx context.Context, method, path string, body, out any, headers map[string]string) error {
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, reader)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.APIKey)
	req.Header.Set("User-Agent", "contact-verify-go/"+Version)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return &Error{Status: 0, Code: "NETWORK_ERROR", Message: err.Error()}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return &Error{Status: 0, Code: "NETWORK_ERROR", Message: err.Error()}
	}
	if res.StatusCode < 300 {
		return json.Unmarshal(raw, out)
	}
	var parsed struct {
		Error struct {
			Code    string        `json:"code"`
			Message string        `json:"message"`
			Details []ErrorDetail `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &parsed)
	apiErr := &Error{Status: res.StatusCode, Code: parsed.Error.Code, Message: parsed.Error.Message, Details: parsed.Error.Details}
	if apiErr.Code == "" {
		apiErr.Code = "INTERNAL"
		if res.StatusCode == http.StatusServiceUnavailable {
			apiErr.Code = "UNAVAILABLE"
		}
		apiErr.Message = fmt.Sprintf("HTTP %d", res.StatusCode)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
		apiErr.RetryAfter = &s
	}
	return apiErr
}

func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
