<?php

declare(strict_types=1);

namespace ContactVerify;

/** A provider of a channel and its state: 'up', 'down', or 'unknown' before any use. */
final class ProviderHealth implements \JsonSerializable
{
    public function __construct(
        public readonly string $name,
        public readonly string $state,
        /** What its last check found, where it says more than its state (whatsapp-call's calling setting). */
        public readonly ?string $detail = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['name'], $data['state'], $data['detail'] ?? null);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Internal\Wire::compact(['name' => $this->name, 'state' => $this->state, 'detail' => $this->detail]);
    }
}
