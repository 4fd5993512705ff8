<?php

declare(strict_types=1);

namespace ContactVerify;

/** Why the channel of an undelivered entry of a dual send was not delivered. */
final class SendCodeEntryError implements \JsonSerializable
{
    public function __construct(
        /** DELIVERY_FAILED, INVALID_DESTINATION or CHANNEL_UNAVAILABLE (no request was made for it). */
        public readonly ErrorCode $code,
        public readonly string $message,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(ErrorCode::from($data['code']), $data['message']);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['code' => $this->code, 'message' => $this->message];
    }
}
