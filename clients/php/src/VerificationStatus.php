<?php

declare(strict_types=1);

namespace ContactVerify;

/** State of a verification request: pending, then verified, expired, failed (attempts used up) or
 * canceled (superseded, or its dual sibling was verified). */
enum VerificationStatus: string
{
    case Pending = 'pending';
    case Verified = 'verified';
    case Expired = 'expired';
    case Failed = 'failed';
    case Canceled = 'canceled';
}
