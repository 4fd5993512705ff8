<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** The answer to a verify: a wrong code is $verified false with $attemptsRemaining, not an exception. */
final class VerifyCodeResult implements \JsonSerializable
{
    public function __construct(
        /** True only on the call that consumed the code. */
        public readonly bool $verified,
        /** The channel on which the matching code was delivered. */
        public readonly Channel $channel,
        public readonly string $requestId,
        /** The request's state after this call. */
        public readonly VerificationStatus $status,
        public readonly int $attemptsRemaining,
        /** SILENT only: what the provider concluded. */
        public readonly ?SilentCheck $silent = null,
        /** SILENT: the fallback code the failed check of this call sent. */
        public readonly ?SilentFallback $fallback = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['verified'],
            Channel::from($data['channel']),
            $data['requestId'],
            VerificationStatus::from($data['status']),
            $data['attemptsRemaining'],
            isset($data['silent']) ? SilentCheck::fromArray($data['silent']) : null,
            isset($data['fallback']) ? SilentFallback::fromArray($data['fallback']) : null,
        );
    }

    public function isVerified(): bool
    {
        return $this->verified;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'verified' => $this->verified,
            'channel' => $this->channel,
            'requestId' => $this->requestId,
            'status' => $this->status,
            'attemptsRemaining' => $this->attemptsRemaining,
            'silent' => $this->silent,
            'fallback' => $this->fallback,
        ]);
    }
}
