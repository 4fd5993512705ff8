<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** The code a SILENT request fell back to (send-code's fallback): either request id verifies it. */
final class SilentFallback implements \JsonSerializable
{
    public function __construct(
        /** The fallback code's request (the SILENT request's dual sibling). */
        public readonly string $requestId,
        public readonly Channel $channel,
        public readonly SendCodeEntryStatus $status,
        /** Null for a reason newer than this library. */
        public readonly ?FallbackReason $reason,
        public readonly \DateTimeImmutable $expiresAt,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['requestId'],
            Channel::from($data['channel']),
            SendCodeEntryStatus::from($data['status']),
            FallbackReason::tryFrom((string) $data['reason']),
            Wire::date($data['expiresAt']),
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return [
            'requestId' => $this->requestId,
            'channel' => $this->channel,
            'status' => $this->status,
            'reason' => $this->reason,
            'expiresAt' => Wire::dateText($this->expiresAt),
        ];
    }
}
