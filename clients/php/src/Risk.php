<?php

declare(strict_types=1);

namespace ContactVerify;

/** The fraud score of a send (0–100), its band and the signals behind it. */
final class Risk implements \JsonSerializable
{
    /** @param list<RiskSignal> $signals */
    public function __construct(
        public readonly int $score,
        public readonly RiskLevel $level,
        public readonly array $signals,
    ) {
    }

    /** @param array<string, mixed> $data */
    public static function fromArray(array $data): self
    {
        return new self(
            $data['score'],
            RiskLevel::from($data['level']),
            array_map(RiskSignal::fromArray(...), $data['signals']),
        );
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return ['score' => $this->score, 'level' => $this->level, 'signals' => $this->signals];
    }
}
