<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/**
 * RATE_LIMITED: a per-second limit (retried when Retry-After is short) or a destination's
 * cooldown, raised at once: show getRetryAfter() to the user.
 */
final class RateLimitedException extends ClientException
{
}
