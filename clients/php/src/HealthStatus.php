<?php

declare(strict_types=1);

namespace ContactVerify;

/** Degraded when the rate-limit store, a channel or a country is down; Down when the database is. */
enum HealthStatus: string
{
    case Ok = 'ok';
    case Degraded = 'degraded';
    case Down = 'down';
}
