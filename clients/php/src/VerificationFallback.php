<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** A SILENT request's fallback (sendCode()'s $fallback) and what became of it. */
final class VerificationFallback implements \JsonSerializable
{
    public function __construct(
        public readonly Channel $channel,
        /** Null for a state newer than this library. */
        public readonly ?FallbackState $state,
        /** Why it fired; null before (or for a reason newer than this library). */
        public readonly ?FallbackReason $reason = null,
        /** The sibling request that carries the code, once it fired. */
        public readonly ?string $requestId = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            Channel::from($data['channel']),
            FallbackState::tryFrom((string) $data['state']),
            isset($data['reason']) ? FallbackReason::tryFrom($data['reason']) : null,
            $data['requestId'] ?? null,
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'channel' => $this->channel,
            'state' => $this->state,
            'reason' => $this->reason,
            'requestId' => $this->requestId,
        ]);
    }
}
