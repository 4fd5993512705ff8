<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

use ContactVerify\ErrorCode;
use ContactVerify\ErrorDetail;

/**
 * A call that failed: the service's error body ({"error": {code, message, details}}), its HTTP
 * status and Retry-After. The message reads "429 RATE_LIMITED: …".
 */
abstract class ApiException extends \RuntimeException implements ContactVerifyException
{
    /** @param list<ErrorDetail> $details */
    public function __construct(
        private readonly int $status,
        private readonly string $errorCode,
        string $message,
        private readonly array $details = [],
        private readonly ?int $retryAfter = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct("{$status} {$errorCode}: {$message}", 0, $previous);
    }

    /**
     * The exception of the service's answer: the class of its code, else of its status.
     *
     * @param list<ErrorDetail> $details
     */
    public static function fromAnswer(int $status, string $code, string $message, array $details, ?int $retryAfter): self
    {
        $class = match ($code) {
            ErrorCode::Unauthorized->value => AuthenticationException::class,
            ErrorCode::NotFound->value => NotFoundException::class,
            ErrorCode::RateLimited->value => RateLimitedException::class,
            ErrorCode::TooManyAttempts->value => TooManyAttemptsException::class,
            default => $status >= 500 ? ServerException::class : ClientException::class,
        };
        return new $class($status, $code, $message, $details, $retryAfter);
    }

    /** The HTTP status; 0 when no answer came. */
    public function getStatus(): int
    {
        return $this->status;
    }

    /** The contract's code; null only for a code newer than this library. */
    public function getErrorCode(): ?ErrorCode
    {
        return ErrorCode::tryFrom($this->errorCode);
    }

    /** @return list<ErrorDetail> one per problem with a field of the request */
    public function getDetails(): array
    {
        return $this->details;
    }

    /** Seconds to wait, from the answer's Retry-After; null without one. */
    public function getRetryAfter(): ?int
    {
        return $this->retryAfter;
    }
}
