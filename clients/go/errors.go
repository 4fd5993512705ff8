package contactverify

import (
	"errors"
	"fmt"
	"time"
)

// ErrorCode is the contract's stable, machine-readable code of a failure (schema ErrorCode).
type ErrorCode string

// The contract's closed list of error codes (the HTTP status of each is in the API description).
const (
	CodeValidationError      ErrorCode = "VALIDATION_ERROR"
	CodeInvalidJSON          ErrorCode = "INVALID_JSON"
	CodeInvalidDestination   ErrorCode = "INVALID_DESTINATION"
	CodeUnsupportedNumber    ErrorCode = "UNSUPPORTED_NUMBER"
	CodeUnauthorized         ErrorCode = "UNAUTHORIZED"
	CodeForbidden            ErrorCode = "FORBIDDEN"
	CodeChannelNotEnabled    ErrorCode = "CHANNEL_NOT_ENABLED"
	CodeContactBlocked       ErrorCode = "CONTACT_BLOCKED"
	CodeRiskTooHigh          ErrorCode = "RISK_TOO_HIGH"
	CodeNotFound             ErrorCode = "NOT_FOUND"
	CodeRequestTimeout       ErrorCode = "REQUEST_TIMEOUT"
	CodeIdempotencyKeyInUse  ErrorCode = "IDEMPOTENCY_KEY_IN_USE"
	CodePayloadTooLarge      ErrorCode = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType ErrorCode = "UNSUPPORTED_MEDIA_TYPE"
	CodeIdempotencyKeyReused ErrorCode = "IDEMPOTENCY_KEY_REUSED"
	CodeRateLimited          ErrorCode = "RATE_LIMITED"
	CodeTooManyAttempts      ErrorCode = "TOO_MANY_ATTEMPTS"
	CodeHeadersTooLarge      ErrorCode = "HEADERS_TOO_LARGE"
	CodeInternal             ErrorCode = "INTERNAL"
	CodeDeliveryFailed       ErrorCode = "DELIVERY_FAILED"
	CodeUnavailable          ErrorCode = "UNAVAILABLE"
	CodeChannelUnavailable   ErrorCode = "CHANNEL_UNAVAILABLE"
)

// CodeNetworkError is this library's own code, not the service's: no answer came (a refused
// connection, a timeout, a body cut short); the Error's Status is 0.
const CodeNetworkError ErrorCode = "NETWORK_ERROR"

// Error is every failed call: the service's error body (schema ApiError) with the HTTP status and
// Retry-After. Get it with errors.As; IsCode tests its Code.
type Error struct {
	// Status is the HTTP status, 0 when no answer came (CodeNetworkError).
	Status  int           `json:"-"`
	Code    ErrorCode     `json:"code"`
	Message string        `json:"message"`
	Details []ErrorDetail `json:"details,omitempty"`
	// RetryAfter is the service's Retry-After (a resend cooldown, a per-second limit, a 503): how
	// long to wait before trying again; zero when it sent none.
	RetryAfter time.Duration `json:"-"`

	hasRetryAfter bool
	cause         error
}

// ErrorDetail is one problem with one field of a request.
type ErrorDetail struct {
	Field   string  `json:"field"`
	Message string  `json:"message"`
	Channel Channel `json:"channel,omitempty"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("contactverify: %d %s: %s", e.Status, e.Code, e.Message)
}

// Unwrap gives the transport's error of a CodeNetworkError (a *url.Error, context.Canceled, ...).
func (e *Error) Unwrap() error { return e.cause }

// IsCode reports whether err is, or wraps, an *Error with this code.
func IsCode(err error, code ErrorCode) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// NoCodeError is the test helper's answer when the outbox holds no code for a destination: no
// message at all, or only messages of live requests or of requests that left pending.
type NoCodeError struct {
	To string
}

func (e *NoCodeError) Error() string {
	return fmt.Sprintf("contactverify: no pending test-mode code in the outbox for %s", e.To)
}
