<?php

declare(strict_types=1);

namespace ContactVerify;

/** How a request was verified: the code typed, the email's magic link, or silent network
 * authentication. A method newer than this library reads as null (tryFrom). */
enum VerificationMethod: string
{
    case Code = 'code';
    case Link = 'link';
    case Silent = 'silent';
}
