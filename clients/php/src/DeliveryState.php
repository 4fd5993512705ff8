<?php

declare(strict_types=1);

namespace ContactVerify;

/** Where the message (or call) that carries the code is; the last four are calls'. A state newer
 * than this library reads as null (tryFrom). */
enum DeliveryState: string
{
    /** Not handed to a provider yet. */
    case Queued = 'queued';
    /** A provider (or the outbox) took it. */
    case Sent = 'sent';
    /** The provider reported it delivered. */
    case Delivered = 'delivered';
    /** Refused by every provider, reported undelivered, or a call that failed. */
    case Undelivered = 'undelivered';
    /** A WhatsApp call waits for the user to allow calls. */
    case AwaitingPermission = 'awaiting_permission';
    case Calling = 'calling';
    /** The code is being read. */
    case Answered = 'answered';
    case Completed = 'completed';
}
