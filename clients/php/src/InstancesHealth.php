<?php

declare(strict_types=1);

namespace ContactVerify;

/**
 * The instances serving on the service's database, as the answering one last saw them: with live
 * above 1, any withoutRedis (instances without REDIS_URL) makes the status degraded.
 */
final class InstancesHealth implements \JsonSerializable
{
    public function __construct(public readonly int $live, public readonly int $withoutRedis)
    {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['live'], $data['withoutRedis']);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['live' => $this->live, 'withoutRedis' => $this->withoutRedis];
    }
}
