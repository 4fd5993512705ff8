<?php

declare(strict_types=1);

namespace ContactVerify;

/** Delivery channel. */
enum Channel: string
{
    case Email = 'EMAIL';
    case Sms = 'SMS';
    case WhatsApp = 'WHATSAPP';
    /** A phone call that reads the code. */
    case Voice = 'VOICE';
    /** Silent network authentication: no code to type (see Client::verifyCode()). */
    case Silent = 'SILENT';
}
