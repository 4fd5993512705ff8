<?php

declare(strict_types=1);

namespace ContactVerify;

/** Why a SILENT request fell back to a code: its provider failed, the network proved another SIM,
 * or the device did not finish in time. */
enum FallbackReason: string
{
    case ProviderFailed = 'provider_failed';
    case Rejected = 'rejected';
    case Timeout = 'timeout';
}
