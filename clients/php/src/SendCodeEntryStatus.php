<?php

declare(strict_types=1);

namespace ContactVerify;

/** Status of one entry of a send: Undelivered only in a dual answer whose other channel was delivered. */
enum SendCodeEntryStatus: string
{
    case Pending = 'pending';
    case Undelivered = 'undelivered';
}
