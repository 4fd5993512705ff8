<?php

declare(strict_types=1);

namespace ContactVerify;

/** What the provider concluded about a SILENT check; Pending: the device has not opened the URL
 * yet, ask again. */
enum SilentOutcome: string
{
    case Verified = 'verified';
    case Pending = 'pending';
    case Rejected = 'rejected';
    case InvalidNumber = 'invalid_number';
    case Unavailable = 'unavailable';
}
