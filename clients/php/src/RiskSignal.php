<?php

declare(strict_types=1);

namespace ContactVerify;

/** One signal behind a send's fraud score: what it added ($weight) and why ($detail). */
final class RiskSignal implements \JsonSerializable
{
    public function __construct(
        /** destination_velocity, unconverted_sends, wrong_code_ratio, number_type, … */
        public readonly string $name,
        public readonly int $weight,
        public readonly string $detail,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self($data['name'], $data['weight'], $data['detail']);
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['name' => $this->name, 'weight' => $this->weight, 'detail' => $this->detail];
    }
}
