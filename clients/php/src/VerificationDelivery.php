<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** What became of the message (or call) that carries the code. */
final class VerificationDelivery implements \JsonSerializable
{
    public function __construct(
        /** Null for a state newer than this library. */
        public readonly ?DeliveryState $status,
        /** When the state last moved (the request's creation until it first did). */
        public readonly \DateTimeImmutable $updatedAt,
        /** The provider that took the message, or 'outbox'; null before one did. */
        public readonly ?string $provider = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(DeliveryState::tryFrom((string) $data['status']), Wire::date($data['updatedAt']), $data['provider'] ?? null);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'status' => $this->status,
            'provider' => $this->provider,
            'updatedAt' => Wire::dateText($this->updatedAt),
        ]);
    }
}
