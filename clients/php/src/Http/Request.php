<?php

declare(strict_types=1);

namespace ContactVerify\Http;

final class Request
{
    /** @param array<string, string> $headers */
    public function __construct(
        /** GET or POST. */
        public readonly string $method,
        public readonly string $url,
        public readonly array $headers,
        /** JSON, or null without a body. */
        public readonly ?string $body,
        /** Seconds for the whole exchange. */
        public readonly float $timeout,
    ) {
    }
}
