<?php

declare(strict_types=1);

namespace ContactVerify;

/** The service's health (GET /health, no key needed). */
final class Health implements \JsonSerializable
{
    /**
     * @param array{database: string, rateLimitStore: string} $services each 'up' or 'down'
     * @param array<string, ChannelHealth> $channels by channel name (EMAIL, SMS, WHATSAPP)
     * @param InstancesHealth|null $instances the instances on the service's database (null from a
     *                                        service that does not say)
     * @param list<PumpingBreakerCount> $pumpingBreakers
     * @param CodeSecretRotation|null $codeSecretRotation null unless a rotation of CODE_SECRET is in progress
     * @param ProviderHealth|null $lookups the carrier lookup provider (LOOKUP_PROVIDER) on the answering
     *                                     instance, null when none is configured: 'down' while its circuit
     *                                     is open (the status is then degraded), 'up' once it answered,
     *                                     'unknown' before
     */
    public function __construct(
        public readonly HealthStatus $status,
        public readonly string $version,
        public readonly int $uptimeSeconds,
        public readonly array $services,
        public readonly array $channels,
        public readonly ?InstancesHealth $instances = null,
        public readonly array $pumpingBreakers = [],
        public readonly ?CodeSecretRotation $codeSecretRotation = null,
        public readonly ?ProviderHealth $lookups = null,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            HealthStatus::from($data['status']),
            $data['version'],
            $data['uptimeSeconds'],
            $data['services'],
            array_map(ChannelHealth::fromArray(...), $data['channels']),
            isset($data['instances']) ? InstancesHealth::fromArray($data['instances']) : null,
            array_map(PumpingBreakerCount::fromArray(...), $data['pumpingBreakers'] ?? []),
            isset($data['codeSecretRotation']) ? CodeSecretRotation::fromArray($data['codeSecretRotation']) : null,
            isset($data['lookups']) ? ProviderHealth::fromArray($data['lookups']) : null,
        );
    }

    public function isOk(): bool
    {
        return $this->status === HealthStatus::Ok;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return [
            'status' => $this->status,
            'version' => $this->version,
            'uptimeSeconds' => $this->uptimeSeconds,
            'services' => $this->services,
            'channels' => $this->channels,
            'lookups' => $this->lookups,
            'instances' => $this->instances,
            'pumpingBreakers' => $this->pumpingBreakers,
            'codeSecretRotation' => $this->codeSecretRotation,
        ];
    }
}
