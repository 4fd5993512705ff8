<?php

declare(strict_types=1);

namespace ContactVerify;

/** How a WHATSAPP code is delivered: a message (the default) or read out in a call. */
enum DeliveryType: string
{
    case Text = 'TEXT';
    case Call = 'CALL';
}
