<?php

declare(strict_types=1);

namespace ContactVerify;

/**
 * The contract's error codes, stable and machine-readable (ApiException::getErrorCode()), and
 * NetworkError, the library's own: no answer came.
 */
enum ErrorCode: string
{
    case ValidationError = 'VALIDATION_ERROR';
    case InvalidJson = 'INVALID_JSON';
    case InvalidDestination = 'INVALID_DESTINATION';
    case UnsupportedNumber = 'UNSUPPORTED_NUMBER';
    case Unauthorized = 'UNAUTHORIZED';
    case Forbidden = 'FORBIDDEN';
    case ChannelNotEnabled = 'CHANNEL_NOT_ENABLED';
    case ContactBlocked = 'CONTACT_BLOCKED';
    case RiskTooHigh = 'RISK_TOO_HIGH';
    case NotFound = 'NOT_FOUND';
    case RequestTimeout = 'REQUEST_TIMEOUT';
    case IdempotencyKeyInUse = 'IDEMPOTENCY_KEY_IN_USE';
    case PayloadTooLarge = 'PAYLOAD_TOO_LARGE';
    case UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE';
    case IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED';
    case RateLimited = 'RATE_LIMITED';
    case TooManyAttempts = 'TOO_MANY_ATTEMPTS';
    case HeadersTooLarge = 'HEADERS_TOO_LARGE';
    case Internal = 'INTERNAL';
    case DeliveryFailed = 'DELIVERY_FAILED';
    case Unavailable = 'UNAVAILABLE';
    case ChannelUnavailable = 'CHANNEL_UNAVAILABLE';

    /** Not the service's: no answer came (ConnectionException). */
    case NetworkError = 'NETWORK_ERROR';
}
