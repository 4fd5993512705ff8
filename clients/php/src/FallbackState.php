<?php

declare(strict_types=1);

namespace ContactVerify;

/** What became of a SILENT request's fallback (Verification::$fallback->state); a newer state reads as null. */
enum FallbackState: string
{
    /** Waiting for the account's silentTimeoutSeconds. */
    case Scheduled = 'scheduled';
    /** Its code was sent: $requestId is the sibling request that carries it. */
    case Fired = 'fired';
    /** Not needed: the SILENT request settled first. */
    case Dropped = 'dropped';
}
