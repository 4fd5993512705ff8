<?php

declare(strict_types=1);

namespace ContactVerify;

/**
 * SILENT only: open $url from the app on the user's device over mobile data (not Wi-Fi), then call
 * Client::verifyCode() with the request id alone (or with the code the URL answered, when the
 * provider hands one out).
 */
final class SilentStart implements \JsonSerializable
{
    public function __construct(public readonly string $url)
    {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['url']);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['url' => $this->url];
    }
}
