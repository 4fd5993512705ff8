<?php

declare(strict_types=1);

namespace ContactVerify\Internal;

/** @internal Conversions between the service's JSON and the library's values. */
final class Wire
{
    public static function date(string $text): \DateTimeImmutable
    {
        return new \DateTimeImmutable($text);
    }

    /** As the service writes dates: UTC, milliseconds, Z. */
    public static function dateText(\DateTimeImmutable $date): string
    {
        return $date->setTimezone(new \DateTimeZone('UTC'))->format('Y-m-d\TH:i:s.v\Z');
    }

    /**
     * @param array<string, mixed> $fields
     * @return array<string, mixed> the fields that are set
     */
    public static function compact(array $fields): array
    {
        return array_filter($fields, static fn ($v) => $v !== null);
    }
}
