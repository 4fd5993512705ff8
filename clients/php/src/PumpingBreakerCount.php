<?php

declare(strict_types=1);

namespace ContactVerify;

/** SMS-pumping breakers tripped now for one country (ISO 3166-1 alpha-2). */
final class PumpingBreakerCount implements \JsonSerializable
{
    public function __construct(public readonly string $country, public readonly int $count)
    {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['country'], $data['count']);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['country' => $this->country, 'count' => $this->count];
    }
}
