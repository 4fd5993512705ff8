<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/**
 * A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a secret): previousSecrets
 * are still accepted since the answering instance's start, and once every instance is past
 * removableAfter, CODE_SECRET_PREVIOUS can be removed (and the service restarted).
 */
final class CodeSecretRotation implements \JsonSerializable
{
    public function __construct(
        public readonly int $previousSecrets,
        /** When the answering instance started accepting them (its start). */
        public readonly \DateTimeImmutable $since,
        public readonly \DateTimeImmutable $removableAfter,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['previousSecrets'], Wire::date($data['since']), Wire::date($data['removableAfter']));
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return [
            'previousSecrets' => $this->previousSecrets,
            'since' => Wire::dateText($this->since),
            'removableAfter' => Wire::dateText($this->removableAfter),
        ];
    }
}
