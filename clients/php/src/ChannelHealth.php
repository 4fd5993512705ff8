<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** One channel's health: whether live traffic works, its providers, and what becomes of live codes. */
final class ChannelHealth implements \JsonSerializable
{
    /** @param list<ProviderHealth> $providers */
    public function __construct(
        public readonly bool $operational,
        public readonly array $providers,
        /** 'delivered', 'outbox' (parked, not delivered) or 'refused'. */
        public readonly string $liveCodes,
        /** A sentence for operators when some live codes of this channel are not delivered. */
        public readonly ?string $note = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['operational'],
            array_map(ProviderHealth::fromArray(...), $data['providers']),
            $data['liveCodes'],
            $data['note'] ?? null,
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'operational' => $this->operational,
            'providers' => $this->providers,
            'liveCodes' => $this->liveCodes,
            'note' => $this->note,
        ]);
    }
}
