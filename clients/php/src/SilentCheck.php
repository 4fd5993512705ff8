<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** SILENT only: what the provider concluded about the check, and why (a sentence, never a code or a number). */
final class SilentCheck implements \JsonSerializable
{
    public function __construct(
        /** Null for an outcome newer than this library. */
        public readonly ?SilentOutcome $outcome,
        public readonly ?string $reason = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(SilentOutcome::tryFrom((string) $data['outcome']), $data['reason'] ?? null);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact(['outcome' => $this->outcome, 'reason' => $this->reason]);
    }
}
