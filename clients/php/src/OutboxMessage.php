<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** A message kept by the service's outbox, exactly as the recipient would see it (TestHelper reads them). */
final class OutboxMessage implements \JsonSerializable
{
    public function __construct(
        public readonly string $id,
        public readonly string $accountId,
        public readonly string $requestId,
        public readonly Channel $channel,
        /** The full destination. */
        public readonly string $to,
        public readonly string $text,
        public readonly \DateTimeImmutable $createdAt,
        /** The state of its request now. */
        public readonly VerificationStatus $status,
        /** Shared by both requests of a dual send (a single send's is its requestId). */
        public readonly string $groupId,
        /** EMAIL only. */
        public readonly ?string $subject = null,
        /** EMAIL only. */
        public readonly ?string $html = null,
        /** The code in clear: test-mode requests only, while pending. */
        public readonly ?string $code = null,
        /** The other request of a dual send; null for a single send. */
        public readonly ?string $siblingRequestId = null,
        /** When its request was verified; null unless it is. */
        public readonly ?\DateTimeImmutable $verifiedAt = null,
        /** How its request was verified; null unless it is (or a method newer than this library). */
        public readonly ?VerificationMethod $method = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['id'],
            $data['accountId'],
            $data['requestId'],
            Channel::from($data['channel']),
            $data['to'],
            $data['text'],
            Wire::date($data['createdAt']),
            VerificationStatus::from($data['status']),
            $data['groupId'] ?? $data['requestId'],
            $data['subject'] ?? null,
            $data['html'] ?? null,
            $data['code'] ?? null,
            $data['siblingRequestId'] ?? null,
            isset($data['verifiedAt']) ? Wire::date($data['verifiedAt']) : null,
            isset($data['method']) ? VerificationMethod::tryFrom($data['method']) : null,
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'id' => $this->id,
            'accountId' => $this->accountId,
            'requestId' => $this->requestId,
            'groupId' => $this->groupId,
            'siblingRequestId' => $this->siblingRequestId,
            'status' => $this->status,
            'verifiedAt' => $this->verifiedAt !== null ? Wire::dateText($this->verifiedAt) : null,
            'method' => $this->method,
            'channel' => $this->channel,
            'to' => $this->to,
            'subject' => $this->subject,
            'text' => $this->text,
            'html' => $this->html,
            'code' => $this->code,
            'createdAt' => Wire::dateText($this->createdAt),
        ]);
    }
}
