package contactverify

import "time"

// The models below mirror the named schemas of the service's OpenAPI document (clients/openapi.json):
// drift_test.go fails when a field or an enum value of the document is missing here, or the reverse.

// Channel is a delivery channel (schema Channel).
type Channel string

const (
	ChannelEmail    Channel = "EMAIL"
	ChannelSMS      Channel = "SMS"
	ChannelWhatsApp Channel = "WHATSAPP"
	// ChannelVoice is a phone call that reads the code.
	ChannelVoice Channel = "VOICE"
	// ChannelSilent is silent network authentication: the app opens the entry's Silent.URL on the
	// device over mobile data, then VerifyCode(ctx, requestID, "") asks the provider.
	ChannelSilent Channel = "SILENT"
)

// DeliveryType is how a WHATSAPP code is delivered (schema DeliveryType): a message or a call.
type DeliveryType string

const (
	DeliveryText DeliveryType = "TEXT"
	DeliveryCall DeliveryType = "CALL"
)

// VerificationStatus is the state of a verification request (schema VerificationStatus):
// pending, then verified, expired, failed (attempts used up) or canceled (superseded, or its dual
// sibling was verified).
type VerificationStatus string

const (
	StatusPending  VerificationStatus = "pending"
	StatusVerified VerificationStatus = "verified"
	StatusExpired  VerificationStatus = "expired"
	StatusFailed   VerificationStatus = "failed"
	StatusCanceled VerificationStatus = "canceled"
)

// VerificationMethod is how a request was verified (schema VerificationMethod): the code typed,
// the email's magic link, or the mobile network (SILENT). A value this version does not know is
// kept as it came.
type VerificationMethod string

const (
	MethodCode   VerificationMethod = "code"
	MethodLink   VerificationMethod = "link"
	MethodSilent VerificationMethod = "silent"
)

// DeliveryState is where the message (or call) that carries the code is (schema DeliveryState);
// the last four are calls'.
type DeliveryState string

const (
	DeliveryQueued             DeliveryState = "queued"
	DeliverySent               DeliveryState = "sent"
	DeliveryDelivered          DeliveryState = "delivered"
	DeliveryUndelivered        DeliveryState = "undelivered"
	DeliveryAwaitingPermission DeliveryState = "awaiting_permission"
	DeliveryCalling            DeliveryState = "calling"
	DeliveryAnswered           DeliveryState = "answered"
	DeliveryCompleted          DeliveryState = "completed"
)

// FallbackReason is why a SILENT request fell back to a code (schema FallbackReason).
type FallbackReason string

const (
	FallbackProviderFailed FallbackReason = "provider_failed"
	FallbackRejected       FallbackReason = "rejected"
	FallbackTimeout        FallbackReason = "timeout"
)

// FallbackState is what became of a SILENT request's fallback (Verification.Fallback.State):
// scheduled (waiting for silentTimeoutSeconds), fired (its code was sent) or dropped (not needed).
type FallbackState string

const (
	FallbackScheduled FallbackState = "scheduled"
	FallbackFired     FallbackState = "fired"
	FallbackDropped   FallbackState = "dropped"
)

// SilentOutcome is what the provider concluded of a SILENT request's check
// (VerifyCodeResult.Silent.Outcome): SilentPending means the device has not completed the URL
// yet, call again.
type SilentOutcome string

const (
	SilentVerified      SilentOutcome = "verified"
	SilentPending       SilentOutcome = "pending"
	SilentRejected      SilentOutcome = "rejected"
	SilentInvalidNumber SilentOutcome = "invalid_number"
	SilentUnavailable   SilentOutcome = "unavailable"
)

// EntryStatus is the state of one channel of a send (schema SendCodeEntryStatus): undelivered only
// in a dual answer whose other channel was delivered.
type EntryStatus string

const (
	EntryPending     EntryStatus = "pending"
	EntryUndelivered EntryStatus = "undelivered"
)

// RiskLevel is the band of a risk score (schema RiskLevel).
type RiskLevel string

const (
	RiskLow    RiskLevel = "low"
	RiskMedium RiskLevel = "medium"
	RiskHigh   RiskLevel = "high"
)

// HealthStatus is the service's overall state (schema HealthStatus): down is answered with 503.
type HealthStatus string

const (
	HealthOK       HealthStatus = "ok"
	HealthDegraded HealthStatus = "degraded"
	HealthDown     HealthStatus = "down"
)

// ServiceState says whether a service the API depends on answers (schema ServiceState).
type ServiceState string

const (
	ServiceUp   ServiceState = "up"
	ServiceDown ServiceState = "down"
)

// ProviderState is a provider's state by its circuit breaker and its check (schema ProviderState).
type ProviderState string

const (
	ProviderUp      ProviderState = "up"
	ProviderDown    ProviderState = "down"
	ProviderUnknown ProviderState = "unknown"
)

// LiveCodes is what becomes of live codes on a channel (schema LiveCodes).
type LiveCodes string

const (
	LiveCodesDelivered LiveCodes = "delivered"
	LiveCodesOutbox    LiveCodes = "outbox"
	LiveCodesRefused   LiveCodes = "refused"
)

// SendCodeRequest is the body of a send: Channel for one channel (SendCode), Channels for two at
// once (SendCodeDual). Empty fields are left out.
type SendCodeRequest struct {
	Channel  Channel   `json:"channel,omitempty"`
	Channels []Channel `json:"channels,omitempty"`
	// Email is required when EMAIL is used.
	Email string `json:"email,omitempty"`
	// Phone is required when SMS, WHATSAPP, VOICE or SILENT is used: + and the country code.
	Phone string `json:"phone,omitempty"`
	// Country is ISO 3166-1 alpha-2; inferred from the number when empty.
	Country string `json:"country,omitempty"`
	// DeliveryType is for WHATSAPP only (TEXT by default).
	DeliveryType DeliveryType `json:"deliveryType,omitempty"`
	// Purpose is a label of yours (sign-in, checkout): it shows in analytics.
	Purpose       string `json:"purpose,omitempty"`
	CustomMessage string `json:"customMessage,omitempty"`
	// Locale is the recipient's BCP 47 language tag (es, pt-BR, de-AT); English when unsupported.
	Locale string `json:"locale,omitempty"`
	// Link (EMAIL only): the email also carries a magic link, used up with the code; &Link{} ends
	// on the service's own "verified" page. The service needs PUBLIC_BASE_URL.
	Link *Link `json:"link,omitempty"`
	// Fallback (SILENT only: SMS, WHATSAPP or VOICE) sends a code on that channel, as the
	// request's dual sibling, when the silent check fails or times out.
	Fallback Channel `json:"fallback,omitempty"`

	// IdempotencyKey is sent as the Idempotency-Key header, not in the body: the same key and
	// body within 24 h replays the first answer instead of sending a second code. Empty: a
	// random key per send, kept across its retries.
	IdempotencyKey string `json:"-"`
}

// Link is SendCodeRequest.Link (schema SendLink). RedirectURL, when set, must be an origin of the
// account's linkRedirectOrigins: the browser goes there, with requestId and status=verified in its
// query, once the link verified.
type Link struct {
	RedirectURL string `json:"redirectUrl,omitempty"`
}

// SendCodeEntry is one channel of a send; keep RequestID to verify the code.
type SendCodeEntry struct {
	RequestID    string              `json:"requestId"`
	Channel      Channel             `json:"channel"`
	Status       EntryStatus         `json:"status"`
	ExpiresAt    time.Time           `json:"expiresAt"`
	To           string              `json:"to"` // masked
	DeliveryType DeliveryType        `json:"deliveryType,omitempty"`
	Error        *SendCodeEntryError `json:"error,omitempty"`
	Risk         *Risk               `json:"risk,omitempty"`
	// Silent (SILENT only) holds the URL the app opens on the device.
	Silent *SilentCheck `json:"silent,omitempty"`
	// Fallback (SILENT with Fallback) is the code sent at once because the silent start failed.
	Fallback *SilentFallback `json:"fallback,omitempty"`
}

// SilentCheck is how the device proves it holds the SIM: open URL from the app over mobile data
// (not Wi-Fi), then call VerifyCode with the request's id (and the code the URL answered, when the
// provider hands one out).
type SilentCheck struct {
	URL string `json:"url"`
}

// SilentFallback is the code a SILENT request fell back to (schema SilentFallback): either request
// id verifies it.
type SilentFallback struct {
	RequestID string         `json:"requestId"`
	Channel   Channel        `json:"channel"`
	Status    EntryStatus    `json:"status"`
	Reason    FallbackReason `json:"reason"`
	ExpiresAt time.Time      `json:"expiresAt"`
}

// SendCodeEntryError says why one channel of a dual send was not delivered.
type SendCodeEntryError struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// Risk is the score (0-100) the service gave a send, with its level and signals.
type Risk struct {
	Score   int          `json:"score"`
	Level   RiskLevel    `json:"level"`
	Signals []RiskSignal `json:"signals"`
}

// RiskSignal is one reason behind a risk score and what it added to it.
type RiskSignal struct {
	Name   string `json:"name"`
	Weight int    `json:"weight"`
	Detail string `json:"detail"`
}

// VerifyCodeResult is the answer of a verify; a wrong code is Verified false, not an error.
type VerifyCodeResult struct {
	// Verified is true only on the call that consumed the code.
	Verified bool `json:"verified"`
	// Channel is the channel on which the matching code was delivered.
	Channel   Channel `json:"channel"`
	RequestID string  `json:"requestId"`
	// Status is the state of the request after this call.
	Status            VerificationStatus `json:"status"`
	AttemptsRemaining int                `json:"attemptsRemaining"`
	// Silent (SILENT only) is what the provider concluded.
	Silent *SilentResult `json:"silent,omitempty"`
	// Fallback (SILENT) is the fallback code the failed check of this call sent.
	Fallback *SilentFallback `json:"fallback,omitempty"`
}

// SilentResult is what the provider concluded of a SILENT check, and why, in a sentence.
type SilentResult struct {
	Outcome SilentOutcome `json:"outcome"`
	Reason  string        `json:"reason,omitempty"`
}

// Verification is a verification request as it is now (GetVerification, CancelVerification).
// VerifiedAt and Method are set only when Status is verified; SiblingRequestID names the other
// request of a dual send.
type Verification struct {
	RequestID         string             `json:"requestId"`
	Channel           Channel            `json:"channel"`
	Status            VerificationStatus `json:"status"`
	To                string             `json:"to"` // masked
	CreatedAt         time.Time          `json:"createdAt"`
	ExpiresAt         time.Time          `json:"expiresAt"`
	AttemptsRemaining int                `json:"attemptsRemaining"`
	DeliveryType      DeliveryType       `json:"deliveryType,omitempty"`
	VerifiedAt        *time.Time         `json:"verifiedAt,omitempty"`
	Method            VerificationMethod `json:"method,omitempty"`
	SiblingRequestID  string             `json:"siblingRequestId,omitempty"`
	Delivery          Delivery           `json:"delivery"`
	// Fallback (SILENT with a fallback) is the fallback and what became of it.
	Fallback *VerificationFallback `json:"fallback,omitempty"`
}

// VerificationFallback is a SILENT request's fallback: Reason and RequestID (the fallback code's
// request) are set once it fired.
type VerificationFallback struct {
	Channel   Channel        `json:"channel"`
	State     FallbackState  `json:"state"`
	Reason    FallbackReason `json:"reason,omitempty"`
	RequestID string         `json:"requestId,omitempty"`
}

// Delivery is what became of the message (or call) that carries the code (schema
// VerificationDelivery); Provider is empty before one took it ("outbox" for the built-in outbox).
type Delivery struct {
	Status    DeliveryState `json:"status"`
	Provider  string        `json:"provider,omitempty"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

// Health is the answer of GET /health.
type Health struct {
	Status        HealthStatus              `json:"status"`
	Version       string                    `json:"version"`
	UptimeSeconds int64                     `json:"uptimeSeconds"`
	Services      HealthServices            `json:"services"`
	Channels      map[Channel]ChannelHealth `json:"channels"`
	// Lookups is the carrier lookup provider (LOOKUP_PROVIDER) on the answering instance, nil when
	// none is configured: down while its circuit is open (the status is then degraded), up once it
	// answered, unknown before.
	Lookups *ProviderHealth `json:"lookups,omitempty"`
	// Instances are the instances serving on the service's database.
	Instances InstancesHealth `json:"instances"`
	// PumpingBreakers counts the SMS-pumping breakers tripped now, per country.
	PumpingBreakers []PumpingBreakerCount `json:"pumpingBreakers,omitempty"`
	// CodeSecretRotation is nil unless a rotation of CODE_SECRET is in progress.
	CodeSecretRotation *CodeSecretRotation `json:"codeSecretRotation,omitempty"`
}

// InstancesHealth is what the answering instance last saw of the instances on its database: with
// Live above 1, any WithoutRedis (instances without REDIS_URL) makes the status degraded.
type InstancesHealth struct {
	Live         int `json:"live"`
	WithoutRedis int `json:"withoutRedis"`
}

// CodeSecretRotation is a rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a
// secret): PreviousSecrets are still accepted since the answering instance's start, and once every
// instance is past RemovableAfter, CODE_SECRET_PREVIOUS can be removed (and the service restarted).
type CodeSecretRotation struct {
	PreviousSecrets int       `json:"previousSecrets"`
	Since           time.Time `json:"since"`
	RemovableAfter  time.Time `json:"removableAfter"`
}

// HealthServices is the state of the database and of the rate-limit store.
type HealthServices struct {
	Database       ServiceState `json:"database"`
	RateLimitStore ServiceState `json:"rateLimitStore"`
}

// ChannelHealth says whether a channel can deliver, and the state of each of its providers.
type ChannelHealth struct {
	Operational bool             `json:"operational"`
	Providers   []ProviderHealth `json:"providers"`
	LiveCodes   LiveCodes        `json:"liveCodes"`
	Note        string           `json:"note,omitempty"`
}

// ProviderHealth is one provider of a channel, or the carrier lookup provider.
type ProviderHealth struct {
	Name  string        `json:"name"`
	State ProviderState `json:"state"`
	// Detail is what its last check found beyond its state (whatsapp-call: "calling ENABLED").
	Detail string `json:"detail,omitempty"`
}

// PumpingBreakerCount is how many SMS-pumping breakers (over every account and mode) stop sends
// to Country; which accounts, on the admin API.
type PumpingBreakerCount struct {
	Country string `json:"country"`
	Count   int    `json:"count"`
}

// OutboxMessage is a message kept by the built-in outbox (GET /v1/admin/outbox), exactly as the
// recipient would see it; Code is set for test-mode requests while they are pending.
type OutboxMessage struct {
	ID        string `json:"id"`
	AccountID string `json:"accountId"`
	RequestID string `json:"requestId"`
	// GroupID is shared by both requests of a dual send (a single send's is its RequestID).
	GroupID string `json:"groupId"`
	// SiblingRequestID is the other request of a dual send; empty for a single send.
	SiblingRequestID string `json:"siblingRequestId,omitempty"`
	// Status is the state of that request now.
	Status    VerificationStatus `json:"status"`
	Channel   Channel            `json:"channel"`
	To        string             `json:"to"`
	Subject   string             `json:"subject,omitempty"`
	Text      string             `json:"text"`
	HTML      string             `json:"html,omitempty"`
	Code      string             `json:"code,omitempty"`
	CreatedAt time.Time          `json:"createdAt"`
	// VerifiedAt and Method say when and how the request was verified (nil and empty otherwise).
	VerifiedAt *time.Time         `json:"verifiedAt,omitempty"`
	Method     VerificationMethod `json:"method,omitempty"`
}
