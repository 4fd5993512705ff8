<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** One channel of a send: keep $requestId to verify the code. */
final class SendCodeEntry implements \JsonSerializable
{
    public function __construct(
        public readonly string $requestId,
        public readonly Channel $channel,
        public readonly SendCodeEntryStatus $status,
        public readonly \DateTimeImmutable $expiresAt,
        /** The masked destination. */
        public readonly string $to,
        /** WHATSAPP only. */
        public readonly ?DeliveryType $deliveryType = null,
        /** Why an undelivered entry of a dual send was not delivered. */
        public readonly ?SendCodeEntryError $error = null,
        public readonly ?Risk $risk = null,
        /** SILENT only: the URL the app opens on the device. */
        public readonly ?SilentStart $silent = null,
        /** SILENT with a fallback: the code sent at once because the silent start failed. */
        public readonly ?SilentFallback $fallback = null,
    ) {
    }

    /** @param array<string, mixed> $data the service's JSON object */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['requestId'],
            Channel::from($data['channel']),
            SendCodeEntryStatus::from($data['status']),
            Wire::date($data['expiresAt']),
            $data['to'],
            isset($data['deliveryType']) ? DeliveryType::from($data['deliveryType']) : null,
            isset($data['error']) ? SendCodeEntryError::fromArray($data['error']) : null,
            isset($data['risk']) ? Risk::fromArray($data['risk']) : null,
            isset($data['silent']) ? SilentStart::fromArray($data['silent']) : null,
            isset($data['fallback']) ? SilentFallback::fromArray($data['fallback']) : null,
        );
    }

    public function isPending(): bool
    {
        return $this->status === SendCodeEntryStatus::Pending;
    }

    public function isUndelivered(): bool
    {
        return $this->status === SendCodeEntryStatus::Undelivered;
    }

    /** @return array<string, mixed> as the service writes it */
    public function jsonSerialize(): array
    {
        return Wire::compact([
            'requestId' => $this->requestId,
            'channel' => $this->channel,
            'status' => $this->status,
            'expiresAt' => Wire::dateText($this->expiresAt),
            'to' => $this->to,
            'deliveryType' => $this->deliveryType,
            'error' => $this->error,
            'risk' => $this->risk,
            'silent' => $this->silent,
            'fallback' => $this->fallback,
        ]);
    }
}
