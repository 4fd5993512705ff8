<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/**
 * A verification request as a resource (Client::getVerification(), Client::cancelVerification()):
 * what became of it and of its message.
 */
final class Verification implements \JsonSerializable
{
    public function __construct(
        public readonly string $requestId,
        public readonly Channel $channel,
        /** Its state now (of a verified dual pair, the request whose code matched is verified, the other canceled). */
        public readonly VerificationStatus $status,
        /** The masked destination. */
        public readonly string $to,
        public readonly \DateTimeImmutable $createdAt,
        public readonly \DateTimeImmutable $expiresAt,
        /** Checks left (shared by both requests of a dual pair). */
        public readonly int $attemptsRemaining,
        public readonly VerificationDelivery $delivery,
        /** WHATSAPP only. */
        public readonly ?DeliveryType $deliveryType = null,
        /** Once verified. */
        public readonly ?\DateTimeImmutable $verifiedAt = null,
        /** How it was verified, once it is; null too for a method newer than this library. */
        public readonly ?VerificationMethod $method = null,
        /** The other request of a dual send; null for one channel. */
        public readonly ?string $siblingRequestId = null,
        /** A SILENT send with a fallback: the fallback and what became of it. */
        public readonly ?VerificationFallback $fallback = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['requestId'],
            Channel::from($data['channel']),
            VerificationStatus::from($data['status']),
            $data['to'],
            Wire::date($data['createdAt']),
            Wire::date($data['expiresAt']),
            $data['attemptsRemaining'],
            VerificationDelivery::fromArray($data['delivery']),
            isset($data['deliveryType']) ? DeliveryType::from($data['deliveryType']) : null,
            isset($data['verifiedAt']) ? Wire::date($data['verifiedAt']) : null,
            isset($data['method']) ? VerificationMethod::tryFrom($data['method']) : null,
            $data['siblingRequestId'] ?? null,
            isset($data['fallback']) ? VerificationFallback::fromArray($data['fallback']) : null,
        );
    }

    public function isPending(): bool
    {
        return $this->status === VerificationStatus::Pending;
    }

    public function isVerified(): bool
    {
        return $this->status === VerificationStatus::Verified;
    }

    /** @return array<string, mixed> as the service writes it */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'requestId' => $this->requestId,
            'channel' => $this->channel,
            'status' => $this->status,
            'to' => $this->to,
            'createdAt' => Wire::dateText($this->createdAt),
            'expiresAt' => Wire::dateText($this->expiresAt),
            'attemptsRemaining' => $this->attemptsRemaining,
            'deliveryType' => $this->deliveryType,
            'verifiedAt' => $this->verifiedAt !== null ? Wire::dateText($this->verifiedAt) : null,
            'method' => $this->method,
            'siblingRequestId' => $this->siblingRequestId,
            'delivery' => $this->delivery,
            'fallback' => $this->fallback,
        ]);
    }
}
