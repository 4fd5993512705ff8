<?php

declare(strict_types=1);

namespace ContactVerify;

/**
 * Every failed call: the service's error body, with the HTTP status and Retry-After.
 * getErrorCode() is the contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED, ...),
 * or NETWORK_ERROR with status 0 when no answer came.
 */
final class ContactVerifyException extends \RuntimeException
{
    /** @param list<array{field: string, message: string, channel?: string}> $details */
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        string $message,
        public readonly array $details = [],
        public readonly ?int $retryAfter = null,
    ) {
        parent::__construct("{$status} {$errorCode}: {$message}");
    }
}
