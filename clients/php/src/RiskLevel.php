<?php

declare(strict_types=1);

namespace ContactVerify;

/** The band of a send's fraud score. */
enum RiskLevel: string
{
    case Low = 'low';
    case Medium = 'medium';
    case High = 'high';
}
