<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/** One problem with one field of the request (ApiException::getDetails()). */
final class ErrorDetail implements \JsonSerializable
{
    public function __construct(
        /** A dotted path into the body, e.g. `channels` or `email`. */
        public readonly string $field,
        public readonly string $message,
        /** The channel the problem concerns, if one. */
        public readonly ?Channel $channel = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            (string) ($data['field'] ?? ''),
            (string) ($data['message'] ?? ''),
            isset($data['channel']) ? Channel::tryFrom($data['channel']) : null,
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return Wire::compact(['field' => $this->field, 'message' => $this->message, 'channel' => $this->channel]);
    }
}
